// The time the model is told for a frame is the time of the frame it sees (issue 36), through the
// real sampler on a long-GOP video (a keyframe every 10 s, where a keyframe seek alone is up to
// 10 s early): exact frames by default; in the opt-in speed mode the stated time is the frame's
// real presentation time. Which pixels each time decodes to is pinned in @paravt/video's
// exact-frames.int.test.ts (burnt-in frame numbers); here: what the prompt and trajectory state.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frameTimestampText } from "@paravt/nano";
import { generateTestVideo } from "@paravt/video";
import { cropTimestamps, overviewTimestamps } from "@paravt/video/sampling";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoFrameSampler, type FrameSampler } from "./frame-sampler";
import { runEpisode } from "./runner";
import { ScriptedEngine } from "./test-support";
import type { ContentPart } from "./types";

const FPS = 25;
const DURATION = 30;
let root: string;
let file: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "paravt-frame-sampler-"));
  file = await generateTestVideo(join(root, "long-gop.mp4"), {
    durationS: DURATION,
    width: 160,
    height: 90,
    fps: FPS,
    pattern: "frame-index",
    keyframeIntervalS: 10,
  });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Time of the first frame at or after t. */
function exactTime(t: number): number {
  return Math.max(0, Math.ceil(t * FPS - 1e-6)) / FPS;
}

/** The `<t seconds>` texts of a prompt and the times of the frame parts that follow them. */
function statedFrames(content: ContentPart[]): { text: string; t: number }[] {
  const out: { text: string; t: number }[] = [];
  content.forEach((p, i) => {
    const next = content[i + 1];
    if (p.type === "text" && next?.type === "frame") out.push({ text: p.text, t: next.t });
  });
  return out;
}

async function firstPrompt(frames: FrameSampler, k: number) {
  const engine = new ScriptedEngine(() => "<answer>A</answer>");
  const trajectory = await runEpisode({
    engine,
    input: { video: { file, path: "long-gop.mp4" }, question: "Which?\nA. x\nB. y", questionType: "mcq" },
    frames,
    config: { k },
  });
  const user = engine.requests[0]!.messages.find((m) => m.role === "user")!;
  if (typeof user.content === "string") throw new Error("expected frames in the first user turn");
  return { trajectory, stated: statedFrames(user.content) };
}

describe("videoFrameSampler", () => {
  it("shows, by default, the exact frame at every stated time (overview and crop)", async () => {
    const sampler = videoFrameSampler();
    const ov = await sampler.overview({ file }, 8);
    expect(ov.frames.map((f) => f.timestamp)).toEqual(overviewTimestamps(DURATION, 8));
    for (const f of ov.frames) expect(f.sourceTime).toBeCloseTo(exactTime(f.timestamp), 9);
    const crop = await sampler.crop({ file }, 3.5, 12.5);
    expect(crop.frames.map((f) => f.timestamp)).toEqual(cropTimestamps(3.5, 12.5, DURATION));
    for (const f of crop.frames) expect(f.sourceTime).toBeCloseTo(exactTime(f.timestamp), 9);
  });

  it("states the real presentation time of each frame in the opt-in speed mode", async () => {
    const sampler = videoFrameSampler({ maxErrorS: Infinity });
    const ov = await sampler.overview({ file }, 8);
    for (const f of ov.frames) {
      expect(f.timestamp).toBe(f.sourceTime);
      expect([0, 10, 20]).toContain(f.sourceTime); // keyframes
    }
    // Not the nominal ticks any more: e.g. 3.75 s is shown (and stated) as the keyframe at 0 s.
    expect(ov.frames.map((f) => f.timestamp)).not.toEqual(overviewTimestamps(DURATION, 8));
    const crop = await sampler.crop({ file }, 12.5, 16);
    for (const f of crop.frames) {
      expect(f.timestamp).toBe(f.sourceTime);
      expect(f.sourceTime).toBeGreaterThanOrEqual(12.5); // never before the window
    }
  });

  it("puts in the prompt and the trajectory the time of the frame the model sees", async () => {
    for (const sampler of [videoFrameSampler(), videoFrameSampler({ maxErrorS: Infinity })]) {
      const { trajectory, stated } = await firstPrompt(sampler, 8);
      expect(stated).toHaveLength(8);
      expect(stated.map((s) => s.t)).toEqual(trajectory.overviewTimestamps);
      expect(stated.map((s) => s.text)).toEqual(trajectory.overviewTimestamps.map(frameTimestampText));
      // What is stated is what was decoded, within one frame period (the exact frame after a tick).
      trajectory.overviewTimestamps.forEach((t, i) => {
        const shown = trajectory.overviewSourceTimes[i]!;
        expect(shown).toBeGreaterThanOrEqual(t - 1e-9);
        expect(shown - t).toBeLessThan(1 / FPS);
      });
    }
  });
});
