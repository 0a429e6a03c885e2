// Stored turn columns -> the protocol's format verdict (the rules themselves are tested in
// packages/protocol/src/format-compliance.test.ts).
import { describe, expect, it } from "vitest";
import { storedFormatVerdict, toFormatTurn, type StoredTurn } from "./episode-format";

const good = "<think>\nThe clock shows noon in the overview.\n</think>\n<answer>B</answer>";
const stored = (over: Partial<StoredTurn> = {}): StoredTurn => ({
  rawText: good,
  forcedPrefix: null,
  parseIssues: [],
  forcedFinal: false,
  timings: { latencyMs: 12, finish: "stop", maxTokens: 2048 },
  ...over,
});

describe("toFormatTurn", () => {
  it("reads finish from the runner's timings and keeps only string parse issues", () => {
    expect(toFormatTurn(stored({ timings: { finish: "length" }, parseIssues: ["bad", 3, null] }))).toEqual({
      rawText: good,
      forcedPrefix: null,
      parseIssues: ["bad"],
      finish: "length",
      forcedFinal: false,
    });
    // An ingested turn has no timings: how it ended is unknown, not "stop".
    expect(toFormatTurn(stored({ timings: null, parseIssues: null })).finish).toBeNull();
    expect(toFormatTurn(stored({ timings: { finish: "eos" } })).finish).toBeNull();
  });
});

describe("storedFormatVerdict", () => {
  it("judges the stored turns under the episode's prompt mode", () => {
    expect(storedFormatVerdict([stored()], "agentic_general")).toEqual({ compliant: true, reasons: [] });
    expect(storedFormatVerdict([stored({ timings: { finish: "length" } })], "agentic_general")).toEqual({
      compliant: false,
      reasons: ["turn 1: ran to max tokens"],
    });
    // direct asks for answer tags only.
    expect(storedFormatVerdict([stored({ rawText: "<answer>B</answer>" })], "direct")!.compliant).toBe(true);
    expect(storedFormatVerdict([stored({ rawText: "<answer>B</answer>" })], "reasoning")!.compliant).toBe(false);
  });

  it("does not judge an episode without stored turns (an imported reference row)", () => {
    expect(storedFormatVerdict([], "agentic_general")).toBeNull();
  });
});
