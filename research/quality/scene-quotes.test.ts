import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { addQuotes, noQuotes, sceneQuote } from "./scene-quotes";

describe("sceneQuote", () => {
  it("counts every crops-searched oracle scene answer as a copied quote of a quotable response", () => {
    const config = {
      oracleStyle: { sceneSearch: "crops", sceneAnswer: "quote", shapeSentence: "time-first" },
    } as const;
    const plan = planSuite({ seed: 3, count: 20, config });
    const questions = new Map(plan.questions.map((q) => [q.id, q]));
    const total = noQuotes();
    for (const o of plan.oracle) {
      const q = questions.get(o.questionId)!;
      const scene = (q.params as { scene?: string }).scene ?? "";
      const responses = o.subAgents.map((a) => a.summary);
      addQuotes(total, sceneQuote(q.template, scene, o.turns.at(-1)!.content, responses, o.rounds.length));
    }
    expect(total.episodes).toBeGreaterThan(20);
    expect(total.rounds).toBeGreaterThanOrEqual(total.episodes);
    const all = total.episodes;
    expect(total).toMatchObject({ quotable: all, quoted: all, copied: all, copiedWhenQuotable: all });
  });

  it("tells a made-up quote from a copied one, and ignores other templates", () => {
    const responses = [
      "The background is teal throughout. A red circle from 00:01 to 00:03 is in the center. No other shape appears.",
      "The background is brown throughout. No shape appears in these frames.",
    ];
    const made =
      "The background is brown throughout. A white square from 00:20 to 00:24 is in the top-left. That is the shape of the brown scene, so its color is white (A).\n</think>\n<answer>A</answer>";
    expect(sceneQuote("scene_color", "brown", made, responses, 1)).toEqual({
      episodes: 1,
      rounds: 1,
      quotable: 0,
      quoted: 1,
      copied: 0,
      copiedWhenQuotable: 0,
    });
    const copied = `${responses[0]!.replace(" No other shape appears.", "")} That is the shape of the teal scene, so its color is red (B).`;
    expect(sceneQuote("scene_color", "teal", copied, responses, 2)).toMatchObject({
      quotable: 1,
      quoted: 1,
      copied: 1,
      copiedWhenQuotable: 1,
    });
    expect(sceneQuote("count", "teal", copied, responses, 2)).toBeNull();
  });
});
