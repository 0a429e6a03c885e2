// The reference evaluator's output (SPEC §6) as the import service reads it, without a database: the
// parser and the matcher are @paravt/benchmarks' (tested there on the exact rows the reference writes).
import { describe, expect, it } from "vitest";
import { importMessage, parseReferenceFile } from "./evals-import";

describe("parseReferenceFile", () => {
  it("reads the rows the reference writes, error rows without full_response included", () => {
    const { summary, results } = parseReferenceFile({
      summary: { dataset: "charades", mIoU: 0.5 },
      results: [
        {
          id: 0,
          answer: "[24.3, 30.4]",
          pred: "24.0-30.0",
          correct: null,
          tool_calls: 1,
          score: 0.9,
          full_response: "The event happens in the 24.0 - 30.0 seconds.",
          key: "3MSZA.mp4>>>person turns on the light>>>[24.3, 30.4]",
          pred_text: "The event happens in the 24.0 - 30.0 seconds.",
        },
        { id: 1, answer: "[0.0, 6.9]", pred: "", correct: false, tool_calls: 0, score: 0.0, error: "boom" },
      ],
      submission: {},
    });
    expect(summary).toEqual({ dataset: "charades", mIoU: 0.5 });
    expect(results[0]).toMatchObject({ id: "0", correct: null, score: 0.9, answerSpan: [24.3, 30.4] });
    expect(results[1]).toMatchObject({ id: "1", fullResponse: null, error: "boom" });
  });

  it("names the row and the field that is wrong, and refuses summary_all.json", () => {
    expect(() => parseReferenceFile({ summary: {}, results: [] })).toThrow("The file has no result rows");
    expect(() => parseReferenceFile([{ id: 1 }])).toThrow("Not a reference evaluator output");
    expect(() => parseReferenceFile({ summary: {}, results: [{ id: "ok", answer: "A", tool_calls: -1 }] })).toThrow(
      /results\[0\] \(id "ok"\): tool_calls/,
    );
    expect(() => parseReferenceFile({ videomme: { dataset: "videomme", total: 3 } })).toThrow(/summary_all\.json/);
  });

  it("says what was imported and why rows were skipped", () => {
    expect(
      importMessage({
        dataset: "videomme",
        benchmark: "videomme",
        rows: 6,
        matched: 2,
        errors: { total: 1, rowError: 1, apiError: 0 },
        skipped: 4,
        byReason: { ambiguous: 2, unmatched: 1, duplicate: 1 },
      }),
    ).toBe("Imported 2 of 6 rows (1 error); skipped 4: 2 ambiguous, 1 unmatched, 1 duplicate");
  });
});
