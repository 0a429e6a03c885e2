import { describe, expect, it } from "vitest";
import {
  binomialSE,
  EVAL_QUANTITIES,
  EVAL_QUANTITY_KEYS,
  figuresOf,
  headlineOf,
  meanSE,
  sampleNumberWord,
} from "./eval-quantities";

describe("standard errors", () => {
  it("binomial: Agresti-Coull for a proportion, none without samples", () => {
    // Agresti-Coull: p~ = (np + 2) / (n + 4), over n + 4.
    expect(binomialSE(0.5, 100)).toBeCloseTo(Math.sqrt(0.25 / 104), 12);
    expect(binomialSE(0.75, 4)).toBeCloseTo(Math.sqrt(((5 / 8) * (3 / 8)) / 8), 12);
    // Near Wald's 0.05 in the middle at benchmark sizes.
    expect(Math.abs(binomialSE(0.5, 100)! - 0.05)).toBeLessThan(0.001);
    // 0 % and 100 % keep an uncertainty that shrinks with n (Wald said 0 for both).
    expect(binomialSE(1, 30)).toBeCloseTo(Math.sqrt(((32 / 34) * (2 / 34)) / 34), 12);
    expect(binomialSE(0, 5)!).toBeGreaterThan(binomialSE(0, 5000)!);
    expect(binomialSE(0, 5000)!).toBeGreaterThan(0);
    expect(binomialSE(null, 0)).toBeNull();
    expect(binomialSE(0.5, 0)).toBeNull();
  });

  it("of a mean: sample SD (n - 1) / sqrt(n), none below two samples", () => {
    // mean 2, squared deviations 1 + 0 + 1 = 2, SD² = 2 / 2 = 1, SE = 1 / sqrt(3).
    expect(meanSE([1, 2, 3])).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(meanSE([0.4, 0.4, 0.4])).toBeCloseTo(0, 12);
    expect(meanSE([0.7])).toBeNull();
    expect(meanSE([])).toBeNull();
  });
});

describe("figures and headline", () => {
  const mcq = { n: 4, correct: 3, accuracy: 0.75 };
  const openEnded = { n: 2, meanScore: 0.625, se: 0.375 };
  const grounding = { n: 6, mIoU: 0.4, se: 0.13, r03: 0, r05: 0, r07: 0 };

  it("lists one figure per question type with n and standard error, in the glossary's order", () => {
    expect(figuresOf({ mcq, openEnded, grounding })).toEqual([
      { quantity: "accuracy", value: 0.75, n: 4, se: Math.sqrt(((5 / 8) * (3 / 8)) / 8) },
      { quantity: "score", value: 0.625, n: 2, se: 0.375 },
      { quantity: "mIoU", value: 0.4, n: 6, se: 0.13 },
    ]);
    expect(figuresOf({ mcq: null, openEnded: null, grounding: null })).toEqual([]);
  });

  it("heads with accuracy, else mIoU, else the open-ended score", () => {
    expect(headlineOf({ mcq, openEnded, grounding }).quantity).toBe("accuracy");
    expect(headlineOf({ mcq: null, openEnded, grounding }).quantity).toBe("mIoU");
    expect(headlineOf({ mcq: null, openEnded, grounding: null })).toEqual({
      quantity: "score",
      value: 0.625,
      n: 2,
      se: 0.375,
    });
    expect(headlineOf({ mcq: null, openEnded: null, grounding: null })).toEqual({
      quantity: "accuracy",
      value: null,
      n: 0,
      se: null,
    });
  });

  it("gives every quantity one word and one question type; a sample's number is IoU or score by type", () => {
    const labels = EVAL_QUANTITY_KEYS.map((q) => EVAL_QUANTITIES[q].label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(EVAL_QUANTITY_KEYS.map((q) => EVAL_QUANTITIES[q].questionType)).toEqual(["mcq", "oe", "tvg"]);
    expect(sampleNumberWord("tvg")).toBe("IoU");
    expect(sampleNumberWord("oe")).toBe("score");
  });
});
