// Poster image and scrubber filmstrip of a video row. Not cached here: the job that makes them
// stores the results once per upload.

import sharp from "sharp";
import { decodeRequests, decoderSize, encodeJpeg } from "./frames";
import type { RawFrame } from "./frame-reader";
import { probe, type VideoInfo } from "./probe";
import {
  filmstripLayout,
  filmstripSheetSize,
  filmstripTimestamps,
  fitBox,
  type FilmstripIndex,
  type Size,
} from "./sampling";
import { VideoError } from "./errors";

export interface ThumbnailOptions {
  /** Time of the poster frame (s). Default 10% into the video, past most black intros. */
  atS?: number;
  /** Box the poster fits in, keeping aspect; never upscaled. Default 320 x 320. */
  maxWidth?: number;
  maxHeight?: number;
  quality?: number;
  info?: VideoInfo;
  threads?: number;
  signal?: AbortSignal;
}

export interface Thumbnail {
  jpeg: Buffer;
  width: number;
  height: number;
  /** Requested time and the time of the frame used (a nearby keyframe is accepted: it is a poster). */
  timestamp: number;
  sourceTime: number;
}

export async function thumbnail(path: string, opts: ThumbnailOptions = {}): Promise<Thumbnail> {
  const info = opts.info ?? (await probe(path));
  const t = Math.min(Math.max(0, opts.atS ?? info.duration * 0.1), info.duration);
  const display = fitBox(info.width, info.height, opts.maxWidth ?? 320, opts.maxHeight ?? 320);
  const size = decoderSize(info, display);
  let raw: RawFrame | undefined;
  // Up to 5% of the duration early is fine for a poster, and usually lands on a keyframe.
  await decodeRequests(info, [{ t, notBefore: Math.max(0, t - info.duration * 0.05) }], size, opts, (_, f) => {
    raw = f;
  });
  if (!raw) throw new Error("internal: thumbnail frame missing");
  const jpeg = await encodeJpeg(raw.rgb, size, info.rotation, opts.quality ?? 85);
  return { jpeg, width: display.width, height: display.height, timestamp: t, sourceTime: raw.sourceTime };
}

export interface FilmstripOptions {
  /** Number of tiles, evenly over the video (midpoints of equal slices). Default 100. */
  frames?: number;
  /** Tile width in pixels; the height follows the video's aspect ratio. Default 160. */
  tileWidth?: number;
  /** Tiles per row (default 10) and rows per sheet (default 10) before a new sheet starts. */
  columns?: number;
  rowsPerSheet?: number;
  /** JPEG quality of the sheets. Default 75: previews are small and many. */
  quality?: number;
  info?: VideoInfo;
  threads?: number;
  signal?: AbortSignal;
}

export interface Filmstrip {
  /** Sprite layout for the scrubber; `frames[i].sheet` indexes `sheets`. */
  index: FilmstripIndex & { duration: number };
  /** JPEG sprite sheets. */
  sheets: Buffer[];
}

export async function filmstrip(path: string, opts: FilmstripOptions = {}): Promise<Filmstrip> {
  const info = opts.info ?? (await probe(path));
  const n = opts.frames ?? 100;
  const timestamps = filmstripTimestamps(info.duration, n);
  const tileWidth = opts.tileWidth ?? 160;
  if (!Number.isInteger(tileWidth) || tileWidth < 1) {
    throw new VideoError("INVALID_ARGUMENT", `Filmstrip tile width must be a positive integer (got ${tileWidth}).`);
  }
  const tile: Size = { width: tileWidth, height: Math.max(1, Math.round((tileWidth * info.height) / info.width)) };
  const index = filmstripLayout(timestamps, {
    tileWidth: tile.width,
    tileHeight: tile.height,
    columns: opts.columns ?? 10,
    rowsPerSheet: opts.rowsPerSheet ?? 10,
  });
  const size = decoderSize(info, tile);
  // A preview only has to look like its slice of the timeline: any frame of the slice will do.
  const half = info.duration / n / 2;
  const requests = timestamps.map((t) => ({ t, notBefore: t - half }));
  const tiles: Promise<Buffer>[] = new Array(n);
  await decodeRequests(info, requests, size, opts, (i, f) => {
    tiles[i] = info.rotation
      ? sharp(f.rgb, { raw: { width: size.width, height: size.height, channels: 3 } })
          .rotate(info.rotation)
          .raw()
          .toBuffer()
      : Promise.resolve(f.rgb);
  });
  const rgbTiles = await Promise.all(tiles);
  const sheets: Buffer[] = [];
  for (let s = 0; s < index.sheetCount; s++) {
    const sheetSize = filmstripSheetSize(index, s);
    const canvas = Buffer.alloc(sheetSize.width * sheetSize.height * 3);
    const rowBytes = tile.width * 3;
    index.frames.forEach((f, i) => {
      if (f.sheet !== s) return;
      const src = rgbTiles[i]!;
      for (let y = 0; y < tile.height; y++) {
        src.copy(canvas, ((f.y + y) * sheetSize.width + f.x) * 3, y * rowBytes, (y + 1) * rowBytes);
      }
    });
    sheets.push(
      await sharp(canvas, { raw: { width: sheetSize.width, height: sheetSize.height, channels: 3 } })
        .jpeg({ quality: opts.quality ?? 75 })
        .toBuffer(),
    );
  }
  return { index: { ...index, duration: info.duration }, sheets };
}
