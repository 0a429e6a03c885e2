import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { addOrderQuotes, noOrderQuotes, orderQuote } from "./order-quotes";

describe("orderQuote", () => {
  it("counts every crops-searched oracle order answer as a right copy of the first sentence naming an option", () => {
    const config = {
      oracleStyle: { orderSearch: "crops", shapeSentence: "time-first", optionStyle: "text-first" },
    } as const;
    const plan = planSuite({ seed: 3, count: 20, config });
    const questions = new Map(plan.questions.map((q) => [q.id, q]));
    const total = noOrderQuotes();
    for (const o of plan.oracle) {
      const q = questions.get(o.questionId)!;
      const options = q.template === "order" ? q.params.options : [];
      const responses = o.subAgents.map((a) => a.summary);
      addOrderQuotes(
        total,
        orderQuote(q.template, options, q.answerText, o.turns.at(-1)!.content, responses, o.rounds.length),
      );
    }
    expect(total.episodes).toBeGreaterThan(20);
    expect(total.rounds).toBeGreaterThanOrEqual(total.episodes);
    const all = total.episodes;
    expect(total).toMatchObject({ findable: all, quoted: all, copied: all, first: all, right: all });
  });

  it("tells a made-up or later quote from the first one, and ignores other templates", () => {
    const options = [
      { color: "red", shape: "circle" },
      { color: "cyan", shape: "square" },
      { color: "green", shape: "cross" },
      { color: "white", shape: "diamond" },
    ] as const;
    const responses = [
      "The background is teal throughout. A yellow triangle from 00:01 to 00:03 is in the center. A cyan square from 00:10 to 00:12 is in the top-left. No other shape appears.",
      "The background is teal throughout. A red circle from 00:20 to 00:24 is in the bottom-right. No other shape appears.",
    ];
    const answer = (sentence: string, name: string) =>
      `<think>\nThe first of the four shapes in my crops: ${sentence} So the ${name} came first (B).\n</think>\n<answer>B</answer>`;
    const first = answer("A cyan square from 00:10 to 00:12 is in the top-left.", "cyan square");
    expect(orderQuote("order", options, "cyan square", first, responses, 1)).toEqual({
      episodes: 1,
      rounds: 1,
      findable: 1,
      quoted: 1,
      copied: 1,
      first: 1,
      right: 1,
    });
    const later = answer("A red circle from 00:20 to 00:24 is in the bottom-right.", "red circle");
    expect(orderQuote("order", options, "cyan square", later, responses, 1)).toMatchObject({
      copied: 1,
      first: 0,
      right: 0,
    });
    const made = answer("A green cross from 00:05 to 00:07 is in the center.", "green cross");
    expect(orderQuote("order", options, "cyan square", made, responses, 2)).toMatchObject({
      quoted: 1,
      copied: 0,
      first: 0,
    });
    const overview =
      "<think>\nI see the cyan square at 10 s. Nothing before 10 s is left unseen …, so the cyan square came first (B).";
    expect(orderQuote("order", options, "cyan square", overview, responses, 1)).toMatchObject({
      quoted: 0,
      copied: 0,
      right: 1,
    });
    expect(orderQuote("count", options, "cyan square", first, responses, 1)).toBeNull();
  });
});
