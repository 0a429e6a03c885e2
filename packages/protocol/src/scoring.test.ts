import { describe, expect, it } from "vitest";
import { accReward, hullIou, optionMatch, parseTrainingRange, temporalIou, tokenF1 } from "./scoring";

describe("tokenF1 (SPEC §2, SQuAD-style over the SET of common tokens)", () => {
  it("is 1 for identical token lists", () => {
    expect(tokenF1("red car", "the red car")).toBe(1);
  });

  it("counts common tokens as a set against full token counts", () => {
    // pred [red, red, car], gt [car, red]: common set {red, car} = 2, p = 2/3, r = 1.
    expect(tokenF1("red red car", "car red")).toBeCloseTo(0.8, 12);
    // pred [x, x, x, y], gt [x, x, x, z]: common set {x} = 1, p = r = 1/4. A multiset
    // (SQuAD's Counter) would count 3 common tokens and give 0.75.
    expect(tokenF1("x x x y", "x x x z")).toBe(0.25);
  });

  it("is 0 when a side has no tokens or nothing is shared", () => {
    expect(tokenF1("", "a b")).toBe(0);
    expect(tokenF1("the", "cat")).toBe(0);
    expect(tokenF1("dog", "cat")).toBe(0);
  });
});

describe("optionMatch (SPEC §2 option match)", () => {
  it("needs a one-letter A–D answer after trim and upper-casing", () => {
    expect(optionMatch("E", "E")).toBe(0);
    expect(optionMatch("AB", "AB")).toBe(0);
    expect(optionMatch("b", " b ")).toBe(1);
  });

  it("scores an equal prediction, case-insensitive", () => {
    expect(optionMatch(" c ", "C")).toBe(1);
  });

  it("whole-string (X) / X", () => {
    expect(optionMatch("(B)", "B")).toBe(1);
    expect(optionMatch("(B", "B")).toBe(1);
  });

  it("the answer is X (T or t)", () => {
    expect(optionMatch("So the answer is (D), clearly not A", "D")).toBe(1);
    expect(optionMatch("The answer is D", "D")).toBe(1);
  });

  it("option X (O or o)", () => {
    expect(optionMatch("I go with option C over A", "C")).toBe(1);
  });

  it("starts with X. X) or X:", () => {
    expect(optionMatch("A) because of it", "A")).toBe(1);
    expect(optionMatch("B: yes", "B")).toBe(1);
  });

  it("a standalone capital A–D (Unicode word boundaries)", () => {
    expect(optionMatch("I pick B over A", "B")).toBe(1);
    expect(optionMatch("ÉA then C", "C")).toBe(1);
    expect(optionMatch("ÉA", "A")).toBe(0);
  });

  it("only the FIRST match of each pattern counts", () => {
    // Pattern 5 first matches B, so A (later) does not score.
    expect(optionMatch("I pick B over A", "A")).toBe(0);
    // Every pattern's first match carries D, so the later C never scores.
    expect(optionMatch("the answer is D not C", "C")).toBe(0);
  });

  it("is 0 without any match", () => {
    expect(optionMatch("no idea", "A")).toBe(0);
  });
});

describe("temporalIou (SPEC §2 training IoU)", () => {
  it("reads the first s , e pair with optional brackets", () => {
    expect(parseTrainingRange("from [ 10.5 , 20 ] to 30, 40")).toEqual([10.5, 20]);
    expect(parseTrainingRange("٣,٤")).toEqual([3, 4]);
    expect(parseTrainingRange("10 - 20")).toBeNull();
  });

  it("IoU = intersection / (len_a + len_b - intersection)", () => {
    expect(temporalIou("[10, 20]", "[15, 25]")).toBeCloseTo(5 / 15, 15);
    expect(temporalIou("10,20", "20,30")).toBe(0);
  });

  it("is 0 when a side fails to parse or has e <= s", () => {
    expect(temporalIou("no numbers", "1, 2")).toBe(0);
    expect(temporalIou("20, 10", "10, 20")).toBe(0);
    expect(temporalIou("10, 10", "10, 20")).toBe(0);
  });

  it("treats a capture Python's float() rejects as a failed parse (documented choice)", () => {
    expect(parseTrainingRange("1.2.3, 5")).toBeNull();
    expect(temporalIou("1.2.3, 5", "1, 5")).toBe(0);
  });
});

describe("hullIou (SPEC §5 evaluation IoU: intersection / hull span)", () => {
  it("divides by the hull, not the union", () => {
    expect(hullIou([10, 20], [15, 25])).toBeCloseTo(5 / 15, 15);
    expect(hullIou([0, 1], [2, 3])).toBe(0);
    expect(hullIou([0, 10], [2, 3])).toBe(0.1);
  });

  it("is 0 for an empty hull", () => {
    expect(hullIou([5, 5], [5, 5])).toBe(0);
  });
});

describe("accReward (SPEC §2 R_acc)", () => {
  it("is 0 if prediction or answer is empty", () => {
    expect(accReward("", "B", "mcq", "f1")).toBe(0);
    expect(accReward("B", "", "mcq", "f1")).toBe(0);
  });

  it("is 1 on equal normalized text, for any type and mode", () => {
    expect(accReward("The Red car!", "red car", "oe", "exact")).toBe(1);
    expect(accReward("(B)", "b", "tvg", "exact")).toBe(1);
  });

  it("dispatches mcq to option match and tvg to temporal IoU", () => {
    expect(accReward("The answer is C", "C", "mcq", "exact")).toBe(1);
    expect(accReward("[10, 20]", "[15, 25]", "tvg", "exact")).toBeCloseTo(1 / 3, 15);
  });

  it("other types: exact -> 0, f1 -> token F1", () => {
    expect(accReward("a red car", "red truck", "oe", "exact")).toBe(0);
    expect(accReward("a red car", "red truck", "oe", "f1")).toBe(0.5);
    expect(accReward("a red car", "red truck", "something-else", "f1")).toBe(0.5);
  });

  it("llm mode uses the judge score and falls back to F1 without one", () => {
    expect(accReward("a red car", "red truck", "oe", "llm", 1)).toBe(1);
    expect(accReward("a red car", "red truck", "oe", "llm", null)).toBe(0.5);
    expect(accReward("a red car", "red truck", "oe", "llm")).toBe(0.5);
  });
});
