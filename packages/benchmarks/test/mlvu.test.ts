import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { reasons, tempDir, touchVideos, write } from "./helpers";

const mc = (video: string, answer: unknown, candidates: unknown = ["a cat", "a dog", "a bird", "a fish"]) => ({
  video,
  duration: 420,
  question: "Which animal appears?",
  candidates,
  answer,
  question_type: "plotQA",
});

describe("MLVU loader", () => {
  it("reads the task files, finds the answer's letter from its text, and reports skips", async () => {
    const dir = await tempDir();
    await write(dir, "MLVU/json/1_plotQA.json", [
      mc("movie1.mp4", "a dog"),
      mc("movie1.mp4", "a whale"),
      mc("movie2.mp4", "a cat"), // no video
      mc("movie1.mp4", "a cat", ["a cat"]),
      mc("movie1.mp4", "twice", ["twice", "twice", "other"]),
      { duration: 1, question: "no video field", candidates: ["x", "y"], answer: "x" },
    ]);
    await write(dir, "MLVU/json/4_count.json", [{ ...mc("count1.mp4", 3, [2, 3, 4]), question_type: "count" }]);
    await write(dir, "MLVU/json/9_summary.json", [{ video: "s.mp4", question: "Summarize", answer: "text" }]);
    await touchVideos(dir, ["MLVU/video/1_plotQA/movie1.mp4", "MLVU/video/count1.mp4"]);

    const res = await loadBenchmark({ benchmark: "mlvu", dir });
    expect(res.split).toBe("dev");
    expect(res.samples.map((s) => [s.key, s.answer])).toEqual([
      ["1_plotQA/0", "B"],
      ["4_count/0", "B"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: "Which animal appears?\n(A) a cat\n(B) a dog\n(C) a bird\n(D) a fish",
      videoPath: join(dir, "MLVU", "video", "1_plotQA", "movie1.mp4"),
      durationS: 420,
      metadata: { task: "plotQA", taskFile: "1_plotQA", video: "movie1.mp4" },
    });
    // numeric candidates are option texts; a video outside its task folder is found directly
    expect(res.samples[1]).toMatchObject({
      options: ["2", "3", "4"],
      videoPath: join(dir, "MLVU", "video", "count1.mp4"),
    });
    expect(reasons(res.skipped)).toEqual({
      unknown_answer: 2,
      missing_video: 1,
      malformed_options: 1,
      missing_field: 1,
    });
    expect(res.skipped.find((s) => s.key === "1_plotQA/4")!.detail).toMatch(/matches 2 options/);
    expect(res.stats.files).toEqual([join("MLVU", "json", "1_plotQA.json"), join("MLVU", "json", "4_count.json")]);
    expect(res.stats.warnings.join("\n")).toMatch(
      /task files not found, not loaded: 2_needle\.json, 3_ego\.json, 5_order\.json/,
    );
    expect(res.stats.warnings.join("\n")).toMatch(/9_summary\.json is an open generation task/);
  });

  it("accepts MLVU/ itself as the directory and fails clearly without task files", async () => {
    const dir = await tempDir();
    await write(dir, "json/3_ego.json", [mc("ego.mp4", "a fish")]);
    await touchVideos(dir, ["video/3_ego/ego.mp4"]);
    const res = await loadBenchmark({ benchmark: "mlvu", dir });
    expect(res.samples.map((s) => [s.key, s.answer])).toEqual([["3_ego/0", "D"]]);

    const empty = await tempDir();
    await write(empty, "MLVU/json/8_sub_scene.json", []);
    await expect(loadBenchmark({ benchmark: "mlvu", dir: empty })).rejects.toThrow(
      /MLVU multiple-choice annotations not found/,
    );
    await write(empty, "MLVU/json/5_order.json", "[{]");
    await expect(loadBenchmark({ benchmark: "mlvu", dir: empty })).rejects.toThrow(
      new RegExp(`^${join("MLVU", "json", "5_order.json")}:1: not valid JSON`),
    );
  });
});
