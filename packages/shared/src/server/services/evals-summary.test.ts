// SPEC §5 summaries on hand-computed examples.
import { describe, expect, it } from "vitest";
import { durationCategoryOf, summarize, type SummaryRow } from "./evals-summary";

const row = (over: Partial<SummaryRow>): SummaryRow => ({
  status: "OK",
  correct: null,
  score: null,
  toolCallCount: 0,
  questionType: "mcq",
  duration: null,
  formatCompliant: true,
  ...over,
});

describe("summarize", () => {
  it("computes MCQ accuracy over answered samples, counting errors apart, with accuracy by duration", () => {
    const rows: SummaryRow[] = [
      row({ correct: true, duration: "short", toolCallCount: 2 }),
      row({ correct: false, duration: "short", toolCallCount: 0 }),
      row({ correct: true, duration: "medium", toolCallCount: 1 }),
      row({ correct: true, duration: "long", toolCallCount: 3 }),
      row({ correct: false, duration: "long", toolCallCount: 0 }),
      // An engine failure: not a wrong answer, not in any rate.
      row({ status: "ERROR", duration: "long", toolCallCount: 5 }),
    ];
    const s = summarize(rows, 8);
    expect(s).toMatchObject({ samples: 8, stored: 6, answered: 5, errors: 1 });
    // 3 of 5 answered are correct.
    expect(s.mcq).toEqual({ n: 5, correct: 3, accuracy: 0.6 });
    expect(s.byDuration).toEqual({
      short: { n: 2, correct: 1, accuracy: 0.5 },
      medium: { n: 1, correct: 1, accuracy: 1 },
      long: { n: 2, correct: 1, accuracy: 0.5 },
    });
    // Tool calls over answered rows: (2+0+1+3+0)/5 = 1.2; 3 of 5 made at least one call.
    expect(s.avgToolCalls).toBeCloseTo(1.2, 12);
    expect(s.toolUsageRate).toBeCloseTo(0.6, 12);
    expect(s.grounding).toBeNull();
    expect(s.openEnded).toBeNull();
  });

  it("computes grounding mIoU and R@0.3/0.5/0.7 from the stored IoU scores", () => {
    const ious = [0.8, 0.5, 0.3, 0.1, 0.0, 0.7];
    const rows = [
      ...ious.map((score) => row({ questionType: "tvg", score, correct: score >= 0.5 })),
      row({ questionType: "tvg", status: "ERROR" }),
    ];
    const s = summarize(rows, 7);
    // mIoU = 2.4 / 6 = 0.4; R@0.3: {0.8,0.5,0.3,0.7} = 4/6; R@0.5: {0.8,0.5,0.7} = 3/6; R@0.7: {0.8,0.7} = 2/6.
    expect(s.grounding!.n).toBe(6);
    expect(s.grounding!.mIoU).toBeCloseTo(0.4, 12);
    // Standard error of mIoU: sample SD / sqrt(n); squared deviations sum to 0.52, SD² = 0.52 / 5.
    expect(s.grounding!.se).toBeCloseTo(Math.sqrt(0.52 / 5 / 6), 12);
    expect(s.grounding!.r03).toBeCloseTo(4 / 6, 12);
    expect(s.grounding!.r05).toBeCloseTo(0.5, 12);
    expect(s.grounding!.r07).toBeCloseTo(2 / 6, 12);
    expect(s.errors).toBe(1);
    expect(s.mcq).toBeNull();
    expect(s.byDuration).toBeNull();
  });

  it("reports no rates when nothing was answered, and an MCQ block with n = 0 when every MCQ row failed", () => {
    const s = summarize([row({ status: "ERROR" }), row({ status: "ERROR" })], 2);
    expect(s).toMatchObject({ stored: 2, answered: 0, errors: 2, avgToolCalls: null, toolUsageRate: null });
    expect(s.mcq).toEqual({ n: 0, correct: 0, accuracy: null });
    expect(summarize([], 10)).toMatchObject({ samples: 10, stored: 0, mcq: null, grounding: null });
  });

  it("leaves ERROR episodes out of every figure, as the contract states (the reference would count them wrong)", () => {
    const rows = [
      row({ correct: true, toolCallCount: 1, formatCompliant: true }),
      row({ correct: false, toolCallCount: 0, formatCompliant: false }),
      // Three infrastructure failures: not wrong, not 0 calls, not format failures.
      ...[1, 2, 3].map(() => row({ status: "ERROR", correct: null, toolCallCount: 0, formatCompliant: null })),
    ];
    const s = summarize(rows, 5);
    expect(s).toMatchObject({ stored: 5, answered: 2, errors: 3 });
    expect(s.mcq).toEqual({ n: 2, correct: 1, accuracy: 0.5 });
    expect(s.formatCompliance).toEqual({ n: 2, compliant: 1, rate: 0.5 });
    expect(s.toolUsageRate).toBe(0.5);
    expect(s.avgToolCalls).toBe(0.5);
    // The reference's figure (errors counted wrong) is recovered as correct / (n + errors).
    expect(s.mcq!.correct / (s.mcq!.n + s.errors)).toBeCloseTo(0.2, 12);
  });

  it("does not count an answered MCQ row without a verdict (correct null), like the reference", () => {
    const s = summarize([row({ correct: true }), row({ correct: null }), row({ correct: false })], 3);
    expect(s.mcq).toEqual({ n: 2, correct: 1, accuracy: 0.5 });
    expect(s.answered).toBe(3);
  });

  it("reports format compliance over the answered episodes that have stored turns only", () => {
    const s = summarize(
      [
        row({ formatCompliant: true }),
        row({ formatCompliant: true }),
        row({ formatCompliant: false }),
        row({ formatCompliant: null }), // no stored turns (imported reference row): not judged
      ],
      4,
    );
    expect(s.formatCompliance!.n).toBe(3);
    expect(s.formatCompliance!.compliant).toBe(2);
    expect(s.formatCompliance!.rate).toBeCloseTo(2 / 3, 12);
    expect(summarize([row({ formatCompliant: null })], 1).formatCompliance).toBeNull();
  });

  it("averages open-ended scores", () => {
    const s = summarize([row({ questionType: "oe", score: 1 }), row({ questionType: "oe", score: 0.25 })], 2);
    // Standard error: sample SD (sqrt(2 × 0.375² / 1)) / sqrt(2) = 0.375; one sample has none.
    expect(s.openEnded).toEqual({ n: 2, meanScore: 0.625, se: 0.375 });
    expect(summarize([row({ questionType: "oe", score: 1 })], 1).openEnded).toEqual({ n: 1, meanScore: 1, se: null });
  });
});

describe("durationCategoryOf", () => {
  it("reads VideoMME's duration group from the sample, else from an imported row; lengths are not groups", () => {
    expect(durationCategoryOf({ duration: "Long" })).toBe("long");
    expect(durationCategoryOf({ durationCategory: "medium" })).toBe("medium");
    expect(durationCategoryOf({ duration: 412.5 }, { duration: "short" })).toBe("short");
    expect(durationCategoryOf({ duration: 412.5 })).toBeNull();
    expect(durationCategoryOf(null, { duration: "huge" })).toBeNull();
  });
});
