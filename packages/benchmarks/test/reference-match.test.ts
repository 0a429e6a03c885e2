// Matching reference evaluator rows to loaded samples. The rows are written exactly as the reference
// writes them (github EvolvingLMMs-Lab/ParaVT): driver.py::_make_result (lines 320-337: id, answer,
// pred, correct, tool_calls, score, full_response, then key / config / duration when the sample has
// them, pred_text for grounding), utils.py::base_result + error (lines 198-207; driver.py lines 440,
// 460, 544: no full_response), the `[API error: …]` final of driver.py line 475, and the
// `{summary, results, submission}` file of utils.py::run_dataset (lines 696-751). Samples come from
// the loaders, on tiny copies of the datasets the reference reads (utils.py::load_samples).
import { describe, expect, it } from "vitest";
import { BenchmarkError, loadBenchmark, matchReferenceOutput, parseReferenceOutput, type Sample } from "../src/index";
import { tempDir, touchVideos, writeParquet } from "./helpers";

const target = (samples: Sample[], benchmark: Sample["benchmark"] | null, split: string | null) => ({
  benchmark,
  split,
  samples: samples.map((s, i) => ({ id: `s${i}`, key: s.key, answer: s.answer, metadata: s.metadata })),
});

async function videommeSamples(): Promise<Sample[]> {
  const dir = await tempDir();
  // One video, three questions (answers C, A, A), and a second video.
  const q = [
    ["001", "fFjv93ACGo8", "001-1", "C"],
    ["001", "fFjv93ACGo8", "001-2", "A"],
    ["001", "fFjv93ACGo8", "001-3", "A"],
    ["002", "zzzzzzzzzzz", "002-1", "B"],
  ];
  await writeParquet(dir, "videomme/test-00000-of-00001.parquet", [
    { name: "video_id", kind: "string", data: q.map((r) => r[0]) },
    { name: "duration", kind: "string", data: q.map(() => "short") },
    { name: "videoID", kind: "string", data: q.map((r) => r[1]) },
    { name: "question_id", kind: "string", data: q.map((r) => r[2]) },
    { name: "question", kind: "string", data: q.map((r) => `Question ${r[2]}?`) },
    { name: "options", kind: "strings", data: q.map(() => ["A. w", "B. x", "C. y", "D. z"]) },
    { name: "answer", kind: "string", data: q.map((r) => r[3]) },
  ]);
  await touchVideos(dir, ["data/fFjv93ACGo8.mp4", "data/zzzzzzzzzzz.mp4"]);
  return (await loadBenchmark({ benchmark: "videomme", dir })).samples;
}

/** driver.py::_make_result for an MCQ sample with a duration (Video-MME). */
const mcqRow = (id: string, answer: string, pred: string, toolCalls: number, final: string) => ({
  id,
  answer,
  pred,
  correct: pred === answer,
  tool_calls: toolCalls,
  score: pred === answer ? 1.0 : 0.0,
  full_response: final.slice(0, 500),
  duration: "short",
});

describe("matching reference rows to samples", () => {
  it("Video-MME: videoID rows are told apart by their answer letter, never guessed; errors and API errors become ERROR", async () => {
    const samples = await videommeSamples();
    const output = parseReferenceOutput(
      {
        summary: { dataset: "videomme", total: 6, errors: 1, accuracy: 0.5, mcq_total: 6 },
        results: [
          mcqRow("fFjv93ACGo8", "C", "C", 2, "<think>…</think><answer>C</answer>"),
          mcqRow("fFjv93ACGo8", "A", "B", 0, "<answer>B</answer>"),
          mcqRow("fFjv93ACGo8", "A", "A", 1, "<answer>A</answer>"),
          // utils.py::base_result + error: no full_response, no duration
          {
            id: "zzzzzzzzzzz",
            answer: "B",
            pred: "",
            correct: false,
            tool_calls: 0,
            score: 0.0,
            error: "video not found: /hf/videomme/data/zzzzzzzzzzz.mp4",
          },
          mcqRow("nosuchvideo", "A", "A", 0, "A"),
          // the first answer of the same video again (a second run appended): a duplicate
          mcqRow("fFjv93ACGo8", "C", "D", 0, "<answer>D</answer>"),
        ],
      },
      "videomme.json",
    );
    const m = matchReferenceOutput(output, target(samples, "videomme", "test"));
    expect(m.matched.map((r) => [r.result.index, r.sampleId, r.failure])).toEqual([
      [0, "s0", null],
      [3, "s3", { kind: "row_error", reason: "video not found: /hf/videomme/data/zzzzzzzzzzz.mp4" }],
    ]);
    expect(m.skipped.map((s) => [s.index, s.reason])).toEqual([
      [1, "ambiguous"],
      [2, "ambiguous"],
      [4, "unmatched"],
      [5, "duplicate"],
    ]);
    expect(m.skipped[0]!.detail).toBe(
      'id "fFjv93ACGo8" names 3 questions and 2 of them have answer "A"; the row does not say which',
    );
    expect(m.report).toEqual({
      dataset: "videomme",
      benchmark: "videomme",
      rows: 6,
      matched: 2,
      errors: { total: 1, rowError: 1, apiError: 0 },
      skipped: 4,
      byReason: { ambiguous: 2, unmatched: 1, duplicate: 1 },
    });
  });

  it("Charades-STA: the row position and the key, correct null, the API error final, the submission map", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "test-00000-of-00001.parquet", [
      { name: "video", kind: "string", data: ["3MSZA.mp4", "3MSZA.mp4", "3MSZA.mp4"] },
      {
        name: "caption",
        kind: "string",
        data: ["person turns on the light", "person opens the door", "person opens the door"],
      },
      {
        name: "timestamp",
        kind: "doubles",
        data: [
          [24.3, 30.4],
          [0, 6.9],
          [0, 6.9],
        ],
      },
    ]);
    await touchVideos(dir, ["Charades_v1_480/3MSZA.mp4"]);
    const { samples } = await loadBenchmark({ benchmark: "charades_sta", dir });
    const key = (i: number) => samples[i]!.metadata.referenceKey as string;
    const output = parseReferenceOutput({
      summary: { dataset: "charades", total: 4, errors: 0, mIoU: 0.3, "R@0.3": 0.5, submission_count: 2 },
      results: [
        {
          id: 2,
          answer: "[0.0, 6.9]",
          pred: "0.0-7.0",
          correct: null,
          tool_calls: 1,
          score: 0.9857,
          full_response: "The event happens in the 0.0 - 7.0 seconds.",
          key: key(2),
          pred_text: "The event happens in the 0.0 - 7.0 seconds.",
        },
        {
          id: 0,
          answer: "[24.3, 30.4]",
          pred: "[API error: Connection error.]",
          correct: null,
          tool_calls: 2,
          score: 0.0,
          full_response: "[API error: Connection error.]",
          key: key(0),
          pred_text: "[API error: Connection error.]",
        },
        // a key of another release at the same position
        {
          id: 1,
          answer: "[0.0, 6.9]",
          pred: "1.0-2.0",
          correct: null,
          tool_calls: 0,
          score: 0.1,
          full_response: "1.0 - 2.0",
          key: "3MSZA.mp4>>>person opens the window>>>[0.0, 6.9]",
          pred_text: "1.0 - 2.0",
        },
        { id: 7, answer: "[1.0, 2.0]", pred: "", correct: false, tool_calls: 0, score: 0.0, error: "boom" },
      ],
      submission: { [key(2)]: "The event happens in the 0.0 - 7.0 seconds." },
    });
    const m = matchReferenceOutput(output, target(samples, "charades_sta", "test"));
    expect(m.matched.map((r) => [r.sampleId, r.result.correct, r.result.score, r.failure?.kind ?? null])).toEqual([
      ["s2", null, 0.9857, null],
      ["s0", null, 0, "api_error"],
    ]);
    expect(m.matched[1]!.failure!.reason).toBe("[API error: Connection error.]");
    expect(m.skipped.map((s) => [s.id, s.reason])).toEqual([
      ["1", "key_mismatch"],
      ["7", "unmatched"],
    ]);
    expect(m.report).toMatchObject({ benchmark: "charades_sta", rows: 4, matched: 2, errors: { apiError: 1 } });
  });

  it("refuses a file of another benchmark or split, and says when the dataset has no reference ids", async () => {
    const samples = await videommeSamples();
    const mlvu = parseReferenceOutput({
      summary: { dataset: "mlvu", total: 1 },
      results: [{ ...mcqRow("plotQA-0", "A", "A", 0, "A"), config: "plotQA" }],
    });
    expect(() => matchReferenceOutput(mlvu, target(samples, "videomme", "test"))).toThrow(BenchmarkError);
    expect(() => matchReferenceOutput(mlvu, target(samples, "videomme", "test"))).toThrow(
      'the file is the reference output of "mlvu" (MLVU dev, mlvu split dev), but the dataset is videomme (split test)',
    );
    const withSubs = parseReferenceOutput({ summary: { dataset: "videomme_wsub" }, results: [] });
    expect(() => matchReferenceOutput(withSubs, target(samples, "videomme", "test"))).toThrow(/videomme_wsub/);
    expect(matchReferenceOutput(withSubs, target(samples, "videomme", "test_subtitles")).report.rows).toBe(0);

    // A dataset imported before reference ids existed (or from MLVU/json): matched by key only.
    const bare = samples.map((s) => ({ ...s, metadata: {} }));
    const m = matchReferenceOutput(mlvu, target(bare, null, null));
    expect(m.skipped[0]!.detail).toMatch(/carry no reference ids: re-import it/);
    // A custom dataset whose keys are the row ids matches directly.
    const custom = matchReferenceOutput(
      parseReferenceOutput({ summary: {}, results: [mcqRow("001-2", "A", "A", 0, "A")] }),
      target(bare, "custom", "test"),
    );
    expect(custom.matched.map((r) => r.sampleId)).toEqual(["s1"]);
  });
});
