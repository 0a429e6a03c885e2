import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { jsonl, reasons, tempDir, touchVideos, write } from "./helpers";

const qa = (uid: number | string, question: string, answer: unknown = "B") => ({
  uid,
  question,
  answer,
  question_type: ["key information retrieval"],
  time_reference: "00:15-00:19",
});
const Q = "What color is the car?\n(A) red\n(B) blue\n(C) green\n(D) white";

const LINES = [
  {
    key: "yt_one",
    type: "cartoon",
    video_info: { duration_minutes: 65.5, fps: 30, resolution: { width: 1280, height: 720 } },
    qa: [
      qa(1, Q),
      qa(2, "Who speaks first?\n(A) the cat\n(B) the dog\n   barking loudly\n(C) nobody\n(D) both", "(b)"),
      qa(3, Q, "E"),
      qa(4, "What now?\n(A) x\n(C) y"),
      qa(5, "No options here"),
      qa(6, ""),
      { question: Q, answer: "A" },
      qa(1, Q),
    ],
  },
  { key: "yt_gone", type: "sports", video_info: { duration: 4000 }, qa: [qa(7, Q)] },
  { type: "no key", qa: [] },
];

describe("LVBench loader", () => {
  it("splits the inline options, keeps the (A) convention and reports skips by line", async () => {
    const dir = await tempDir();
    await write(dir, "data/video_info.meta.jsonl", jsonl(LINES));
    await touchVideos(dir, ["videos/yt_one.mp4"]);
    const res = await loadBenchmark({ benchmark: "lvbench", dir });
    expect(res.split).toBe("test");
    expect(res.samples.map((s) => [s.key, s.answer])).toEqual([
      ["1", "B"],
      ["2", "B"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: Q,
      options: ["red", "blue", "green", "white"],
      videoPath: join(dir, "videos", "yt_one.mp4"),
      durationS: 65.5 * 60,
      metadata: {
        videoKey: "yt_one",
        videoType: "cartoon",
        questionTypes: ["key information retrieval"],
        timeReference: "00:15-00:19",
      },
    });
    // a line that does not start with "(X)" continues the previous option
    expect(res.samples[1]!.options).toEqual(["the cat", "the dog barking loudly", "nobody", "both"]);
    expect(res.samples[1]!.question).toBe(
      "Who speaks first?\n(A) the cat\n(B) the dog barking loudly\n(C) nobody\n(D) both",
    );
    expect(reasons(res.skipped)).toEqual({
      unknown_answer: 1,
      malformed_options: 2,
      missing_field: 3,
      duplicate_key: 1,
      missing_video: 1,
    });
    expect(res.skipped.find((s) => s.key === "4")).toMatchObject({ row: 1, reason: "malformed_options" });
    expect(res.skipped.find((s) => s.key === "7")).toMatchObject({ row: 2, reason: "missing_video" });
    expect(res.skipped.find((s) => s.row === 3)).toMatchObject({
      reason: "missing_field",
      detail: "video line without key or qa list",
    });
    expect(res.stats).toMatchObject({
      loaded: 2,
      skipped: 8,
      rows: 10,
      files: [join("data", "video_info.meta.jsonl")],
    });
  });

  it("accepts the Hugging Face layout (file at the top, videos in all_videos/)", async () => {
    const dir = await tempDir();
    await write(dir, "video_info.meta.jsonl", jsonl(LINES.slice(0, 2)));
    await touchVideos(dir, ["all_videos/yt_one.mp4", "all_videos/yt_gone.webm"]);
    const res = await loadBenchmark({ benchmark: "lvbench", dir });
    expect(res.samples.map((s) => s.key)).toEqual(["1", "2", "7"]);
    expect(res.samples[2]).toMatchObject({ durationS: 4000, videoPath: join(dir, "all_videos", "yt_gone.webm") });
  });

  it("names the line of a broken JSON line", async () => {
    const dir = await tempDir();
    await write(dir, "video_info.meta.jsonl", `${JSON.stringify(LINES[0])}\n\n{"key": "x", "qa": [}\n`);
    await expect(loadBenchmark({ benchmark: "lvbench", dir })).rejects.toThrow(
      /^video_info\.meta\.jsonl:3: not valid JSON/,
    );
  });
});
