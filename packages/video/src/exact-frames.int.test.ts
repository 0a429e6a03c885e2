// The frame a model is shown is the frame at the time its text states (issue 36): on a long-GOP
// video, where a keyframe seek alone lands up to 10 s early, every returned frame must be the
// first frame at or after its timestamp. The video carries its frame number as a barcode
// (test-video.ts "frame-index"), so each returned JPEG says which frame it really is; one test
// also checks that the barcode and FFmpeg's own accurate seek (`-ss` before `-i`, which drops
// the frames before t) agree on which frame is "at t".

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "./ffmpeg-cli";
import { decodeStats, resetDecodeStats } from "./frame-reader";
import { cropWindow, framesAt, overview, type SampledFrame } from "./frames";
import { probe, type VideoInfo } from "./probe";
import { sharedTestVideo } from "./test-support";
import { readFrameIndex, type TestVideoOptions } from "./test-video";

const FPS = 25;
// libx264's own default GOP (250 frames): a keyframe every 10 s at 25 fps, B-frames in between.
const LONG_GOP: TestVideoOptions = {
  durationS: 60,
  width: 320,
  height: 180,
  fps: FPS,
  pattern: "frame-index",
  keyframeIntervalS: 10,
};
const KEYFRAMES = [0, 250, 500, 750, 1000, 1250];

let dir: string;
let video: string;
let info: VideoInfo;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "paravt-exact-frames-"));
  video = await sharedTestVideo(LONG_GOP);
  info = await probe(video);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Index of the first frame at or after t (constant frame rate, first frame at 0). */
function exactIndex(t: number): number {
  return Math.max(0, Math.ceil(t * FPS - 1e-6));
}

async function barcode(f: SampledFrame): Promise<number> {
  const { data, info: meta } = await sharp(f.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  return readFrameIndex(data, meta.width, meta.height);
}

/** Every frame shows (barcode) and reports (sourceTime) the exact frame at its timestamp. */
async function expectExact(frames: SampledFrame[]): Promise<void> {
  const shown = await Promise.all(frames.map(barcode));
  expect(shown).toEqual(frames.map((f) => exactIndex(f.timestamp)));
  expect(frames.map((f) => Math.round(f.sourceTime * FPS))).toEqual(shown);
  for (const f of frames) {
    expect(f.sourceTime).toBeGreaterThanOrEqual(f.timestamp - 1e-6);
    expect(f.sourceTime - f.timestamp).toBeLessThan(1 / FPS);
  }
}

/** The frames at, just before and just after every keyframe, and times between frames. */
function aroundKeyframes(): number[] {
  const ts: number[] = [];
  for (const k of KEYFRAMES.slice(1)) {
    for (let d = -3; d <= 3; d++) ts.push((k + d) / FPS, (k + d) / FPS - 0.01, (k + d) / FPS + 0.01);
  }
  return ts;
}

describe("exact frames on a long-GOP video (keyframe every 10 s)", () => {
  it("probes the GOP the test relies on", () => {
    expect(info.keyframeInterval).toBe(10);
    expect(info.frameCount).toBe(1500);
  });

  it.each([64, 16, 7, 1])("overview K=%i: every frame is the one at its tick", async (k) => {
    resetDecodeStats();
    const frames = await overview(video, k, { info });
    expect(frames).toHaveLength(k);
    await expectExact(frames);
    expect(decodeStats.keyframeShortcuts).toBe(0);
  });

  it("returns the frame at, just before and just after every keyframe", async () => {
    const ts = aroundKeyframes();
    await expectExact(await framesAt(video, ts, { info }));
    // One at a time too (a fresh seek each time, never continuing a decode).
    for (const t of [9.88, 9.96, 10, 19.92, 40.04]) await expectExact(await framesAt(video, [t], { info }));
  });

  it("agrees with FFmpeg's accurate seek on which frame is at t", async () => {
    for (const t of [9.9, 9.97, 10.01, 33.333]) {
      const out = join(dir, `ffmpeg-${t}.gray`);
      await runFfmpeg([
        "-y",
        "-ss",
        String(t),
        "-i",
        video,
        "-frames:v",
        "1",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "gray",
        out,
      ]);
      const gray = await readFile(out);
      expect(gray.length).toBe(320 * 180);
      const [ours] = await framesAt(video, [t], { info });
      expect(await barcode(ours!)).toBe(readFrameIndex(gray, 320, 180));
    }
  });

  it("reads a crop window across two keyframes in one forward decode", async () => {
    resetDecodeStats();
    const crop = await cropWindow(video, 5.5, 21.5, { info });
    expect(crop.frames).toHaveLength(16);
    await expectExact(crop.frames);
    expect(decodeStats.seeks).toBe(1);
    // Keyframe 0 to the last target (20.5 s), plus the decoder's B-frame reorder delay.
    expect(decodeStats.packetsSent).toBeLessThanOrEqual(20.5 * FPS + 16);
  });

  it("shares one decode among targets inside a GOP and decodes no packet twice", async () => {
    resetDecodeStats();
    // 12, 17.5 and 19.9 s all hang off the keyframe at 10 s. Seeking afresh for each would send
    // the packets from 10 s again every time.
    await expectExact(await framesAt(video, [12, 17.5, 19.9], { info }));
    expect(decodeStats.seeksJoined).toBeGreaterThanOrEqual(1);
    expect(decodeStats.packetsSent).toBeLessThanOrEqual((19.9 - 10) * FPS + 16);
    // A target in the next GOP starts at its keyframe: the frames in between are not decoded.
    resetDecodeStats();
    await expectExact(await framesAt(video, [12, 25], { info }));
    expect(decodeStats.seeksJoined).toBe(0);
    expect(decodeStats.packetsSent).toBeLessThanOrEqual((12 - 10) * FPS + (25 - 20) * FPS + 2 * 16);
  });

  it("keeps keyframe approximations opt-in, reporting their real time", async () => {
    const frames = await overview(video, 16, { info, maxErrorS: Infinity });
    for (const f of frames) {
      expect(KEYFRAMES.map((k) => k / FPS)).toContain(f.sourceTime);
      expect(await barcode(f)).toBe(Math.round(f.sourceTime * FPS));
    }
  });

  it.each(["mpegts", "matroska"])(
    "is exact in %s too (an MPEG-TS seek lands on any packet, often after t)",
    async (format) => {
      const copy = join(dir, `long-gop.${format}`);
      await runFfmpeg(["-y", "-i", video, "-c", "copy", "-f", format, copy]);
      const copyInfo = await probe(copy);
      const ts = [0, ...aroundKeyframes(), ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => i * 7.5)];
      await expectExact(await framesAt(copy, ts, { info: copyInfo }));
      for (const t of [0, 9.88, 19.96, 45]) await expectExact(await framesAt(copy, [t], { info: copyInfo }));
    },
  );
});
