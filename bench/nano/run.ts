// ParaVT-nano throughput on this machine, for two model configs: the committed default checkpoint
// (since 2026-11-25 `ans2`: small preset C 128, L 4, H 4, "rgb+foreground" frames, 2.12 M parameters)
// and the default model config (`modelConfig(defaultTokenizer())`: C 256,
// L 6, H 8, 6.4 M parameters, random init). For each:
//   (a) training: forward + backward + AdamW (`trainStep`) tokens/s on the compute core;
//   (b) prefill latency (time to first token) of a ~600-token main-agent prompt with 64 frames:
//       generate() on the core vs OrtNano (onnxruntime in a worker thread);
//   (c) per-token decode latency / sampling tokens/s (τ 1, top-p 0.95), batch 1: core decoder vs ORT, as
//       (time of an N-token generation - time of a 1-token one) / (N - 1), both from the same prompt;
//   (d) sub-agent generation, 8 real sub-agent prompts: sequential vs one generateBatch on ORT (and
//       sequential on the core as the baseline of the current engine).
// Each figure is the best of --reps runs after one warm-up. No assertion: a measurement.
// Usage (from the repository root): npx tsx bench/nano/run.ts [--reps 5] [--decode 128] [--subagents 8]
// Results: bench/nano/README.md; raw figures: bench/out/nano-bench.json.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { getThreads, setThreads, type KernelModel } from "@paravt/kernels";
import {
  buildPrompt,
  createCoreModel,
  defaultTokenizer,
  frameFeatures,
  generate,
  initParameters,
  loadCheckpoint,
  modelConfig,
  OrtNano,
  parameterCount,
  toCoreTokens,
  type FrameSource,
  type ModelConfig,
  type OrtGenerateItem,
  type TensorMap,
  type Tokenizer,
} from "../../packages/nano/src/index";
import { renderSuite, suitePrompts } from "../../packages/nano/src/onnx/suite-prompts";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "../out");

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const REPS = arg("reps", 5);
const DECODE = arg("decode", 128);
const SUBAGENTS = arg("subagents", 8);
const TRAIN_BATCH = 2;
const TRAIN_LEN = 512;

async function best(reps: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up: allocations, frame decoding, page faults
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

/** forward + backward + AdamW tokens/s of a [TRAIN_BATCH, TRAIN_LEN] batch cut from the prompt. */
async function training(model: KernelModel, config: ModelConfig, ids: Int32Array, feats: Float32Array) {
  const n = TRAIN_BATCH * TRAIN_LEN;
  const P = config.frameFeatures;
  const tokens = new Int32Array(n);
  const targets = new Int32Array(n);
  const mask = new Float32Array(n);
  const rows: Float32Array[] = []; // the core's frames: one row per slot, in position order
  for (let i = 0; i < n; i++) {
    const j = i % TRAIN_LEN;
    tokens[i] = ids[j]!;
    const next = ids[j + 1] ?? -1;
    targets[i] = Math.max(next, 0); // a frame slot (-1) or the end is no target: mask 0
    mask[i] = next >= 0 ? 1 : 0;
    if (tokens[i] === -1) rows.push(feats.subarray(j * P, (j + 1) * P));
  }
  const frames = new Float32Array(rows.length * P);
  rows.forEach((r, k) => frames.set(r, k * P));
  const batch = { batchSize: TRAIN_BATCH, seqLen: TRAIN_LEN, tokens, targets, mask, frames };
  const ms = await best(REPS, () => model.trainStep(batch, { lr: 1e-5, weightDecay: 0.01, maxGradNorm: 1 }));
  return { ms, tokensPerS: n / (ms / 1000) };
}

interface Engine {
  name: string;
  one(item: OrtGenerateItem): Promise<{ ids: number[] }>;
}

/** Prefill (1-token generation) and per-token decode ((N-token - 1-token) / (N - 1)). */
async function latency(engine: Engine, item: OrtGenerateItem) {
  const prefillMs = await best(REPS, () => engine.one({ ...item, maxTokens: 1 }));
  let generated = 0;
  const longMs = await best(REPS, async () => {
    generated = (await engine.one({ ...item, maxTokens: DECODE })).ids.length;
  });
  const perTokenMs = (longMs - prefillMs) / Math.max(1, generated - 1);
  return { prefillMs, generated, perTokenMs, decodeTokensPerS: 1000 / perTokenMs };
}

async function subAgents(engine: Engine, ort: OrtNano, items: OrtGenerateItem[]) {
  let tokens = 0;
  const sequentialMs = await best(REPS, async () => {
    tokens = 0;
    for (const it of items) tokens += (await engine.one(it)).ids.length;
  });
  let batchTokens = 0;
  const batchedMs = await best(REPS, async () => {
    batchTokens = (await ort.generateBatch(items)).reduce((s, g) => s + g.ids.length, 0);
  });
  return { items: items.length, tokens, sequentialMs, batchedMs, batchTokens, ratio: sequentialMs / batchedMs };
}

async function benchConfig(
  label: string,
  config: ModelConfig,
  tok: Tokenizer,
  params: TensorMap,
  frames: FrameSource,
  prompt: OrtGenerateItem,
  subs: OrtGenerateItem[],
) {
  const threads = availableParallelism();
  setThreads(threads);
  const model = createCoreModel(config, params);
  const seq = buildPrompt(tok, prompt.turns, { forcedPrefix: prompt.forcedPrefix });
  const feats = await frameFeatures(frames, seq.frames, config);
  const dense = new Float32Array(seq.ids.length * config.frameFeatures);
  seq.frameIndex.forEach((f, i) => f >= 0 && dense.set(feats[f]!, i * config.frameFeatures));
  console.log(
    `\n== ${label}: ${parameterCount(config)} parameters; prompt ${seq.ids.length} tokens, ${seq.frames.length} frames`,
  );

  // a model of its own: AdamW steps change the parameters the generation figures need
  const train = await training(createCoreModel(config, params), config, toCoreTokens(seq.ids, tok), dense);
  console.log(
    `train step (core, ${threads} threads, ${TRAIN_BATCH}x${TRAIN_LEN}): ${train.ms.toFixed(0)} ms, ${train.tokensPerS.toFixed(0)} tokens/s`,
  );

  const core: Engine = { name: "core", one: (it) => generate({ model, config, tokenizer: tok, ...it }) };
  const result: Record<string, unknown> = {
    label,
    params: parameterCount(config),
    promptTokens: seq.ids.length,
    frames: seq.frames.length,
    train,
  };
  // the two engines must do the same work: same sampled ids from the same seed
  const [a, b] = [
    await core.one(prompt),
    await OrtNano.load({ config, tokenizer: tok, params }).then(async (o) => {
      try {
        return await o.generate(prompt);
      } finally {
        await o.close();
      }
    }),
  ];
  if (a.ids.join() !== b.ids.join()) throw new Error(`${label}: core and ORT sampled different tokens`);
  const engines: Record<string, unknown> = { core: await latency(core, prompt) };
  for (const intra of [1, 2].filter((n) => n <= threads)) {
    const ort = await OrtNano.load({ config, tokenizer: tok, params }, { intraOpThreads: intra });
    try {
      const e: Engine = { name: `ort-${intra}`, one: (it) => ort.generate(it) };
      engines[e.name] = await latency(e, prompt);
      if (intra === Math.min(2, threads)) result.subAgents = await subAgents(e, ort, subs);
    } finally {
      await ort.close();
    }
  }
  result.latency = engines;
  result.subAgentsCore = {
    sequentialMs: await best(REPS, async () => {
      for (const it of subs) await core.one(it);
    }),
  };
  type Latency = Awaited<ReturnType<typeof latency>>;
  const lat = engines as Record<string, Latency>;
  for (const [name, l] of Object.entries(lat)) {
    const vs =
      name === "core"
        ? ""
        : ` (core/ORT: prefill ${(lat.core!.prefillMs / l.prefillMs).toFixed(2)}x, decode ${(lat.core!.perTokenMs / l.perTokenMs).toFixed(2)}x)`;
    console.log(
      `${name.padEnd(6)} prefill ${l.prefillMs.toFixed(1)} ms; decode ${l.perTokenMs.toFixed(2)} ms/token = ${l.decodeTokensPerS.toFixed(0)} tokens/s (${l.generated} sampled)${vs}`,
    );
  }
  const s = result.subAgents as Awaited<ReturnType<typeof subAgents>>;
  const sc = result.subAgentsCore as { sequentialMs: number };
  console.log(
    `sub-agents x${s.items}: ORT sequential ${s.sequentialMs.toFixed(0)} ms (${s.tokens} tokens), ORT batched ${s.batchedMs.toFixed(0)} ms (${s.batchTokens} tokens): ${s.ratio.toFixed(2)}x; core sequential ${sc.sequentialMs.toFixed(0)} ms`,
  );
  return result;
}

async function main() {
  const threadsBefore = getThreads();
  const root = await mkdtemp(join(tmpdir(), "nano-bench-"));
  try {
    const tok = defaultTokenizer();
    const ckpt = await loadCheckpoint(resolve(here, "../../packages/nano/checkpoints/default"), { moments: false });
    // 10-minute videos: the K = 64 first prompt is ~600 tokens (timestamps like <563.4 seconds>)
    const suite = await renderSuite(join(root, "suite"), ckpt.config.thumbnail, { seed: 1, count: 1, minutes: 10 });
    const prompts = suitePrompts(suite.oracle);
    const main = prompts.find((p) => p.id.includes("-k64-") && p.id.endsWith("-t1"))!;
    const subs = prompts.filter((p) => !p.forcedPrefix).slice(0, SUBAGENTS);
    const item = (p: (typeof prompts)[number], maxTokens: number): OrtGenerateItem => ({
      frames: suite.frames,
      turns: p.turns,
      forcedPrefix: p.forcedPrefix,
      maxTokens,
    });
    console.log(
      `machine: ${cpus()[0]?.model} x${availableParallelism()}, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}; node ${process.version}`,
    );
    const big = modelConfig(tok);
    const results = [
      await benchConfig(
        `default checkpoint (${ckpt.config.width}x${ckpt.config.layers}, trained)`,
        ckpt.config,
        ckpt.tokenizer, // version 2 since 2026-11-26: its own vocabulary (time tokens)
        ckpt.params,
        suite.frames,
        { ...item(main, DECODE), temperature: 1, topP: 0.95, seed: 7 },
        subs.map((p) => item(p, 64)),
      ),
      await benchConfig(
        "default model config (random init)",
        big,
        tok,
        initParameters(big),
        suite.frames,
        { ...item(main, DECODE), temperature: 1, topP: 0.95, seed: 7 },
        subs.map((p) => item(p, 64)),
      ),
    ];
    await mkdir(outDir, { recursive: true });
    await writeFile(
      join(outDir, "nano-bench.json"),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpu: cpus()[0]?.model,
          cores: availableParallelism(),
          loadavg: loadavg(),
          results,
        },
        null,
        2,
      ),
    );
  } finally {
    setThreads(threadsBefore);
    await rm(root, { recursive: true, force: true });
  }
}

await main();
