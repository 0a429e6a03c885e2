import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { reasons, tempDir, touchVideos, write } from "./helpers";

const HF = "https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos";
const mcq = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  video: `${HF}/Chemistry/0.mp4`,
  youtube_url: "https://www.youtube.com/watch?v=x",
  question_type: "multiple-choice",
  metadata: { subject: "Chemistry", textbook: "Chemistry, 2nd Edition", knowledge: [], rationale: "r" },
  question: "How many grams of precipitate?",
  choices: { A: "10.0", B: "5.0", C: "12.0", D: "15.0", E: "20.0" },
  answer: "A",
  ...over,
});

const ROWS = [
  mcq("validation_1"),
  mcq("validation_2", { video: `${HF}/Art/3.mp4`, choices: { A: "x", B: "y", C: "z", D: "", E: "" }, answer: "C" }),
  mcq("validation_0", {
    question_type: "open-ended",
    choices: { A: "", B: "", C: "", D: "", E: "" },
    answer: "Dolly Zoom",
  }),
  mcq("validation_3", { answer: "F" }),
  mcq("validation_4", { choices: { A: "x", B: "", C: "z" } }),
  mcq("validation_5", { video: `${HF}/Physics/9.mp4` }),
  mcq("validation_6", { video: "https://example.com/elsewhere.mp4" }),
  mcq("validation_7", { question_type: "true-false" }),
];

describe("MMVU loader", () => {
  it("maps the Hugging Face video URLs to local files; keeps multiple-choice and open-ended rows", async () => {
    const dir = await tempDir();
    await write(dir, "validation.json", ROWS);
    await touchVideos(dir, ["videos/Chemistry/0.mp4", "videos/Art/3.mp4"]);
    const res = await loadBenchmark({ benchmark: "mmvu", dir });
    expect(res.split).toBe("validation");
    expect(res.samples.map((s) => [s.key, s.questionType, s.answer])).toEqual([
      ["validation_1", "mcq", "A"],
      ["validation_2", "mcq", "C"],
      ["validation_0", "oe", "Dolly Zoom"],
    ]);
    // The reference evaluator scores open-ended rows with extract_letter (driver.py::_score): marked.
    expect(res.samples[2]).toMatchObject({
      question: "How many grams of precipitate?",
      options: null,
      metadata: { referenceId: "validation_0", mmvuQuestionType: "open-ended", referenceScoring: "extract_letter" },
    });
    expect(res.samples[0]!.metadata).not.toHaveProperty("referenceScoring");
    expect(res.samples[0]).toMatchObject({
      question: "How many grams of precipitate?\nA: 10.0\nB: 5.0\nC: 12.0\nD: 15.0\nE: 20.0",
      videoPath: join(dir, "videos", "Chemistry", "0.mp4"),
      metadata: { referenceId: "validation_1", subject: "Chemistry", video: "videos/Chemistry/0.mp4" },
    });
    expect(res.samples[1]!.options).toEqual(["x", "y", "z"]);
    expect(reasons(res.skipped)).toEqual({
      unknown_answer: 1,
      malformed_options: 1,
      missing_video: 1,
      bad_video_path: 1,
      invalid_field: 1,
    });
    expect(res.skipped.find((s) => s.key === "validation_6")!.detail).toMatch(/is a URL/);
  });

  it("accepts the GitHub layout (data/validation.json) and a video directory pointing at videos/", async () => {
    const dir = await tempDir();
    await write(dir, "data/validation.json", ROWS.slice(0, 1));
    const videos = await tempDir();
    await touchVideos(videos, ["Chemistry/0.mp4"]);
    const res = await loadBenchmark({ benchmark: "mmvu", dir, videoDir: videos });
    expect(res.samples.map((s) => s.videoPath)).toEqual([join(videos, "Chemistry", "0.mp4")]);
    expect(res.stats.files).toEqual([join("data", "validation.json")]);
  });
});
