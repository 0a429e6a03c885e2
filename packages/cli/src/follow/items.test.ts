import { describe, expect, it } from "vitest";
import { trajectoryOfChatText } from "./chat";
import { clientId, keepWholeGroups, metricName, metricValues, pyJson, rolloutLine, type RolloutDraft } from "./items";

const draft = (over: Partial<RolloutDraft> = {}): RolloutDraft => ({
  id: "r",
  step: 1,
  index: 0,
  k: 1,
  sample: { key: "s", question: "q", answer: "a", questionType: "oe" },
  turns: [{ rawText: "t", calls: [] }],
  finalText: "t",
  prediction: null,
  correct: null,
  score: 1,
  rewardTerms: { reward: 1 },
  ...over,
});

describe("ingestion items from framework values", () => {
  it("names metrics the way the API takes them, never merging two long names", () => {
    expect(metricName("actor/pg_loss")).toBe("actor/pg_loss");
    expect(metricName("val-core/x/mean@4")).toBe("val-core/x/mean_4");
    expect(metricName("  ")).toBeNull();
    const a = metricName(`${"m".repeat(120)}a`)!;
    const b = metricName(`${"m".repeat(120)}b`)!;
    expect(a).toHaveLength(100);
    expect(a).not.toBe(b);
  });

  it("keeps finite numbers and counts NaN and infinities (numbers, trackio's strings, orjson's null)", () => {
    expect(
      metricValues({ a: 1, b: Number.NaN, c: "NaN", d: "Infinity", e: null, f: "text", g: true, h: { x: 1 } }),
    ).toEqual({
      values: { a: 1 },
      nonFinite: ["b", "c", "d", "e"],
    });
  });

  it("reads Python's json.dumps (bare NaN) and bounds client ids to 200 characters", () => {
    expect(pyJson('{"score": NaN, "x": 1}')).toEqual({ score: Number.NaN, x: 1 });
    expect(pyJson("{oops")).toBeUndefined();
    const long = clientId("trackio", "x".repeat(300));
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).not.toBe(clientId("trackio", `${"x".repeat(299)}y`));
  });

  it("keeps whole groups first within a step's cap", () => {
    const rows = ["a", "a", "b", "b", "b", "c"];
    const { kept, dropped } = keepWholeGroups(rows, (r) => r, 5);
    expect(kept.map((k) => [k.row, k.group, k.groupIndex, k.groupSize])).toEqual([
      ["a", 0, 0, 2],
      ["a", 0, 1, 2],
      ["b", 1, 0, 3],
      ["b", 1, 1, 3],
      ["b", 1, 2, 3],
    ]);
    expect(dropped).toBe(1);
    // A first group larger than the cap: its first rollouts rather than none.
    expect(keepWholeGroups(["a", "a", "a"], (r) => r, 2).kept.map((k) => k.groupIndex)).toEqual([0, 1]);
  });

  it("cuts texts to the schema's bounds and says so in the turn's parse issues", () => {
    const r = rolloutLine(
      draft({ sample: { key: "s", question: "q".repeat(25_000), answer: "a", questionType: "oe" } }),
    );
    expect("item" in r && r.item.sample.question.length).toBe(20_000);
    expect("item" in r && r.item.turns?.[0]?.parseIssues).toEqual([
      "the question cut from 25000 to 20000 characters (the ingestion limit)",
    ]);
    expect(rolloutLine(draft({ step: 3_000_000 }))).toEqual({
      reason: "step 3000000 is beyond the largest storable step 2147482",
    });
    // Non-finite reward terms are left out rather than refused.
    const nan = rolloutLine(draft({ rewardTerms: { reward: Number.NaN, group: 0 } }));
    expect("item" in nan && nan.item.rewardTerms).toEqual({ group: 0 });
  });

  it("reads a chat-template text without tool calls as one turn, and other templates as none", () => {
    const t = trajectoryOfChatText(
      "<|im_start|>user\n<1.5 seconds><|vision_start|><|image_pad|><|vision_end|>Why?<|im_end|>\n<|im_start|>assistant\n<answer>so</answer><|im_end|>",
    );
    expect(t).toMatchObject({ question: "Why?", overviewTimestamps: [1.5], prediction: "so" });
    expect(t!.turns).toEqual([{ rawText: "<answer>so</answer>", calls: [] }]);
    expect(trajectoryOfChatText("User: hi\nAssistant: hello")).toBeNull();
  });
});
