// Generation prompts of a rendered needle suite, for the ONNX tests and the benchmark: every point
// where the main agent writes (its first turn and each turn after tool responses, with the SPEC
// §1.7 think prefix) and every sub-agent's first turn (SPEC §1.4), with the suite's real frames.

import { readSuite, writeSuite, type OracleRow } from "@paravt/suite";
import type { ModelConfig } from "../config";
import { videoFrameSource, type FrameSource } from "../frames";
import { mainAgentTurns, subAgentTurns, THINK_PREFIX, type EpisodeTurn } from "../sequence";

export interface SuitePrompt {
  id: string;
  turns: EpisodeTurn[];
  forcedPrefix?: string;
}

/** The prompts of `rows`: main-agent turns first (row by row), then sub-agents. */
export function suitePrompts(rows: readonly OracleRow[]): SuitePrompt[] {
  const main: SuitePrompt[] = [];
  const sub: SuitePrompt[] = [];
  for (const row of rows) {
    const turns = mainAgentTurns(row);
    turns.forEach((t, j) => {
      if (t.role === "assistant")
        main.push({ id: `${row.id}-t${j}`, turns: turns.slice(0, j), forcedPrefix: THINK_PREFIX });
    });
    for (const s of row.subAgents) {
      sub.push({ id: `${row.id}-r${s.round}c${s.call}`, turns: subAgentTurns(s).slice(0, 1) });
    }
  }
  return [...main, ...sub];
}

/** Renders a small suite (1-minute videos) under `root` and returns its rows and a frame source. */
export async function renderSuite(
  root: string,
  thumbnail: ModelConfig["thumbnail"],
  opts: { seed?: number; count?: number; minutes?: number } = {},
): Promise<{ dir: string; oracle: OracleRow[]; frames: FrameSource }> {
  const minutes = opts.minutes ?? 1;
  const { dir } = await writeSuite({
    seed: opts.seed ?? 3,
    count: opts.count ?? 1,
    out: root,
    config: { minMinutes: minutes, maxMinutes: minutes },
  });
  const suite = await readSuite(dir);
  return { dir, oracle: suite.oracle, frames: videoFrameSource(dir, thumbnail) };
}
