import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VideoError } from "./errors";
import { FrameCache } from "./frame-cache";
import { decodeStats } from "./frame-reader";
import { cropWindow, framesAt, overview, type SampledFrame } from "./frames";
import { probe, type VideoInfo } from "./probe";
import { MAX_PIXELS, MIN_PIXELS, cropTimestamps, overviewTimestamps } from "./sampling";
import { MAIN_VIDEO, sharedTestVideo } from "./test-support";
import { readFrameIndex } from "./test-video";

const FPS = MAIN_VIDEO.fps;
let dir: string;
let main: string;
let info: VideoInfo;
let tiny: string;
let rotated: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "paravt-frames-"));
  [main, tiny, rotated] = await Promise.all([
    sharedTestVideo(MAIN_VIDEO),
    sharedTestVideo({ durationS: 2, width: 16, height: 16, fps: 10 }),
    sharedTestVideo({ durationS: 4, width: 320, height: 180, fps: 25, rotation: 90, keyframeIntervalS: 1 }),
  ]);
  info = await probe(main);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Frame number burnt into a returned frame by the "frame-index" pattern. */
async function frameNumber(f: SampledFrame): Promise<number> {
  const { data, info: meta } = await sharp(f.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  return readFrameIndex(data, meta.width, meta.height);
}

/** Time of the first frame at or after t in a constant-frame-rate video. */
function frameAtOrAfter(t: number): number {
  return Math.ceil(t * FPS - 1e-6) / FPS;
}

async function expectValidFrames(frames: SampledFrame[], maxErrorS: number, floor = 0): Promise<void> {
  for (const f of frames) {
    const meta = await sharp(f.jpeg).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([f.width, f.height]);
    expect(f.width * f.height).toBeGreaterThanOrEqual(MIN_PIXELS);
    expect(f.width * f.height).toBeLessThanOrEqual(MAX_PIXELS);
    // The pixels are those of the frame the result claims.
    expect(await frameNumber(f)).toBe(Math.round(f.sourceTime * FPS));
    // Contract of the reader: never before t - maxError (nor before the window), never after the exact frame.
    expect(f.sourceTime).toBeGreaterThanOrEqual(Math.max(floor, f.timestamp - maxErrorS) - 1e-6);
    expect(f.sourceTime).toBeLessThanOrEqual(frameAtOrAfter(f.timestamp) + 1e-6);
  }
}

async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof VideoError ? err.code : `not a VideoError: ${String(err)}`;
  }
  return "no error";
}

describe("overview", () => {
  it.each([4, 8, 16, 32, 64, 7, 1])("returns K=%i frames, each the exact frame at its timestamp", async (k) => {
    const frames = await overview(main, k, { info });
    expect(frames).toHaveLength(k);
    expect(frames.map((f) => f.timestamp)).toEqual(overviewTimestamps(120, k));
    expect(frames[0]).toMatchObject({ width: 298, height: 168 });
    for (const f of frames) expect(f.sourceTime).toBeCloseTo(frameAtOrAfter(f.timestamp), 9);
    await expectValidFrames(frames, 0);
  });

  it("rejects a negative maxErrorS", async () => {
    expect(await errorCode(overview(main, 4, { info, maxErrorS: -1 }))).toBe("INVALID_ARGUMENT");
  });

  it("takes the keyframe at or before each timestamp with maxErrorS Infinity", async () => {
    const frames = await overview(main, 16, { info, maxErrorS: Infinity });
    // Keyframes every 2 s.
    for (const f of frames) expect(f.sourceTime).toBeCloseTo(Math.floor(f.timestamp / 2 + 1e-9) * 2, 9);
    await expectValidFrames(frames, Infinity);
  });

  it("takes a keyframe within an opt-in maxErrorS, and says so in sourceTime", async () => {
    // Spacing 7.5 s, tolerance 3.75 s: keyframes (every 2 s) are always within it.
    const frames = await overview(main, 16, { info, maxErrorS: 3.75 });
    expect(frames.filter((f) => f.sourceTime < f.timestamp - 1e-6).length).toBeGreaterThan(0);
    await expectValidFrames(frames, 3.75);
  });

  it("handles sampling denser than the frame rate", async () => {
    // 2 s at 10 fps = 20 frames for 64 timestamps: each gets the first frame at or after it.
    const frames = await overview(tiny, 64);
    const last = 1.9;
    for (const f of frames)
      expect(f.sourceTime).toBeCloseTo(Math.min(last, Math.ceil(f.timestamp * 10 - 1e-6) / 10), 9);
  });

  it("upscales frames of a tiny video to the lower pixel bound", async () => {
    const frames = await overview(tiny, 4);
    expect(frames.map((f) => [f.width, f.height])).toEqual(Array(4).fill([28, 28]));
  });

  it("applies the display rotation to the pixels", async () => {
    const frames = await overview(rotated, 4);
    for (const f of frames) {
      expect([f.width, f.height]).toEqual([168, 298]);
      const meta = await sharp(f.jpeg).metadata();
      expect([meta.width, meta.height]).toEqual([168, 298]);
    }
  });

  it("throws the probe error for a broken file", async () => {
    expect(await errorCode(overview(join(dir, "missing.mp4"), 8))).toBe("NOT_FOUND");
  });
});

describe("cropWindow (SPEC §1.4)", () => {
  it("samples a 16-second window at 1 fps, no frame before its start", async () => {
    const crop = await cropWindow(main, 30.2, 46.2, { info });
    expect(crop).toMatchObject({ start: 30.2, end: 46.2, clamped: false });
    expect(crop.frames.map((f) => f.timestamp)).toEqual(cropTimestamps(30.2, 46.2, 120));
    expect(crop.frames).toHaveLength(16);
    for (const f of crop.frames) expect(f.sourceTime).toBeCloseTo(frameAtOrAfter(f.timestamp), 9);
    await expectValidFrames(crop.frames, 0, 30.2);
  });

  it("clamps an end past the duration", async () => {
    const crop = await cropWindow(main, 112, 130, { info });
    expect(crop).toMatchObject({ start: 112, end: 120, clamped: true });
    expect(crop.frames.map((f) => f.timestamp)).toEqual([112, 113, 114, 115, 116, 117, 118, 119]);
    await expectValidFrames(crop.frames, 0, 112);
  });

  it("subsamples a long window to 16 frames", async () => {
    const crop = await cropWindow(main, 0, 120, { info });
    expect(crop.frames.map((f) => f.timestamp)).toEqual(Array.from({ length: 16 }, (_, i) => i * 7.5));
    await expectValidFrames(crop.frames, 0);
  });

  it("returns a single exact frame for a window under a second", async () => {
    const crop = await cropWindow(main, 50.3, 50.6, { info });
    expect(crop.frames).toHaveLength(1);
    expect(crop.frames[0]!.sourceTime).toBeCloseTo(frameAtOrAfter(50.3), 9);
  });

  it("rejects invalid windows with INVALID_WINDOW", async () => {
    expect(await errorCode(cropWindow(main, 40, 30, { info }))).toBe("INVALID_WINDOW");
    expect(await errorCode(cropWindow(main, 40, 40, { info }))).toBe("INVALID_WINDOW");
    expect(await errorCode(cropWindow(main, 120, 130, { info }))).toBe("INVALID_WINDOW");
    expect(await errorCode(cropWindow(main, 500, 600, { info }))).toBe("INVALID_WINDOW");
  });

  it("serves parallel crop calls of one turn on the same video", async () => {
    const windows: [number, number][] = [
      [0, 10],
      [20, 36],
      [55.5, 60],
      [90, 200],
      [10, 12],
    ];
    const parallel = await Promise.all(windows.map(([s, e]) => cropWindow(main, s, e, { info })));
    const sequential: typeof parallel = [];
    for (const [s, e] of windows) sequential.push(await cropWindow(main, s, e, { info }));
    expect(parallel.map((c) => c.frames.map((f) => f.sourceTime))).toEqual(
      sequential.map((c) => c.frames.map((f) => f.sourceTime)),
    );
  });
});

describe("framesAt", () => {
  it("returns the last frame for a time past it", async () => {
    const [f] = await framesAt(main, [119.99], { info, maxErrorS: 0 });
    expect(f!.sourceTime).toBeCloseTo(119.96, 9);
    expect(await frameNumber(f!)).toBe(2999);
  });

  it("keeps the caller's order for unsorted and repeated timestamps", async () => {
    const ts = [90, 3, 45.5, 3, 0];
    const frames = await framesAt(main, ts, { info, maxErrorS: 0 });
    expect(frames.map((f) => f.timestamp)).toEqual(ts);
    expect(frames.map((f) => f.sourceTime)).toEqual([90, 3, 45.52, 3, 0]);
  });

  it("stops when its signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(overview(main, 16, { info, signal: controller.signal })).rejects.toThrow(/abort/i);
  });

  it("never blocks the event loop for long while decoding", async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    delay.enable();
    const started = performance.now();
    await overview(main, 64, { info, maxErrorS: 0 });
    const elapsed = performance.now() - started;
    delay.disable();
    clearInterval(timer);
    // A synchronous decode would hold the loop for the whole call; async N-API work yields
    // between packets. Generous bounds: CI machines are shared.
    expect(delay.max / 1e6).toBeLessThan(150);
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
  });
});

describe("frame cache", () => {
  it("serves repeated episodes from disk without decoding", async () => {
    const cache = new FrameCache({ dir: join(dir, "cache-hit"), maxBytes: 50e6 });
    const first = await overview(main, 16, { info, cache });
    expect(cache.stats).toMatchObject({ hits: 0, misses: 16, writes: 16 });
    const decodedBefore = decodeStats.framesDecoded;
    const opensBefore = decodeStats.opens;
    const second = await overview(main, 16, { info, cache });
    expect(decodeStats.framesDecoded).toBe(decodedBefore);
    expect(decodeStats.opens).toBe(opensBefore);
    expect(cache.stats.hits).toBe(16);
    expect(second).toEqual(first);
    // Exact frames are keyed by their time alone: K = 8's ticks are K = 16's even ticks.
    await overview(main, 8, { info, cache });
    expect(decodeStats.framesDecoded).toBe(decodedBefore);
    // K = 7 shares only t = 0 with them: the other six are decoded.
    await overview(main, 7, { info, cache });
    expect(decodeStats.framesDecoded).toBeGreaterThan(decodedBefore);
    expect(cache.stats).toMatchObject({ hits: 16 + 8 + 1, misses: 16 + 6 });
  });

  it("decodes only the frames missing from the cache", async () => {
    const cache = new FrameCache({ dir: join(dir, "cache-partial"), maxBytes: 50e6 });
    await cropWindow(main, 10, 18, { info, cache, maxErrorS: 0 });
    const crop = await cropWindow(main, 10, 26, { info, cache, maxErrorS: 0 });
    expect(crop.frames).toHaveLength(16);
    expect(cache.stats.hits).toBe(8);
    expect(cache.stats.writes).toBe(16);
  });

  it("respects its byte bound", async () => {
    const maxBytes = 60_000;
    const cache = new FrameCache({ dir: join(dir, "cache-bound"), maxBytes });
    await overview(main, 64, { info, cache });
    expect(cache.stats.evictions).toBeGreaterThan(0);
    expect(await cache.totalBytes()).toBeLessThanOrEqual(maxBytes);
  });
});
