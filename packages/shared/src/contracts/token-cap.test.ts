import { describe, expect, it } from "vitest";
import {
  datasetTurnTokens,
  evalTokenCapShare,
  maxNewTokensReason,
  measuredMaxNewTokens,
  SPEC_MAX_NEW_TOKENS,
  tokenCapSteps,
  type TurnTokenStats,
} from "./token-cap";

const stats = (mainP99: number, subP99: number): TurnTokenStats => ({
  tokenizer: { version: 2, hash: "h" },
  main: { turns: 100, p50: 75, p99: mainP99, max: mainP99 + 30 },
  sub: { turns: 50, p50: 60, p99: subP99, max: subP99 + 10 },
});

describe("measuredMaxNewTokens", () => {
  it("is the p99 generated turn × 1.25 rounded up to 32, never the trainer's 64 for a ~100-token turn", () => {
    // The default suite (planSuite seed 1, 300 videos): main p99 237, sub p99 114 -> 296.25 -> 320.
    expect(measuredMaxNewTokens(stats(237, 114))).toBe(320);
    expect(measuredMaxNewTokens(stats(106, 50))).toBe(160);
    // A sub-agent's cap defaults to the main agent's: the longer p99 decides.
    expect(measuredMaxNewTokens(stats(40, 100))).toBe(128);
    expect(measuredMaxNewTokens(stats(64, 0))).toBe(96);
  });
  it("falls back to SPEC §3's 2048 when the suite was not measured, and says so", () => {
    expect(measuredMaxNewTokens(null)).toBe(SPEC_MAX_NEW_TOKENS);
    expect(maxNewTokensReason(null)).toMatch(/no measured turn lengths/);
    expect(maxNewTokensReason(stats(237, 114))).toMatch(/p99 main-agent turn is 237 tokens \(longest 267\)/);
  });
  it("reads the measurement from a dataset's source, null when absent or malformed", () => {
    expect(datasetTurnTokens({ kind: "needle-suite", turnTokens: stats(237, 114) })).toEqual(stats(237, 114));
    expect(datasetTurnTokens({ kind: "needle-suite" })).toBeNull();
    expect(datasetTurnTokens({ turnTokens: { main: 3 } })).toBeNull();
    expect(datasetTurnTokens(null)).toBeNull();
  });
});

describe("token cap warnings", () => {
  it("warns on the steps where more than a tenth of the turns hit the cap", () => {
    expect(tokenCapSteps([])).toBeNull();
    expect(
      tokenCapSteps([
        { step: 1, value: 0.1 },
        { step: 2, value: 0 },
      ]),
    ).toBeNull();
    expect(
      tokenCapSteps([
        { step: 1, value: 0.875 },
        { step: 2, value: 0.05 },
        { step: 3, value: 0.9 },
      ]),
    ).toEqual({ over: 2, steps: 3, worst: { step: 3, value: 0.9 } });
  });
  it("warns on an eval when more than a tenth of its stored turns were cut", () => {
    expect(evalTokenCapShare(null)).toBeNull();
    expect(evalTokenCapShare({ turns: 0, cut: 0, maxTokens: null })).toBeNull();
    expect(evalTokenCapShare({ turns: 10, cut: 1, maxTokens: 64 })).toBeNull();
    expect(evalTokenCapShare({ turns: 16, cut: 14, maxTokens: 64 })).toBe(14 / 16);
  });
});
