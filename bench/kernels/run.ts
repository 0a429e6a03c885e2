// Benchmark of the CPU compute core (@paravt/kernels) through its Node API:
//   (a) training throughput: forward + backward tokens/s of the default small config with 1 thread
//       vs all threads (ratio = thread scaling), and one full step (+ clipped AdamW);
//   (b) generation: incremental decoding with the KV cache vs re-running a full forward over the
//       whole prefix for every new token (ratio = what the cache buys).
// Each figure is the best of --reps runs after one warm-up. No assertion: a measurement.
// Usage (from the repository root): npx tsx bench/kernels/run.ts [--reps 3] [--batch 4] [--decode 128]
// Results: bench/kernels/README.md; raw figures: bench/out/kernels-bench.json.
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { createModel, getThreads, setThreads, type KernelModel, type ModelConfig } from "../../kernels/src/index";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "../out");

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const REPS = arg("reps", 3);
const B = arg("batch", 4);
const DECODE = arg("decode", 128);
const PROMPT = 32;
const CONFIG: ModelConfig = { vocabSize: 512, context: 256, width: 128, layers: 4, heads: 4, frameDim: 48 };
const T = CONFIG.context;

function batch(seed: number) {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
  const tokens = Int32Array.from({ length: B * T }, () => next() % CONFIG.vocabSize);
  const targets = Int32Array.from({ length: B * T }, () => next() % CONFIG.vocabSize);
  return { batchSize: B, seqLen: T, tokens, targets };
}

async function best(reps: number, fn: () => Promise<void>): Promise<number> {
  await fn(); // warm-up: allocations, page faults
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

async function training(model: KernelModel, threads: number) {
  setThreads(threads);
  const b = batch(7);
  const fwdBwd = await best(REPS, async () => {
    await model.forward(b);
    await model.backward();
  });
  const step = await best(REPS, async () => {
    await model.trainStep(b, { lr: 1e-4, weightDecay: 0.1, maxGradNorm: 1 });
  });
  return { threads, fwdBwdMs: fwdBwd, tokensPerS: (B * T) / (fwdBwd / 1000), stepMs: step };
}

async function decoding(model: KernelModel) {
  const prompt = Int32Array.from({ length: PROMPT }, (_, i) => (i * 37) % CONFIG.vocabSize);
  const argmax = (x: Float32Array) => x.reduce((bi, v, i, a) => (v > a[bi]! ? i : bi), 0);
  const cached = await best(REPS, async () => {
    const dec = model.createDecoder(1);
    let logits = await dec.step({ tokens: prompt });
    for (let i = 0; i < DECODE; i++) logits = await dec.step({ tokens: Int32Array.of(argmax(logits)) });
  });
  const full = await best(Math.min(REPS, 2), async () => {
    const seq = Array.from(prompt);
    for (let i = 0; i <= DECODE; i++) {
      const n = seq.length;
      const r = await model.forward({ batchSize: 1, seqLen: n, tokens: Int32Array.from(seq) }, { logits: true });
      seq.push(argmax(r.logits!.subarray((n - 1) * CONFIG.vocabSize)));
    }
  });
  const tokens = DECODE + 1;
  return {
    cachedMs: cached,
    fullMs: full,
    cachedTokensPerS: tokens / (cached / 1000),
    fullTokensPerS: tokens / (full / 1000),
    ratio: full / cached,
  };
}

async function main() {
  const model = createModel(CONFIG, { seed: 1 });
  const all = availableParallelism();
  const before = getThreads();
  console.log(`config ${JSON.stringify(CONFIG)}, ${model.numParams} params, batch ${B}x${T}`);
  console.log(
    `machine: ${cpus()[0]?.model} x${all}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  const one = await training(model, 1);
  const many = await training(model, all);
  setThreads(all);
  const decode = await decoding(model);
  setThreads(before);
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    cores: all,
    loadavg: loadavg(),
    config: CONFIG,
    batch: [B, T],
    params: model.numParams,
    training: { one, many, scaling: one.fwdBwdMs / many.fwdBwdMs },
    decode: { prompt: PROMPT, generated: DECODE + 1, threads: all, ...decode },
  };
  const f = (x: number, d = 0) => x.toFixed(d);
  console.log(
    `forward+backward, 1 thread:   ${f(one.fwdBwdMs)} ms/batch, ${f(one.tokensPerS)} tokens/s (step incl. AdamW ${f(one.stepMs)} ms)`,
  );
  console.log(
    `forward+backward, ${all} threads:  ${f(many.fwdBwdMs)} ms/batch, ${f(many.tokensPerS)} tokens/s (step incl. AdamW ${f(many.stepMs)} ms)`,
  );
  console.log(`thread scaling: ${f(result.training.scaling, 2)}x`);
  console.log(`decode ${DECODE + 1} tokens after a ${PROMPT}-token prompt, batch 1, ${all} threads:`);
  console.log(`  KV cache:         ${f(decode.cachedMs)} ms, ${f(decode.cachedTokensPerS)} tokens/s`);
  console.log(`  full re-forward:  ${f(decode.fullMs)} ms, ${f(decode.fullTokensPerS)} tokens/s`);
  console.log(`  ratio: ${f(decode.ratio, 1)}x`);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, "kernels-bench.json"), JSON.stringify(result, null, 2));
}

await main();
