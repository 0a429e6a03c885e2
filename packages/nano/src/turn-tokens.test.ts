import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { buildSequence } from "./sequence";
import { assistantTurnTokens, tokenCountStats, turnTokenStats } from "./turn-tokens";
import { defaultTokenizer } from "./vocabulary";

const plan = planSuite({ seed: 5, count: 6 });
const tok = defaultTokenizer();

describe("turnTokenStats", () => {
  it("counts each assistant turn as SFT trains it: its text and <|im_end|>", () => {
    const row = plan.oracle.find((r) => r.turns.filter((t) => t.role === "assistant").length > 1)!;
    const { main } = assistantTurnTokens({ oracle: [row] }, { tokenizer: tok });
    const assistant = row.turns.filter((t) => t.role === "assistant");
    expect(main).toEqual(assistant.map((t) => tok.encode(t.content).length + 1));
    // One count per assistant turn of every trajectory.
    const all = assistantTurnTokens(plan, { tokenizer: tok });
    expect(all.main).toHaveLength(plan.oracle.flatMap((r) => r.turns.filter((t) => t.role === "assistant")).length);
    expect(all.sub.length).toBeGreaterThan(0);
    expect(buildSequence(tok, [{ role: "user", content: "x" }]).lossMask.every((m) => m === 0)).toBe(true);
  });

  it("reports nearest-rank p50 / p99 / max and the tokenizer", () => {
    expect(tokenCountStats([])).toEqual({ turns: 0, p50: 0, p99: 0, max: 0 });
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
    expect(tokenCountStats(hundred)).toEqual({ turns: 100, p50: 50, p99: 99, max: 100 });
    const s = turnTokenStats(plan, { tokenizer: tok });
    expect(s.tokenizer).toEqual({ version: tok.version, hash: tok.hash });
    expect(s.main.turns).toBeGreaterThan(0);
    expect(s.main.p50).toBeLessThanOrEqual(s.main.p99);
    expect(s.main.p99).toBeLessThanOrEqual(s.main.max);
    // The figure: a main-agent turn of the default suite takes ~100 tokens, well over 64.
    expect(s.main.p99).toBeGreaterThan(64);
  });
});
