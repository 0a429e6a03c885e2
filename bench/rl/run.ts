// PARA-GRPO step time on CPU (issue 9, bench): one RL step = group rollouts through the episode
// runner on the C++ core (sampling) + the policy update (current, reference and loss passes).
// Measures the split rollout vs update for the committed default checkpoint, PARA-GRPO vs vanilla
// GRPO in the same run (the recipes differ in the think prefix, answer suffix and gating, so the
// rollouts differ in K and length).
//   npx tsx bench/rl/run.ts [--steps 3] [--group 8] [--max-new 64]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { presetConfig, trainRl, type RlPresetName, type RlStepMetrics } from "@paravt/rl";
import { writeSuite } from "@paravt/suite";

const { values } = parseArgs({
  options: {
    steps: { type: "string", default: "3" },
    group: { type: "string", default: "8" },
    "max-new": { type: "string", default: "64" },
  },
});
const CHECKPOINT = fileURLToPath(new URL("../../packages/nano/checkpoints/default", import.meta.url));
const root = await mkdtemp(join(tmpdir(), "bench-rl-"));
try {
  // Held out from SFT (seed 101), 3 videos of 1–2 minutes.
  const { dir } = await writeSuite({
    seed: 101,
    count: 3,
    out: join(root, "suite"),
    config: { minMinutes: 1, maxMinutes: 2 },
  });
  const rows: string[] = [];
  const mean = (ms: RlStepMetrics[], f: (m: RlStepMetrics) => number) => ms.reduce((s, m) => s + f(m), 0) / ms.length;
  const results: Record<string, { rollout: number; update: number; step: number }> = {};
  for (const preset of ["para-grpo", "vanilla-grpo"] as RlPresetName[]) {
    const config = presetConfig(preset, {
      steps: Number(values.steps),
      groupSize: Number(values.group),
      promptsPerStep: 1,
      maxNewTokens: Number(values["max-new"]),
      checkpointEvery: 0,
      validateEvery: 0,
      seed: 1,
    });
    const r = await trainRl({ suiteDir: dir, config, initialCheckpoint: CHECKPOINT });
    const m = r.metrics;
    const rollout = mean(m, (x) => x.rolloutMs);
    const update = mean(m, (x) => x.updateMs);
    const step = mean(m, (x) => x.stepMs);
    results[preset] = { rollout, update, step };
    rows.push(
      `| ${preset} | ${m.length} | ${rollout.toFixed(0)} | ${update.toFixed(0)} | ${step.toFixed(0)} | ${(update / rollout).toFixed(2)} | ${mean(m, (x) => x.rolloutTokensPerSecond).toFixed(0)} | ${mean(m, (x) => x.updateTokensPerSecond).toFixed(0)} |`,
    );
  }
  console.log(`group ${values.group}, 1 prompt per step, max ${values["max-new"]} new tokens, default checkpoint\n`);
  console.log(
    "| recipe | steps | rollout ms | update ms | step ms | update / rollout | rollout tok/s | update tok/s |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(r);
  const p = results["para-grpo"]!;
  const v = results["vanilla-grpo"]!;
  console.log(`\nstep time PARA-GRPO / vanilla: ${(p.step / v.step).toFixed(2)}x`);
} finally {
  await rm(root, { recursive: true, force: true });
}
