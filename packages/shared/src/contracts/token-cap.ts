// The generation cap per turn (RL `maxNewTokens`, eval `maxTokens`) and what a model needs
// (issue 41 item 1): a needle suite's measured tokens per generated turn, the default cap it
// gives, and the rule that warns when a run's turns hit the cap. Pure and client-safe.
import { z } from "zod";

/** SPEC §3: max 2048 new tokens per turn. */
export const SPEC_MAX_NEW_TOKENS = 2048;
/** The measured default is the p99 turn × this headroom, rounded up to a multiple of MAX_NEW_TOKENS_STEP. */
export const MAX_NEW_TOKENS_HEADROOM = 1.25;
export const MAX_NEW_TOKENS_STEP = 32;

const count = z.number().int().min(0);
const tokenCountStats = z.object({ turns: count, p50: count, p99: count, max: count });

/**
 * Tokens per generated turn of a needle suite's oracle trajectories (@paravt/nano
 * `turnTokenStats`: each assistant turn's SFT targets, its `<|im_end|>` included, the think
 * prefix counted as generated), measured by the worker that imports the suite and kept in
 * `dataset.source.turnTokens`. A model SFT-trained on such a suite writes turns this long.
 */
export const turnTokenStats = z.object({
  tokenizer: z.object({ version: z.number().int(), hash: z.string() }),
  main: tokenCountStats,
  sub: tokenCountStats,
});
export type TurnTokenStats = z.infer<typeof turnTokenStats>;

/** A dataset's measurement, or null (not a needle suite, or imported before it was measured). */
export function datasetTurnTokens(source: unknown): TurnTokenStats | null {
  const raw = (source as { turnTokens?: unknown } | null | undefined)?.turnTokens;
  const parsed = turnTokenStats.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * The cap a run on this suite needs: the p99 generated turn (main agent or sub-agent, whose cap
 * defaults to the main agent's) × 1.25, rounded up to a multiple of 32; SPEC §3's 2048 when the
 * suite was not measured.
 */
export function measuredMaxNewTokens(stats: TurnTokenStats | null): number {
  if (!stats) return SPEC_MAX_NEW_TOKENS;
  const p99 = Math.max(stats.main.p99, stats.sub.p99, 1);
  const step = MAX_NEW_TOKENS_STEP;
  return Math.min(32768, Math.ceil((p99 * MAX_NEW_TOKENS_HEADROOM) / step) * step);
}

/** Why the default cap is what it is, in one line for the launch form and the docs. */
export function maxNewTokensReason(stats: TurnTokenStats | null): string {
  if (!stats)
    return `this suite has no measured turn lengths (imported before they were measured): SPEC §3's ${SPEC_MAX_NEW_TOKENS}`;
  const which = stats.main.p99 >= stats.sub.p99 ? "main-agent" : "sub-agent";
  return `measured: the suite's p99 ${which} turn is ${Math.max(stats.main.p99, stats.sub.p99)} tokens (longest ${Math.max(stats.main.max, stats.sub.max)}) × ${MAX_NEW_TOKENS_HEADROOM}, rounded up to ${MAX_NEW_TOKENS_STEP}`;
}

/** A run page warns when more than this share of a step's (or an eval's) turns hit the cap. */
export const TOKEN_CAP_WARN_SHARE = 0.1;

export interface TokenCapSteps {
  /** Steps whose share of capped turns is above TOKEN_CAP_WARN_SHARE. */
  over: number;
  /** Steps with a value. */
  steps: number;
  /** The step with the highest share. */
  worst: { step: number; value: number };
}

/**
 * The RL warning from the per-step `truncated_turn_rate` series (share of a step's main-agent
 * turns cut by maxNewTokens): null when no step is above the threshold.
 */
export function tokenCapSteps(points: readonly { step: number; value: number }[]): TokenCapSteps | null {
  const over = points.filter((p) => p.value > TOKEN_CAP_WARN_SHARE);
  if (over.length === 0) return null;
  const worst = over.reduce((a, b) => (b.value > a.value ? b : a));
  return { over: over.length, steps: points.length, worst: { step: worst.step, value: worst.value } };
}

/** Stored main-agent turns of a run and how many its engine cut at the cap (`finish: "length"`). */
export const tokenCapOutput = z.object({
  turns: z.number().int().min(0),
  cut: z.number().int().min(0),
  /** The cap of those turns (the largest recorded, forced final answers aside), null when none was recorded. */
  maxTokens: z.number().int().nullable(),
});
export type TokenCapOutput = z.infer<typeof tokenCapOutput>;

/** The eval warning: null unless more than TOKEN_CAP_WARN_SHARE of the run's turns were cut. */
export function evalTokenCapShare(t: TokenCapOutput | null | undefined): number | null {
  if (!t || t.turns === 0) return null;
  const share = t.cut / t.turns;
  return share > TOKEN_CAP_WARN_SHARE ? share : null;
}
