// How many tokens an assistant turn of a suite's oracle trajectories takes: what a model trained
// on them generates per turn, so what a generation cap (RL `maxNewTokens`, eval `maxTokens`) must
// allow. Counted exactly as SFT trains them: the loss-masked tokens of each assistant turn of
// `buildSequence` (the generated text plus the closing `<|im_end|>`, which generation counts
// toward its cap too). Main-agent turns are counted without the forced `<think>\n` prefix
// (vanilla GRPO: the model writes it itself), so the count bounds both presets.
import type { OracleRow } from "@paravt/suite";
import { buildSequence, mainAgentTurns, subAgentTurns } from "./sequence";
import type { Tokenizer } from "./tokenizer";
import { defaultTokenizer } from "./vocabulary";

export type TokenCountStats = {
  /** Assistant turns counted. */
  turns: number;
  /** Nearest-rank percentiles and the maximum, in tokens (0 when no turn). */
  p50: number;
  p99: number;
  max: number;
};

// Type aliases, not interfaces: the worker stores them as Prisma JSON (index-signature types).
export type TurnTokenStats = {
  /** The tokenizer that counted (`Tokenizer.version` / `.hash`). */
  tokenizer: { version: number; hash: string };
  /** Main-agent assistant turns of every oracle trajectory. */
  main: TokenCountStats;
  /** Sub-agent summaries (one per distinct crop sample). */
  sub: TokenCountStats;
};

/** Nearest-rank percentile (q in (0, 1]) of `sorted` (ascending); 0 when empty. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1]!;
}

export function tokenCountStats(counts: readonly number[]): TokenCountStats {
  const sorted = [...counts].sort((a, b) => a - b);
  return {
    turns: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
  };
}

/** Lengths of the runs of 1s of a loss mask: one run per assistant turn. */
function maskRuns(mask: Uint8Array): number[] {
  const runs: number[] = [];
  let n = 0;
  for (const m of mask) {
    if (m) n++;
    else if (n) {
      runs.push(n);
      n = 0;
    }
  }
  if (n) runs.push(n);
  return runs;
}

/** Tokens per generated turn: main-agent turns and sub-agent summaries, each with its `<|im_end|>`. */
export function assistantTurnTokens(
  source: { oracle: readonly OracleRow[] },
  opts: { tokenizer?: Tokenizer } = {},
): { main: number[]; sub: number[] } {
  const tok = opts.tokenizer ?? defaultTokenizer();
  const main: number[] = [];
  const sub: number[] = [];
  const seenSub = new Set<string>();
  for (const row of source.oracle) {
    main.push(...maskRuns(buildSequence(tok, mainAgentTurns(row, { thinkPrefix: false })).lossMask));
    for (const s of row.subAgents) {
      const key = JSON.stringify([s.video, s.timestamps, s.prompt, s.summary]);
      if (seenSub.has(key)) continue;
      seenSub.add(key);
      sub.push(...maskRuns(buildSequence(tok, subAgentTurns(s)).lossMask));
    }
  }
  return { main, sub };
}

/** p50 / p99 / max tokens of a suite's generated turns (main agent and sub-agents). */
export function turnTokenStats(
  source: { oracle: readonly OracleRow[] },
  opts: { tokenizer?: Tokenizer } = {},
): TurnTokenStats {
  const tok = opts.tokenizer ?? defaultTokenizer();
  const { main, sub } = assistantTurnTokens(source, { tokenizer: tok });
  return {
    tokenizer: { version: tok.version, hash: tok.hash },
    main: tokenCountStats(main),
    sub: tokenCountStats(sub),
  };
}
