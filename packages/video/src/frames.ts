// The frames an episode sees: the overview (SPEC §1.1) and crop_video windows (SPEC §1.4), as
// JPEG quality 85 within the SPEC pixel bounds, through the disk cache when one is given. Each is
// the frame AT its timestamp (the first frame at or after it, frame-reader.ts), because the prompt
// states that timestamp to the model; keyframe approximations are an explicit opt-in (`maxErrorS`).

import { stat } from "node:fs/promises";
import sharp from "sharp";
import { VideoError } from "./errors";
import { FrameCache } from "./frame-cache";
import { decodeStats, readFrames, type FrameRequest, type RawFrame } from "./frame-reader";
import { openDecoder, openVideo } from "./open-video";
import { probeCached, type VideoInfo } from "./probe";
import {
  JPEG_QUALITY,
  MAX_PIXELS,
  MIN_PIXELS,
  clampWindow,
  cropTimestamps,
  fitPixels,
  overviewTimestamps,
  type Size,
} from "./sampling";

export interface SampledFrame {
  /** The requested (nominal) timestamp, seconds: what the UI draws and the prompt states. */
  timestamp: number;
  /**
   * Presentation time of the frame decoded: by default the first frame at or after `timestamp`
   * (less than one frame period after it); earlier only with an opt-in `maxErrorS`. Store it with
   * the trajectory.
   */
  sourceTime: number;
  jpeg: Buffer;
  width: number;
  height: number;
}

export interface FrameOptions {
  /** Disk cache of encoded frames; none by default. */
  cache?: FrameCache | null;
  /** Video identity for the cache (e.g. the upload's content hash); default path + size + mtime. */
  videoKey?: string;
  /** A probe result for this file, to skip probing (it must be of the same file version). */
  info?: VideoInfo;
  /**
   * Default 0: every frame is the exact frame, the first frame at or after its timestamp. An
   * opt-in speed knob (seconds): a seek lands on the keyframe at or before t, and that keyframe is
   * taken as is when it is within maxErrorS of t (one decode instead of up to a GOP); Infinity =
   * always the keyframe. The frame is then up to maxErrorS early and only `sourceTime` says when
   * it was shown: a caller that opts in must state `sourceTime`, not `timestamp`, to a model. See
   * README "Accuracy vs cost".
   */
  maxErrorS?: number;
  minPixels?: number;
  maxPixels?: number;
  /** An exact output size (display orientation), instead of fitting into min/max pixels. */
  size?: Size;
  /** JPEG quality, default 85 (SPEC §5). */
  quality?: number;
  /** Decoder threads per open file (default 1, see open-video.ts). */
  threads?: number;
  signal?: AbortSignal;
}

export interface CropResult {
  /** The window actually sampled: `end` is clamped to the duration (SPEC §1.4). */
  start: number;
  end: number;
  clamped: boolean;
  frames: SampledFrame[];
}

async function resolveInfo(path: string, opts: FrameOptions): Promise<VideoInfo> {
  if (opts.info) return opts.info;
  let st;
  try {
    st = await stat(path);
  } catch {
    // Let probe produce the typed error (NOT_FOUND, …).
    return probeCached(path, { sizeBytes: -1, mtimeMs: -1 });
  }
  return probeCached(path, { sizeBytes: st.size, mtimeMs: st.mtimeMs });
}

/** Output size before rotation (the decoder's orientation) for a display size. */
export function decoderSize(info: VideoInfo, display: Size): Size {
  return info.rotation === 90 || info.rotation === 270 ? { width: display.height, height: display.width } : display;
}

/** Encodes a decoded RGB frame, applying the display rotation. */
export function encodeJpeg(rgb: Buffer, size: Size, rotation: VideoInfo["rotation"], quality: number): Promise<Buffer> {
  let img = sharp(rgb, { raw: { width: size.width, height: size.height, channels: 3 } });
  if (rotation) img = img.rotate(rotation);
  return img.jpeg({ quality }).toBuffer();
}

/**
 * Decodes the frames of `requests` from one open file, calling `onFrame` per request. Internal
 * building block shared with thumbnails; decodes everything asked (no cache).
 */
export async function decodeRequests(
  info: VideoInfo,
  requests: readonly FrameRequest[],
  size: Size,
  opts: Pick<FrameOptions, "threads" | "signal">,
  onFrame: (index: number, frame: RawFrame) => void,
): Promise<void> {
  const video = await openVideo(info.path);
  decodeStats.opens++;
  try {
    const cc = await openDecoder(video, opts.threads === undefined ? {} : { threads: opts.threads });
    try {
      const readOpts = { size, gopS: info.keyframeInterval ?? 10, ...(opts.signal ? { signal: opts.signal } : {}) };
      await readFrames(video, cc, requests, readOpts, onFrame);
    } finally {
      cc.freeContext();
    }
  } finally {
    await video.fc.closeInput();
  }
}

/**
 * Frames at arbitrary timestamps (seconds from the start), in the order given. `floorS` is the
 * earliest time any frame may come from (the start of a crop window).
 */
export async function framesAt(
  path: string,
  timestamps: readonly number[],
  opts: FrameOptions & { floorS?: number } = {},
): Promise<SampledFrame[]> {
  const info = await resolveInfo(path, opts);
  if (timestamps.length === 0) return [];
  for (const t of timestamps) {
    if (!Number.isFinite(t) || t < 0)
      throw new VideoError("INVALID_ARGUMENT", `Frame timestamps must be >= 0 (got ${t}).`);
  }
  const quality = opts.quality ?? JPEG_QUALITY;
  const display =
    opts.size ?? fitPixels(info.width, info.height, opts.minPixels ?? MIN_PIXELS, opts.maxPixels ?? MAX_PIXELS);
  const maxErrorS = opts.maxErrorS ?? 0;
  if (!(maxErrorS >= 0)) throw new VideoError("INVALID_ARGUMENT", `maxErrorS must be >= 0 (got ${maxErrorS}).`);
  const floor = opts.floorS ?? 0;
  const cache = opts.cache ?? null;
  const video = opts.videoKey ?? FrameCache.videoIdentity(info.path, info.sizeBytes, info.mtimeMs);
  const notBefore = timestamps.map((t) => Math.max(floor, t - maxErrorS));
  const keys = cache
    ? timestamps.map((t, i) =>
        cache.key({ video, t, notBefore: notBefore[i]!, width: display.width, height: display.height, quality }),
      )
    : [];

  const out: (SampledFrame | undefined)[] = new Array(timestamps.length);
  const cached = cache ? await Promise.all(keys.map((k) => cache.get(k))) : [];
  const missing: number[] = [];
  timestamps.forEach((t, i) => {
    const hit = cached[i];
    if (hit)
      out[i] = { timestamp: t, sourceTime: hit.sourceTime, jpeg: hit.jpeg, width: hit.width, height: hit.height };
    else missing.push(i);
  });

  if (missing.length > 0) {
    const requests = missing.map((i) => ({ t: timestamps[i]!, notBefore: notBefore[i]! }));
    const pending: Promise<void>[] = [];
    const size = decoderSize(info, display);
    await decodeRequests(info, requests, size, opts, (r, frame) => {
      const i = missing[r]!;
      // JPEG encoding and the cache write overlap with decoding the next frame.
      pending.push(
        encodeJpeg(frame.rgb, size, info.rotation, quality).then(async (jpeg) => {
          const f = {
            timestamp: timestamps[i]!,
            sourceTime: frame.sourceTime,
            jpeg,
            width: display.width,
            height: display.height,
          };
          out[i] = f;
          if (cache) await cache.put(keys[i]!, f);
        }),
      );
    });
    await Promise.all(pending);
  }
  return out.map((f, i) => {
    if (!f) throw new Error(`internal: no frame for timestamp ${timestamps[i]}`);
    return f;
  });
}

/**
 * The K overview frames of SPEC §1.1 at `overviewTimestamps(duration, K)` (evenly over
 * [0, duration)), resized into the SPEC pixel bounds, JPEG quality 85.
 */
export async function overview(path: string, k: number, opts: FrameOptions = {}): Promise<SampledFrame[]> {
  const info = await resolveInfo(path, opts);
  return framesAt(path, overviewTimestamps(info.duration, k), { ...opts, info });
}

/**
 * The frames of one crop_video call (SPEC §1.4): 1 fps over [start, end), at least 1 and at most
 * 16 (evenly subsampled beyond 16 s). Throws VideoError INVALID_WINDOW for start >= end or
 * start >= duration; clamps end to the duration. No frame comes from before `start`.
 */
export async function cropWindow(
  path: string,
  start: number,
  end: number,
  opts: FrameOptions = {},
): Promise<CropResult> {
  const info = await resolveInfo(path, opts);
  const window = clampWindow(start, end, info.duration);
  const timestamps = cropTimestamps(start, end, info.duration);
  const frames = await framesAt(path, timestamps, { ...opts, info, floorS: window.start });
  return { ...window, frames };
}
