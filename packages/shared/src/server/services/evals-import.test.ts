// The reference evaluator's output format (SPEC §6), parsed without a database.
import { describe, expect, it } from "vitest";
import { parseReferenceFile } from "./evals-import";

describe("parseReferenceFile", () => {
  it("reads required and optional fields, with ids and counts in either of the shapes evaluators write", () => {
    const { summary, rows } = parseReferenceFile({
      summary: { accuracy: 0.5 },
      results: [
        {
          id: 17,
          answer: "C",
          pred: "C",
          correct: 1,
          tool_calls: [{ name: "crop_video" }, {}],
          score: 1,
          full_response: "x",
        },
        {
          id: "a",
          key: "vid1_q3",
          answer: [1.5, 4],
          pred: null,
          correct: false,
          tool_calls: 0,
          score: null,
          full_response: "",
          config: { k: 64 },
          duration: "long",
          pred_text: "",
          error: "Connection reset",
          extra_field: "kept aside",
        },
      ],
    });
    expect(summary).toEqual({ accuracy: 0.5 });
    expect(rows[0]).toMatchObject({ id: "17", correct: true, tool_calls: 2, score: 1, pred: "C", error: null });
    expect(rows[1]).toMatchObject({
      id: "a",
      key: "vid1_q3",
      answer: "1.5 - 4",
      pred: null,
      correct: false,
      tool_calls: 0,
      score: null,
      duration: "long",
      error: "Connection reset",
    });
  });

  it("names the row and the field that is wrong", () => {
    expect(() => parseReferenceFile({ results: [] })).toThrow("The file has no result rows");
    expect(() => parseReferenceFile([{ id: 1 }])).toThrow("Not a reference evaluator output");
    expect(() => parseReferenceFile({ results: [{ id: "ok" }, { answer: "A", tool_calls: -1 }] })).toThrow(
      /results\[1\]:[\s\S]*id[\s\S]*tool_calls/,
    );
  });
});
