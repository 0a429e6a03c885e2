import { describe, expect, it } from "vitest";
import { outcomeOf } from "./outcome";

describe("an episode's outcome, as the table, the grid and the episode page print it", () => {
  it("an error is never a wrong answer; a verdict wins over the number", () => {
    expect(outcomeOf({ status: "ERROR", correct: null, score: null }, "mcq", 2)).toEqual({
      kind: "error",
      tone: "danger",
      text: "error",
    });
    expect(outcomeOf({ status: "OK", correct: true, score: 1 }, "mcq", 2).kind).toBe("correct");
    // Grounding: correct = IoU >= 0.5 (R@0.5), a verdict like any other.
    expect(outcomeOf({ status: "OK", correct: false, score: 0.31 }, "tvg", 2)).toMatchObject({
      kind: "wrong",
      text: "wrong",
    });
  });

  it("without a verdict, the number in the glossary's word (IoU, score), with the view's decimals", () => {
    expect(outcomeOf({ status: "OK", correct: null, score: 0.4567 }, "tvg", 2).text).toBe("IoU 0.46");
    expect(outcomeOf({ status: "OK", correct: null, score: 0.4567 }, "oe", 3).text).toBe("score 0.457");
    expect(outcomeOf({ status: "OK", correct: null, score: null }, "oe", 2).text).toBe("score —");
    expect(outcomeOf({ status: "OK", correct: null, score: null }, "mcq", 2)).toMatchObject({
      kind: "no verdict",
      text: "no verdict",
    });
  });
});
