import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { reasons, tempDir, touchVideos, write, writeParquet } from "./helpers";

const row = (id: string, over: Record<string, unknown> = {}) => ({
  video_id: id.split("_")[0],
  question: `Question ${id}?`,
  question_wo_referring_query: "q",
  candidates: ["red", "green", "blue", "black"],
  correct_choice: 2,
  position: [1, 2],
  topic_category: "KA-Knowledge-Art",
  question_category: "S2E",
  level: "L1-Perception",
  id,
  video_path: `${id.split("_")[0]}.mp4`,
  subtitle_path: `${id.split("_")[0]}_en.json`,
  duration_group: 600,
  starting_timestamp_for_subtitles: 0,
  duration: 512.5,
  view_count: 1000,
  ...over,
});

const ROWS = [
  row("vid1_0"),
  row("vid1_1", { candidates: ["a", "b", "c", "d", "e"], correct_choice: 4 }),
  row("vid2_0", { video_path: undefined }),
  row("vid9_0"), // no video file
  row("vid1_2", { correct_choice: 5 }),
  row("vid1_3", { candidates: ["only"] }),
  row("vid1_4", { candidates: ["a", "", "c"] }),
  row("vid1_5", { question: "  " }),
  row("vid1_0", { question: "repeated id" }),
  "not an object",
];

describe("LongVideoBench loader", () => {
  it("reads lvb_val.json: letters the candidates, maps correct_choice, reports skips", async () => {
    const dir = await tempDir();
    await write(dir, "lvb_val.json", ROWS);
    await touchVideos(dir, ["videos/vid1.mp4", "videos/vid2.mp4"]);
    const res = await loadBenchmark({ benchmark: "longvideobench", dir });
    expect(res.split).toBe("validation");
    expect(res.samples.map((s) => [s.key, s.answer])).toEqual([
      ["vid1_0", "C"],
      ["vid1_1", "E"],
      ["vid2_0", "C"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: "Question vid1_0?\nA. red\nB. green\nC. blue\nD. black",
      videoPath: join(dir, "videos", "vid1.mp4"),
      durationS: 512.5,
      metadata: { videoId: "vid1", durationGroup: 600, questionCategory: "S2E", level: "L1-Perception" },
    });
    // without video_path the video id names the file
    expect(res.samples[2]!.videoPath).toBe(join(dir, "videos", "vid2.mp4"));
    expect(reasons(res.skipped)).toEqual({
      missing_video: 1,
      unknown_answer: 1,
      malformed_options: 2,
      missing_field: 1,
      duplicate_key: 1,
      invalid_field: 1,
    });
    expect(res.skipped.find((s) => s.key === "vid1_2")).toMatchObject({
      row: 5,
      reason: "unknown_answer",
      detail: "answer index 5 but only 4 options",
    });
    expect(res.stats).toMatchObject({ rows: ROWS.length, loaded: 3, variant: "json", files: ["lvb_val.json"] });
  });

  it("reads the validation parquet (INT64 columns decode as bigint)", async () => {
    const dir = await tempDir();
    const rows = ROWS.slice(0, 5) as ReturnType<typeof row>[];
    await writeParquet(dir, "validation-00000-of-00001.parquet", [
      { name: "id", kind: "string", data: rows.map((r) => r.id) },
      { name: "video_id", kind: "string", data: rows.map((r) => r.video_id) },
      { name: "video_path", kind: "string", data: rows.map((r) => r.video_path ?? null) },
      { name: "question", kind: "string", data: rows.map((r) => r.question) },
      { name: "candidates", kind: "strings", data: rows.map((r) => r.candidates) },
      { name: "correct_choice", kind: "int64", data: rows.map((r) => r.correct_choice) },
      { name: "duration_group", kind: "int64", data: rows.map((r) => r.duration_group) },
      { name: "duration", kind: "double", data: rows.map((r) => r.duration) },
    ]);
    await touchVideos(dir, ["videos/vid1.mp4", "videos/vid2.mp4"]);
    const res = await loadBenchmark({ benchmark: "longvideobench", dir });
    expect(res.stats.variant).toBe("parquet (candidates)");
    expect(res.samples.map((s) => [s.key, s.answer, s.metadata.durationGroup])).toEqual([
      ["vid1_0", "C", 600],
      ["vid1_1", "E", 600],
      ["vid2_0", "C", 600],
    ]);
    expect(reasons(res.skipped)).toEqual({ missing_video: 1, unknown_answer: 1 });
  });

  it("names the file and line of invalid JSON, and refuses a split it does not have", async () => {
    const dir = await tempDir();
    await write(dir, "lvb_val.json", '[\n  {"id": "a"},\n  {"id": "b",,}\n]');
    await expect(loadBenchmark({ benchmark: "longvideobench", dir })).rejects.toThrow(
      /^lvb_val\.json:3: not valid JSON/,
    );
    await write(dir, "lvb_val.json", '{"id": "a"}');
    await expect(loadBenchmark({ benchmark: "longvideobench", dir })).rejects.toThrow(
      /lvb_val\.json: expected a JSON array/,
    );
    await expect(loadBenchmark({ benchmark: "longvideobench", dir, split: "test" })).rejects.toThrow(
      /no split "test" \(splits: validation\)/,
    );
  });
});
