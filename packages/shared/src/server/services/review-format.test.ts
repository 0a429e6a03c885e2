import { describe, expect, it } from "vitest";
import { formatFailure } from "./review-format";

const good = "<think>\nThe clock shows noon in the overview.\n</think>\n<answer>B</answer>";

describe("formatFailure", () => {
  it("passes a balanced turn with an answer", () => {
    expect(formatFailure([{ rawText: good, forcedPrefix: null, parseIssues: [] }], "B")).toEqual({
      failed: false,
      reasons: [],
    });
  });

  it("counts the forced think prefix as part of the turn", () => {
    const body = good.slice("<think>\n".length);
    expect(formatFailure([{ rawText: body, forcedPrefix: "<think>\n", parseIssues: [] }], "B").failed).toBe(false);
    // Without the prefix the closing tag has no opening one.
    expect(formatFailure([{ rawText: body, forcedPrefix: null, parseIssues: [] }], "B").failed).toBe(true);
  });

  it("names parse issues, unclosed tags and a missing answer", () => {
    const r = formatFailure(
      [
        {
          rawText: "<think>\nlook\n</think>\n<tool_call>{bad json</tool_call>",
          forcedPrefix: null,
          parseIssues: ["invalid JSON in tool call"],
        },
        { rawText: "<think>\nnever closed", forcedPrefix: null, parseIssues: null },
      ],
      "",
    );
    expect(r.failed).toBe(true);
    expect(r.reasons).toEqual([
      "turn 1: invalid JSON in tool call",
      "turn 2: unclosed or unbalanced tag",
      "no answer could be extracted",
    ]);
  });
});
