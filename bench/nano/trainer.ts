// SFT training throughput of the two trainers on the same data, batch and weights, in one run:
// the compute core (`trainSft`, C++ on the CPU, the reference) vs the PyTorch mirror
// (research/torch/train_sft.py) on the same CPU. On a GPU machine only the PyTorch side can
// run (no Node.js there); its figure comes from the training logs (README).
//
// Both start from the committed perception checkpoint (tokenizer version 1, the 2.12 M
// "rgb+foreground" model the default grew from; the default itself has version 2's time tokens,
// which the core's trainSft and a plain train_sft.py run do not take) and train the export of one small suite
// (research/torch/gpu-export.ts: the default recipe's examples, frame targets and palette emphasis), no
// permutation, batch --batch, the same batches in the same order on both sides (the core's --steps
// batches after one epoch, by when every frame is decoded, as the export decoded them for PyTorch
// before its clock started; train_sft.py --batches); tokens/s counts input tokens (padding
// excluded) over steps 3..--steps of those batches on both sides. Needs python3 with numpy and torch (a CPU wheel:
// `pip install /opt/wheels/torch-*.whl` on the development machines). No assertion: a measurement.
//
// Usage (from the repository root): npx tsx bench/nano/trainer.ts [--batch 8] [--steps 12]
// Results: bench/nano/README.md "Trainers"; raw figures: bench/out/nano-trainer.json.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { readSuite, writeSuite } from "@paravt/suite";
import { getThreads } from "@paravt/kernels";
import { defaultTokenizer, loadCheckpoint, trainSft } from "../../packages/nano/src/index";
import { exportGpuDataset, gpuRecipe } from "../../research/torch/gpu-export";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const out = join(repo, "bench/out/nano-trainer");
const init = join(repo, "packages/nano/checkpoints/perception");
const { values } = parseArgs({
  options: { batch: { type: "string", default: "8" }, steps: { type: "string", default: "12" } },
});
const batch = Number(values.batch);
const steps = Number(values.steps);

await mkdir(out, { recursive: true });
const suiteDir = (await writeSuite({ seed: 5, count: 6, out: join(out, "suite") })).dir;
const data = join(out, "data");
const exported = await exportGpuDataset({ suiteDir, init, out: data });
console.log(`export: ${exported.examples} examples, ${exported.tokens} tokens, ${exported.frames} frames`);

// The core: the export's examples, frame targets and emphasis (gpuRecipe, as exportGpuDataset).
const tokenizer = defaultTokenizer();
const ckpt = await loadCheckpoint(init, { tokenizer, moments: false });
const suite = await readSuite(suiteDir);
const { sft, curricula } = gpuRecipe(suite.videos, tokenizer);
// The export decoded every frame before PyTorch's timed steps; the core decodes a frame the first
// time a batch uses it. So the core trains one epoch first (every frame decoded and cached) and
// then trains --steps more batches, which PyTorch trains too (below).
const epoch = Math.ceil(exported.examples / batch);
const core = await trainSft({
  suite,
  tokenizer,
  modelConfig: ckpt.config,
  initialParameters: ckpt.params,
  sft,
  curricula,
  suiteDir,
  steps: epoch + steps,
  batchSize: batch,
  lr: { kind: "constant", lr: 1e-4 },
  seed: 9,
});
// Both trainers are timed on the same batches: PyTorch trains the core's batches after the epoch
// in the same order (train_sft.py --batches) and counts its steps 3..--steps; the core's figure
// counts the same batches (its steps epoch+3..epoch+--steps), so padding and lengths are equal.
const listed = core.metrics.slice(epoch);
const batchesFile = join(out, "batches.json");
await writeFile(batchesFile, JSON.stringify(listed.map((m) => m.examples)));
const timed = listed.slice(2);
const frameMs = timed.reduce((s, m) => s + m.frameTimeMs, 0) / timed.length;
const coreTps = timed.reduce((s, m) => s + m.tokens, 0) / (timed.reduce((s, m) => s + m.stepTimeMs, 0) / 1000);
console.log(
  `core: ${coreTps.toFixed(0)} tokens/s (${getThreads()} threads; steps ${epoch + 3}-${epoch + steps}, ` +
    `after one epoch that decoded every frame; frame features ${frameMs.toFixed(0)} ms a step)`,
);

const { stdout } = await promisify(execFile)(
  "python3",
  [
    "train_sft.py",
    ...["--data", data, "--init", join(init, "model.safetensors"), "--out", join(out, "torch")],
    ...["--steps", String(steps), "--batch", String(batch), "--lr", "1e-4", "--warmup", "1"],
    ...["--permute-palette", "0", "--permute-digits", "0", "--snapshots", "", "--batches", batchesFile],
  ],
  { cwd: join(repo, "research/torch"), maxBuffer: 1 << 24 },
);
const torchTps = Number(/throughput: (\d+) tokens\/s/.exec(stdout)?.[1]);
const parity = /parity: .*/.exec(stdout)?.[0] ?? "";
console.log(`torch (CPU): ${torchTps} tokens/s; ${parity}`);
const result = {
  date: new Date().toISOString(),
  cpus: availableParallelism(),
  load: loadavg(),
  batch,
  steps,
  coreThreads: getThreads(),
  coreTokensPerSecond: coreTps,
  coreTimedSteps: [epoch + 3, epoch + steps],
  sameBatches: true,
  coreFrameFeaturesMsPerStep: frameMs,
  torchCpuTokensPerSecond: torchTps,
  ratio: torchTps / coreTps,
  parity,
};
console.log(`torch / core: ${result.ratio.toFixed(2)}x`);
await writeFile(join(repo, "bench/out/nano-trainer.json"), JSON.stringify(result, null, 2));
