// Tallies give the summary `summarize` gives for the same rows (issue 42 item 3), on random row
// sets of every question type, ERROR rows, rows without a verdict, duration group or format
// verdict, folded in one go, one row at a time (as episodes are stored) and in pages (a build).
import { describe, expect, it } from "vitest";
import { DURATION_CATEGORIES, type EvalSummary } from "../../contracts/evals";
import { summarize, type SummaryRow } from "./evals-summary";
import { mergeTallies, summaryFromTallies, tallyRows } from "./evals-tally";
import { summaryDifference } from "./evals-tally.test-support";

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function randomRow(r: () => number, types: readonly SummaryRow["questionType"][]): SummaryRow {
  const questionType = pick(r, types);
  // Scores as producers write them: IoUs in and out of [0, 1] (clamped), open-ended scores, none.
  const score =
    r() < 0.15
      ? null
      : questionType === "tvg"
        ? pick(r, [r() * 1.4 - 0.2, 0, 1, 0.3, 0.5, 0.7, r()])
        : questionType === "oe"
          ? pick(r, [r(), r() * 10, 0, 1])
          : pick(r, [0, 1]);
  return {
    status: r() < 0.12 ? "ERROR" : "OK",
    correct: pick(r, [true, false, null]),
    score,
    toolCallCount: pick(r, [0, 0, 1, 2, 5]),
    questionType,
    duration: pick(r, [null, ...DURATION_CATEGORIES]),
    formatCompliant: pick(r, [true, false, null]),
  };
}

function expectSame(actual: EvalSummary, expected: EvalSummary, seed: number): void {
  expect(summaryDifference(actual, expected), `seed ${seed}`).toBeNull();
}

const TYPE_SETS: (readonly SummaryRow["questionType"][])[] = [
  ["mcq", "tvg", "oe"],
  ["mcq"],
  ["tvg"],
  ["oe"],
  ["mcq", "tvg"],
];

describe("summaryFromTallies", () => {
  it("equals summarize on 600 random row sets (every type, errors, null verdicts, durations, formats)", () => {
    for (let seed = 1; seed <= 600; seed++) {
      const r = rng(seed);
      const types = TYPE_SETS[seed % TYPE_SETS.length]!;
      const n = pick(r, [0, 1, 2, 3, 7, 40, 250]);
      const rows = Array.from({ length: n }, () => randomRow(r, types));
      const samples = n + Math.floor(r() * 5);
      const expected = summarize(rows, samples);
      expectSame(summaryFromTallies(tallyRows(rows), samples), expected, seed);
      // One tally per stored episode, added up (what the stores do), and pages of a build merged.
      const perRow = mergeTallies(rows.flatMap((row) => tallyRows([row])));
      expectSame(summaryFromTallies(perRow, samples), expected, seed);
      const pages = mergeTallies([...tallyRows(rows.slice(0, n >> 1)), ...tallyRows(rows.slice(n >> 1))]);
      expectSame(summaryFromTallies(pages, samples), expected, seed);
    }
  });

  it("keeps the edge cases exact: nothing stored, only errors, one value, equal values", () => {
    const row = (over: Partial<SummaryRow>): SummaryRow => ({
      status: "OK",
      correct: null,
      score: null,
      toolCallCount: 0,
      questionType: "mcq",
      duration: null,
      formatCompliant: null,
      ...over,
    });
    const cases: SummaryRow[][] = [
      [],
      [row({ status: "ERROR" }), row({ status: "ERROR", questionType: "tvg" })],
      [row({ questionType: "oe", score: 0.4 })],
      [
        row({ questionType: "tvg", score: 0.1 }),
        row({ questionType: "tvg", score: 0.1 }),
        row({ questionType: "tvg", score: 0.1 }),
      ],
      [row({ correct: true, duration: "short" }), row({ correct: null, duration: "long" })],
    ];
    cases.forEach((rows, i) => {
      const s = summarize(rows, 9);
      expectSame(summaryFromTallies(tallyRows(rows), 9), s, i);
      // Equal IoUs: no spread, whichever way it is computed.
      if (i === 3) expect(summaryFromTallies(tallyRows(rows), 9).grounding!.se).toBeCloseTo(0, 12);
    });
  });
});
