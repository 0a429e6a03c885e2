import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probe } from "./probe";
import { generateTestVideo, testVideoPasses } from "./test-video";
import { VideoError } from "./errors";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "paravt-testvideo-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function boxOrder(buf: Buffer): string[] {
  const types: string[] = [];
  for (let off = 0; off + 8 <= buf.length;) {
    const size = buf.readUInt32BE(off);
    types.push(buf.toString("latin1", off + 4, off + 8));
    if (size < 8) break;
    off += size;
  }
  return types;
}

describe("generateTestVideo", () => {
  it("reports real encoding progress, rising to the whole duration", async () => {
    const seen: number[] = [];
    await generateTestVideo(join(dir, "progress.mp4"), {
      durationS: 20,
      width: 128,
      height: 72,
      fps: 10,
      onProgress: (f) => seen.push(f),
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(seen.every((f) => f >= 0 && f <= 1)).toBe(true);
    expect(seen.at(-1)).toBeGreaterThan(0.9);
  });

  it("is deterministic and browser-playable (H.264 yuv420p, index first)", async () => {
    const opts = { durationS: 2, width: 128, height: 72, fps: 15, pattern: "frame-index" as const, audio: true };
    const [a, b] = await Promise.all([
      generateTestVideo(join(dir, "a.mp4"), opts),
      generateTestVideo(join(dir, "b.mp4"), opts),
    ]);
    const [bytesA, bytesB] = await Promise.all([readFile(a), readFile(b)]);
    expect(bytesA.equals(bytesB)).toBe(true);
    const types = boxOrder(bytesA);
    expect(types.indexOf("moov")).toBeGreaterThanOrEqual(0);
    expect(types.indexOf("moov")).toBeLessThan(types.indexOf("mdat"));
    const info = await probe(a);
    expect(info).toMatchObject({
      codec: "h264",
      pixelFormat: "yuv420p",
      width: 128,
      height: 72,
      fps: 15,
      hasAudio: true,
    });
    expect(info.duration).toBeCloseTo(2, 6);
  });

  it("uses the requested keyframe interval", async () => {
    const out = await generateTestVideo(join(dir, "gop.mp4"), {
      durationS: 6,
      width: 64,
      height: 36,
      fps: 10,
      keyframeIntervalS: 1.5,
    });
    expect((await probe(out)).keyframeInterval).toBeCloseTo(1.5, 6);
  });

  it("rejects dimensions yuv420p cannot hold", () => {
    expect(() => testVideoPasses({ durationS: 1, width: 101, height: 50, fps: 10 })).toThrow(VideoError);
  });
});
