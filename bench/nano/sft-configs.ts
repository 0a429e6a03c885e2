// Trainer and generation throughput on this machine: `npx tsx bench/nano/sft-configs.ts`.
// A one-video suite (seed 3, 1 minute) in a temp dir; SFT on all its examples (main + sub-agents),
// batch 1 and 4, for the tiny test config and the default config; then greedy generation.
// Results: bench/nano/README.md ("SFT trainer throughput per model config and batch size").

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getThreads } from "@paravt/kernels";
import { readSuite, writeSuite } from "@paravt/suite";
import {
  defaultTokenizer,
  generate,
  mainAgentTurns,
  modelConfig,
  THINK_PREFIX,
  trainSft,
  type ModelConfigOverrides,
} from "@paravt/nano";

const tok = defaultTokenizer();
const root = await mkdtemp(join(tmpdir(), "nano-bench-"));
const { dir } = await writeSuite({
  seed: 3,
  count: 1,
  out: join(root, "suite"),
  config: { minMinutes: 1, maxMinutes: 1 },
});
const row = (await readSuite(dir)).oracle[0]!;
console.log(`threads ${getThreads()}`);
const configs: [string, ModelConfigOverrides, number][] = [
  ["tiny (C=32, L=1, H=2, T=640)", { contextLength: 640, width: 32, layers: 1, heads: 2 }, 20],
  ["default (C=256, L=6, H=8, T=2048)", {}, 6],
];
for (const [name, overrides, steps] of configs) {
  const config = modelConfig(tok, overrides);
  for (const batchSize of [1, 4]) {
    const r = await trainSft({ suiteDir: dir, modelConfig: config, steps: steps + 1, batchSize });
    const m = r.metrics.slice(1); // the first step decodes the frames
    const time = m.reduce((s, x) => s + x.stepTimeMs, 0) / 1000;
    const tokens = m.reduce((s, x) => s + x.tokens, 0);
    console.log(
      `${name} B=${batchSize}: ${(m.length / time).toFixed(2)} steps/s, ${Math.round(tokens / time)} tokens/s, ` +
        `${(tokens / m.length).toFixed(0)} tokens/step`,
    );
    if (batchSize === 1) {
      const t0 = performance.now();
      const g = await generate({
        model: r.model,
        config,
        frames: r.frames,
        turns: mainAgentTurns(row).slice(0, 1),
        forcedPrefix: THINK_PREFIX,
        maxTokens: 64,
        temperature: 1,
      });
      const s = (performance.now() - t0) / 1000;
      console.log(`${name} generate: prompt ${g.promptTokens} + ${g.ids.length} tokens in ${s.toFixed(2)} s`);
    }
  }
}
await rm(root, { recursive: true, force: true });
