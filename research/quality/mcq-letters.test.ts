import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { addLetters, mcqLetter, noLetters } from "./mcq-letters";

// The oracle's answers conclude the right text and write its letter: every tally must agree.
describe("mcqLetter", () => {
  const configs = [{}, { oracleStyle: { optionStyle: "text-first" } }] as const;
  for (const config of configs) {
    it(`finds the oracle's scene_color and order conclusions and their letters (${JSON.stringify(config)})`, () => {
      const plan = planSuite({ seed: 3, count: 20, config });
      const questions = new Map(plan.questions.map((q) => [q.id, q]));
      const total = noLetters();
      for (const o of plan.oracle) {
        const q = questions.get(o.questionId)!;
        addLetters(total, mcqLetter(q.template, o.turns.at(-1)!.content, q.options ?? [], q.answerText));
      }
      expect(total.stated).toBeGreaterThan(50);
      expect(total).toEqual({ stated: total.stated, textRight: total.stated, letterMatches: total.stated });
    });
  }

  it("tells a wrong text from a letter that does not match the text named", () => {
    const options = ["red", "yellow", "orange", "white"];
    const said = (color: string, letter: string) =>
      `<think>\nThat is the shape of the gray scene, so its color is ${color}: option ${letter}.\n</think>\n<answer>${letter}</answer>`;
    expect(mcqLetter("scene_color", said("white", "D"), options, "white")).toEqual({
      stated: 1,
      textRight: 1,
      letterMatches: 1,
    });
    expect(mcqLetter("scene_color", said("white", "B"), options, "white")).toEqual({
      stated: 1,
      textRight: 1,
      letterMatches: 0,
    });
    expect(mcqLetter("scene_color", said("red", "A"), options, "white")).toEqual({
      stated: 1,
      textRight: 0,
      letterMatches: 1,
    });
    // A color that is no option never matches a letter.
    expect(mcqLetter("scene_color", said("teal", "A"), options, "white")).toEqual({
      stated: 1,
      textRight: 0,
      letterMatches: 0,
    });
    expect(mcqLetter("count", said("white", "D"), options, "white")).toBeNull();
    expect(mcqLetter("scene_color", "<answer>D</answer>", options, "white")).toBeNull();
  });
});
