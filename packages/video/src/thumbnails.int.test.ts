import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { probe, type VideoInfo } from "./probe";
import { filmstripSheetSize } from "./sampling";
import { MAIN_VIDEO, sharedTestVideo } from "./test-support";
import { readFrameIndex } from "./test-video";
import { filmstrip, thumbnail } from "./thumbnails";

let main: string;
let info: VideoInfo;
let rotated: string;

beforeAll(async () => {
  [main, rotated] = await Promise.all([
    sharedTestVideo(MAIN_VIDEO),
    sharedTestVideo({ durationS: 4, width: 320, height: 180, fps: 25, rotation: 90, keyframeIntervalS: 1 }),
  ]);
  info = await probe(main);
});

describe("thumbnail", () => {
  it("is a JPEG poster from 10% into the video, fitted in 320x320", async () => {
    const thumb = await thumbnail(main, { info });
    expect(thumb).toMatchObject({ width: 320, height: 180, timestamp: 12 });
    expect(thumb.sourceTime).toBeGreaterThanOrEqual(12 - 120 * 0.05);
    expect(thumb.sourceTime).toBeLessThanOrEqual(12);
    const meta = await sharp(thumb.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 320, 180]);
  });

  it("honours the requested time and box, and portrait rotation", async () => {
    const thumb = await thumbnail(rotated, { atS: 1, maxWidth: 100, maxHeight: 100 });
    expect([thumb.width, thumb.height]).toEqual([56, 100]);
    const meta = await sharp(thumb.jpeg).metadata();
    expect([meta.width, meta.height]).toEqual([56, 100]);
  });
});

describe("filmstrip", () => {
  it("builds a sprite sheet whose index matches its pixels", async () => {
    const strip = await filmstrip(main, { info, frames: 30 });
    const { index } = strip;
    expect(index).toMatchObject({ tileWidth: 160, tileHeight: 90, columns: 10, rows: 3, sheetCount: 1, duration: 120 });
    expect(index.frames).toHaveLength(30);
    expect(strip.sheets).toHaveLength(1);
    const meta = await sharp(strip.sheets[0]!).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual(filmstripSheetSize(index, 0));
    expect([meta.width, meta.height]).toEqual([1600, 270]);
    // Each tile shows a frame from its own slice of the timeline (read from the burnt-in barcode).
    const slice = 120 / 30;
    for (const f of index.frames) {
      const tile = await sharp(strip.sheets[0]!)
        .extract({ left: f.x, top: f.y, width: index.tileWidth, height: index.tileHeight })
        .greyscale()
        .raw()
        .toBuffer();
      const time = readFrameIndex(tile, index.tileWidth, index.tileHeight) / MAIN_VIDEO.fps;
      expect(time).toBeGreaterThanOrEqual(f.t - slice / 2 - 1e-6);
      expect(time).toBeLessThanOrEqual(f.t + 1 / MAIN_VIDEO.fps + 1e-6);
    }
  });

  it("spills into several sheets, the last one only as tall as its rows", async () => {
    const strip = await filmstrip(main, { info, frames: 25, columns: 4, rowsPerSheet: 3, tileWidth: 64 });
    expect(strip.index.sheetCount).toBe(3);
    expect(strip.sheets).toHaveLength(3);
    for (let s = 0; s < 3; s++) {
      const meta = await sharp(strip.sheets[s]!).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual(filmstripSheetSize(strip.index, s));
    }
    expect(filmstripSheetSize(strip.index, 2)).toEqual({ width: 256, height: 36 });
  });

  it("rotates tiles of a portrait video", async () => {
    const strip = await filmstrip(rotated, { frames: 4, tileWidth: 90 });
    expect([strip.index.tileWidth, strip.index.tileHeight]).toEqual([90, 160]);
    const meta = await sharp(strip.sheets[0]!).metadata();
    expect([meta.width, meta.height]).toEqual([360, 160]);
  });
});
