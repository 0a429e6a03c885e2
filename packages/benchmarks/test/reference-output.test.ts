import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BenchmarkError, parseReferenceOutput, readReferenceOutput, readReferenceOutputs } from "../src/index";
import { tempDir, write } from "./helpers";

const row = (over: Record<string, unknown> = {}) => ({
  id: 17,
  answer: "C",
  pred: "C",
  correct: true,
  tool_calls: 2,
  score: 1,
  full_response: "…<answer>C</answer>",
  ...over,
});

describe("reference evaluator output", () => {
  it("normalizes MCQ and grounding rows, keeping optional and unknown fields", () => {
    const out = parseReferenceOutput(
      {
        summary: { dataset: "videomme", accuracy: 0.5, errors: 1 },
        results: [
          row({ key: "001-1", duration: "short", config: "agentic_general", pred_text: "C" }),
          row({
            id: "18",
            pred: null,
            correct: 0,
            tool_calls: [],
            score: null,
            full_response: null,
            error: "timeout",
            seed: 3,
          }),
          row({
            id: 19,
            answer: [24.3, 30.4],
            pred: "[20, 30]",
            correct: 1,
            tool_calls: [{ name: "crop_video" }],
            score: 0.61,
            duration: 31.96,
          }),
        ],
      },
      "videomme.json",
    );
    expect(out.dataset).toBe("videomme");
    expect(out.summary).toEqual({ dataset: "videomme", accuracy: 0.5, errors: 1 });
    expect(out.results[0]).toEqual({
      index: 0,
      id: "17",
      key: "001-1",
      config: "agentic_general",
      answer: "C",
      answerSpan: null,
      pred: "C",
      predSpan: null,
      correct: true,
      score: 1,
      toolCalls: 2,
      fullResponse: "…<answer>C</answer>",
      predText: "C",
      error: null,
      apiError: null,
      durationS: null,
      durationCategory: "short",
      extra: {},
    });
    expect(out.results[1]).toMatchObject({
      id: "18",
      pred: null,
      correct: false,
      toolCalls: 0,
      score: null,
      error: "timeout",
      extra: { seed: 3 },
    });
    expect(out.results[2]).toMatchObject({
      answer: "24.3-30.4",
      answerSpan: [24.3, 30.4],
      pred: "[20, 30]",
      predSpan: [20, 30],
      toolCalls: 1,
      durationS: 31.96,
    });
  });

  it("names the row and the field of a bad row", () => {
    const bad = (r: unknown) => () => parseReferenceOutput({ summary: {}, results: [row(), r] }, "lvbench.json");
    expect(bad(row({ correct: "yes" }))).toThrow(/^lvbench\.json:2: results\[1\] \(id 17\): correct:/);
    expect(bad(row({ id: "x9", tool_calls: -1 }))).toThrow(/results\[1\] \(id "x9"\): tool_calls:/);
    expect(bad(row({ id: 5, full_response: 3 }))).toThrow(/results\[1\] \(id 5\): full_response:/);
    // Video-MME rows share the videoID: ids repeat in real files, the import tells them apart
    expect(() => parseReferenceOutput({ summary: {}, results: [row(), row()] })).not.toThrow();
    expect(() => parseReferenceOutput({ summary: [] }, "x.json")).toThrow(
      /^x\.json: expected \{summary, results\}: summary:/,
    );
    expect(() => parseReferenceOutput([], "x.json")).toThrow(BenchmarkError);
  });

  it("reads one file or every JSON file of a folder, naming the dataset after the file when the summary does not", async () => {
    const dir = await tempDir();
    await write(dir, "charades_sta.json", {
      summary: { miou: 0.4 },
      results: [row({ answer: [1, 2], pred: [1, 3], score: 0.5 })],
    });
    await write(dir, "mlvu.json", { summary: { benchmark: "MLVU dev" }, results: [] });
    await write(dir, "notes.md", "ignored");
    const one = await readReferenceOutput(join(dir, "charades_sta.json"));
    expect(one).toMatchObject({ dataset: "charades_sta", file: join(dir, "charades_sta.json") });
    expect(one.results[0]).toMatchObject({ answer: "1-2", pred: "1-3", predSpan: [1, 3], score: 0.5 });
    // utils.py::run_eval writes summary_all.json beside the per-dataset files: skipped, with the reason
    await write(dir, "summary_all.json", { mlvu: { dataset: "mlvu", total: 0, errors: 0 } });
    const all = await readReferenceOutputs(dir);
    expect(all.outputs.map((o) => [o.dataset, o.results.length])).toEqual([
      ["charades_sta", 1],
      ["MLVU dev", 0],
    ]);
    expect(all.skipped).toEqual([
      { file: join(dir, "summary_all.json"), reason: "the driver's merged summaries (no result rows)" },
    ]);
    await expect(readReferenceOutput(join(dir, "summary_all.json"))).rejects.toThrow(
      /this is the driver's summary_all\.json \(one summary per dataset, no result rows\)/,
    );
    await write(dir, "broken.json", '{"summary": {}, "results": [\n{"id": 1,}\n]}');
    await expect(readReferenceOutput(join(dir, "broken.json"))).rejects.toThrow(/broken\.json:2: not valid JSON/);
  });

  it("property: any well-formed rows survive a JSON round trip with their values", () => {
    const rowArb = fc.record({
      id: fc.oneof(fc.integer({ min: 0, max: 1e6 }), fc.stringMatching(/^[a-z0-9_-]{1,12}$/)),
      answer: fc.constantFrom("A", "B", "C", "D"),
      pred: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      correct: fc.oneof(fc.boolean(), fc.constantFrom(0 as const, 1 as const)),
      tool_calls: fc.integer({ min: 0, max: 5 }),
      score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      full_response: fc.option(fc.string({ maxLength: 500 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(rowArb, { selector: (r) => String(r.id), maxLength: 20 }), (rows) => {
        const parsed = parseReferenceOutput(JSON.parse(JSON.stringify({ summary: {}, results: rows })) as unknown);
        expect(parsed.results).toHaveLength(rows.length);
        parsed.results.forEach((r, i) => {
          const src = rows[i]!;
          expect(r).toMatchObject({
            index: i,
            id: String(src.id),
            answer: src.answer,
            pred: src.pred,
            correct: src.correct === true || src.correct === 1,
            toolCalls: src.tool_calls,
            score: src.score === null ? null : (JSON.parse(JSON.stringify(src.score)) as number),
            fullResponse: src.full_response,
          });
        });
      }),
      { numRuns: 200 },
    );
  });
});
