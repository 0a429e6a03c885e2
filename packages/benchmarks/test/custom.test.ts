import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { jsonl, reasons, tempDir, touchVideos, write, writeParquet } from "./helpers";

const ROWS: unknown[] = [
  {
    id: "q1",
    video: "clips/a.mp4",
    question: "What is shown?",
    options: ["a cat", "a dog"],
    answer: "b",
    question_type: "mcq",
    duration: 12.5,
    metadata: { source: "mine" },
  },
  {
    id: 2,
    video: "clips/a.mp4",
    question: "When does the door open?",
    answer: "[3, 7.25]",
    question_type: "tvg",
    duration: 12.5,
  },
  {
    id: "q3",
    video: "clips/b.mp4",
    question: "Describe the scene.",
    answer: "A kitchen at night.",
    question_type: "oe",
  },
  { id: "q4", video: "clips/a.mp4", question: "When?", answer: [1.5, 4], question_type: "tvg" },
  { id: "q5", video: "clips/a.mp4", question: "Which?", options: ["x", "y"], answer: "C", question_type: "mcq" },
  { id: "q6", video: "clips/a.mp4", question: "Which?", answer: "A", question_type: "mcq" },
  { id: "q7", video: "clips/a.mp4", question: "When?", answer: "7-3", question_type: "tvg" },
  { id: "q8", video: "clips/a.mp4", question: "When?", answer: "5-9", question_type: "tvg", duration: 4 },
  { id: "q9", video: "clips/a.mp4", question: "When?", answer: "soon", question_type: "tvg" },
  { id: "q10", video: "clips/missing.mp4", question: "Q?", answer: "text", question_type: "oe" },
  { id: "q11", video: "../outside.mp4", question: "Q?", answer: "text", question_type: "oe" },
  { id: "q12", video: "clips/a.mp4", question: "Q?", answer: "text", question_type: "yes-no" },
  { id: "q13", video: "clips/a.mp4", answer: "text", question_type: "oe" },
  { id: "q14", video: "clips/a.mp4", question: "Q?", options: ["x", "y"], answer: "text", question_type: "oe" },
  { id: "q1", video: "clips/b.mp4", question: "dup", answer: "text", question_type: "oe" },
];

describe("custom dataset loader", () => {
  it("reads JSONL rows of every question type and reports every skip reason", async () => {
    const dir = await tempDir();
    await write(dir, "mine.jsonl", jsonl(ROWS));
    await touchVideos(dir, ["clips/a.mp4", "clips/b.mp4"]);
    const res = await loadBenchmark({ benchmark: "custom", dir: join(dir, "mine.jsonl"), split: "pilot-1" });
    expect(res).toMatchObject({ benchmark: "custom", split: "pilot-1" });
    expect(res.samples.map((s) => [s.key, s.questionType, s.answer])).toEqual([
      ["q1", "mcq", "B"],
      ["2", "tvg", "3-7.25"],
      ["q3", "oe", "A kitchen at night."],
      ["q4", "tvg", "1.5-4"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: "What is shown?\nA. a cat\nB. a dog",
      options: ["a cat", "a dog"],
      durationS: 12.5,
      videoPath: join(dir, "clips", "a.mp4"),
      metadata: { source: "mine" },
    });
    expect(res.samples[1]!.metadata).toEqual({ span: [3, 7.25] });
    expect(reasons(res.skipped)).toEqual({
      unknown_answer: 1,
      malformed_options: 1,
      bad_timestamps: 3,
      missing_video: 1,
      bad_video_path: 1,
      invalid_field: 2,
      missing_field: 1,
      duplicate_key: 1,
    });
    const detail = (key: string) => res.skipped.find((s) => s.key === key)!;
    expect(detail("q12")).toMatchObject({ reason: "invalid_field", row: 12 });
    expect(detail("q12").detail).toMatch(/question_type/);
    expect(detail("q13")).toMatchObject({ reason: "missing_field", detail: "no question" });
    expect(detail("q8").detail).toMatch(/not before the video's end/);
    expect(res.stats).toMatchObject({ rows: ROWS.length, loaded: 4, variant: "jsonl", files: ["mine.jsonl"] });
  });

  it("reads a folder of JSON and parquet files; keys are unique across them", async () => {
    const dir = await tempDir();
    await write(dir, "a.json", [{ id: "x1", video: "v.mp4", question: "Q?", answer: "t", question_type: "oe" }]);
    await writeParquet(dir, "b.parquet", [
      { name: "id", kind: "string", data: ["x2", "x1", "x3"] },
      { name: "video", kind: "string", data: ["v.mp4", "v.mp4", "v.mp4"] },
      { name: "question", kind: "string", data: ["Pick", "dup", "When?"] },
      { name: "options", kind: "strings", data: [["p", "q", "r"], null, null] },
      { name: "answer", kind: "string", data: ["C", "t", "0.5 - 2"] },
      { name: "question_type", kind: "string", data: ["mcq", "oe", "tvg"] },
      { name: "duration", kind: "double", data: [10, null, 10] },
      { name: "metadata", kind: "string", data: ['{"split": "hard"}', null, null] },
    ]);
    await write(dir, "notes.txt", "ignored");
    const videos = await tempDir();
    await touchVideos(videos, ["v.mp4"]);
    const res = await loadBenchmark({ benchmark: "custom", dir, videoDir: videos });
    expect(res.split).toBe("test");
    expect(res.stats.files).toEqual(["a.json", "b.parquet"]);
    expect(res.stats.variant).toBe("json + parquet");
    expect(res.samples.map((s) => [s.key, s.answer, s.metadata])).toEqual([
      ["x1", "t", {}],
      ["x2", "C", { split: "hard" }],
      ["x3", "0.5-2", { span: [0.5, 2] }],
    ]);
    expect(res.skipped).toEqual([
      {
        file: "b.parquet",
        row: 2,
        key: "x1",
        reason: "duplicate_key",
        detail: 'key "x1" already used by an earlier row',
      },
    ]);
  });

  it("accepts absolute paths and file:// URIs inside the video directory only", async () => {
    const dir = await tempDir();
    const other = await tempDir();
    await touchVideos(dir, ["v.mp4"]);
    await touchVideos(other, ["w.mp4"]);
    const rows = [
      { id: "abs", video: join(dir, "v.mp4"), question: "Q?", answer: "t", question_type: "oe" },
      { id: "uri", video: pathToFileURL(join(dir, "v.mp4")).href, question: "Q?", answer: "t", question_type: "oe" },
      { id: "out", video: join(other, "w.mp4"), question: "Q?", answer: "t", question_type: "oe" },
    ];
    await write(dir, "d.jsonl", jsonl(rows));
    const res = await loadBenchmark({ benchmark: "custom", dir });
    expect(res.samples.map((s) => [s.key, s.videoPath])).toEqual([
      ["abs", join(dir, "v.mp4")],
      ["uri", join(dir, "v.mp4")],
    ]);
    expect(res.skipped).toMatchObject([{ key: "out", reason: "bad_video_path" }]);
  });

  it("fails clearly on broken files and bad options", async () => {
    const dir = await tempDir();
    await write(dir, "d.jsonl", '{"id": "a"}\nnot json\n');
    await expect(loadBenchmark({ benchmark: "custom", dir })).rejects.toThrow(/^d\.jsonl:2: not valid JSON/);
    const noType = await tempDir();
    await writeParquet(noType, "d.parquet", [
      { name: "id", kind: "string", data: ["a"] },
      { name: "video", kind: "string", data: ["v.mp4"] },
      { name: "question", kind: "string", data: ["Q?"] },
      { name: "answer", kind: "string", data: ["t"] },
    ]);
    await expect(loadBenchmark({ benchmark: "custom", dir: noType })).rejects.toThrow(
      /^d\.parquet: missing column\(s\) question_type/,
    );
    const empty = await tempDir();
    await expect(loadBenchmark({ benchmark: "custom", dir: empty })).rejects.toThrow(
      /no \.jsonl, \.json or \.parquet file/,
    );
    await write(empty, "x.csv", "a,b");
    await expect(loadBenchmark({ benchmark: "custom", dir: join(empty, "x.csv") })).rejects.toThrow(
      /custom datasets are \.jsonl, \.json or \.parquet/,
    );
    await expect(loadBenchmark({ benchmark: "custom", dir, split: "has space" })).rejects.toThrow(/split/);
    await expect(loadBenchmark({ benchmark: "custom", dir: join(dir, "nope") })).rejects.toThrow(
      /is not a file or directory/,
    );
  });
});
