// Cold-start SFT of ParaVT-nano on the needle suite's oracle rows, on the compute core.
//
// Data: `sftExamples` (main agent and sub-agents, loss only on assistant tokens, SPEC §3), frames
// from the suite's videos (frames.ts). Order: each epoch is a permutation of the examples drawn
// from (seed, epoch); a batch takes the next `batchSize` examples of that order (crossing into the
// next epoch when one ends) and is padded to its longest example. The data cursor (epoch,
// position) plus the step, the parameters and the AdamW moments are everything the next step
// depends on, and every checkpoint stores them: resuming continues the same loss curve bit for
// bit (the core is deterministic, see kernels/README.md). Curricula (curriculum.ts) change what a
// step trains on; without them a step is SPEC §3's plain SFT step.

import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { KernelModel } from "@paravt/kernels";
import { readSuite } from "@paravt/suite";
import type { OracleRow } from "@paravt/suite";
import {
  loadCheckpoint,
  saveCheckpoint,
  withStage,
  type LineageParent,
  type NewStage,
  type TrainingState,
} from "./checkpoint";
import { parameterLayout, type ModelConfig } from "./config";
import { createCoreModel, flattenParameters, toCoreTokens, unflattenParameters } from "./core";
import {
  argmaxHits,
  type SftBatchReport,
  type SftBatchTransform,
  type SftCurriculum,
  type SftCurriculumRun,
} from "./curriculum";
import { frameFeatures, videoFrameSource, type FrameSource } from "./frames";
import { initParameters, Mulberry32 } from "./init";
import type { TensorMap } from "./safetensors";
import { coreFrames, datasetHash, sftExamples, type SftExample, type SftOptions } from "./sequence";
import type { Tokenizer } from "./tokenizer";
import { defaultTokenizer } from "./vocabulary";

/**
 * Learning rate per step. `constant`: `lr` after an optional linear warm-up. `cosine`: linear
 * warm-up from lr/warmupSteps to `lr` over `warmupSteps` steps, then a half cosine from `lr` down
 * to `minLr` (default lr/10) at the last step of the run (`steps`).
 */
export type LrSchedule =
  | { kind: "constant"; lr: number; warmupSteps?: number }
  | { kind: "cosine"; lr: number; warmupSteps?: number; minLr?: number };

/** The learning rate of step `step` (1-based) of a run of `total` steps. */
export function learningRate(s: LrSchedule, step: number, total: number): number {
  const warm = s.warmupSteps ?? 0;
  if (step <= warm) return (s.lr * step) / warm;
  if (s.kind === "constant") return s.lr;
  const minLr = s.minLr ?? s.lr / 10;
  const span = Math.max(1, total - warm);
  const progress = Math.min(1, (step - warm) / span);
  return minLr + 0.5 * (s.lr - minLr) * (1 + Math.cos(Math.PI * progress));
}

export interface AdamWSettings {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Global gradient-norm clip; null = none. */
  gradClip: number | null;
}

/** SPEC §3's AdamW settings (its lr of 2e-6 is for an 8B model; the schedule sets ours). */
export const SPEC_ADAMW: AdamWSettings = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, gradClip: 1.0 };

export interface StepMetrics {
  /** Optimizer steps taken after this one (1-based). */
  step: number;
  /** Data cursor after the step. */
  epoch: number;
  position: number;
  /** Mask-weighted mean cross-entropy (nats per assistant token). */
  loss: number;
  /** Share of assistant tokens whose argmax prediction is the target (a curriculum's extra targets excluded). */
  tokenAccuracy: number;
  /** With `curricula`: what they report for this step, by name (curriculum.ts). */
  curricula?: Record<string, number>;
  /** Assistant (loss) tokens in the batch. */
  lossTokens: number;
  /** Non-padding positions the core processed (inputs of all sequences). */
  tokens: number;
  /** tokens / step time. */
  tokensPerSecond: number;
  /** Wall time of the step: batch assembly (frames included) + forward + backward + AdamW. */
  stepTimeMs: number;
  /** Of which: getting the batch's frames (decoding on first use, then the cache). */
  frameTimeMs: number;
  /** Global gradient norm before clipping, and the factor applied. */
  gradNorm: number;
  clipScale: number;
  lr: number;
  /** Examples of the batch, by id. */
  examples: string[];
}

export type TrainErrorCode = "BAD_OPTIONS" | "NO_DATA" | "RESUME_MISMATCH" | "NON_FINITE" | "DOES_NOT_FIT";

export class TrainError extends Error {
  override name = "TrainError";
  constructor(
    readonly code: TrainErrorCode,
    message: string,
    readonly details: { step?: number; tensor?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A lineage stage as a trainer's caller describes it: the trainer adds steps, minutes and the data hash. */
export type LineageStageInput = Omit<NewStage, "steps" | "minutes" | "data"> & {
  data: Omit<NewStage["data"], "dataHash">;
};

export interface TrainSftOptions {
  /** A suite directory (`writeSuite` output): oracle rows and videos. */
  suiteDir?: string;
  /** Or oracle rows (a plan) with `frames`. */
  suite?: { oracle: readonly OracleRow[] };
  /** Frame thumbnails; default: the suite directory's videos (`videoFrameSource`). */
  frames?: FrameSource;
  tokenizer?: Tokenizer;
  modelConfig: ModelConfig;
  /** Which examples (`sftExamples` options; contextLength is the model's T). */
  sft?: Omit<SftOptions, "tokenizer" | "contextLength">;
  /**
   * Curricula (curriculum.ts; research/curricula/ has those that trained the shipped default):
   * batch transforms and extra losses, applied in list order, each part of the dataset
   * fingerprint. None: SPEC §3's plain SFT.
   */
  curricula?: readonly SftCurriculum[];
  /** Keep only these examples (e.g. one, to overfit a fixed batch). */
  filter?: (e: SftExample, index: number) => boolean;
  /** Total optimizer steps of the run (a resumed run continues up to it). */
  steps: number;
  batchSize: number;
  /** Default: cosine from 1e-3 to 1e-4 with 5 % warm-up. */
  lr?: LrSchedule;
  /** Default SPEC_ADAMW. */
  adamw?: Partial<AdamWSettings>;
  /** Data order seed; default modelConfig.seed. */
  seed?: number;
  /** Start from these parameters instead of `initParameters(modelConfig)`. */
  initialParameters?: TensorMap;
  /** Save a checkpoint every n steps (and at the end) under outDir/step-NNNNNN; 0 = only at the end. */
  checkpointEvery?: number;
  outDir?: string;
  /** A checkpoint directory to continue from (same config, data, seed and AdamW settings). */
  resumeFrom?: string;
  onStep?: (m: StepMetrics) => void | Promise<void>;
  /**
   * Record this run as a stage of the checkpoint's `lineage` (checkpoint.ts `withStage`): the
   * parent's lineage (null: from scratch) plus `stage`, whose steps, minutes and data hash the
   * trainer fills in at each checkpoint. A resumed run passes the same parent and stage again,
   * so the stage is rewritten, never appended twice.
   */
  lineage?: { parent: LineageParent | null; stage: LineageStageInput };
  /** After each checkpoint is complete on disk (a worker commits it once its step is stored). */
  onCheckpoint?: (dir: string, step: number) => void | Promise<void>;
}

export interface TrainSftResult {
  model: KernelModel;
  config: ModelConfig;
  tokenizer: Tokenizer;
  examples: SftExample[];
  datasetHash: string;
  /** Metrics of the steps this call ran. */
  metrics: StepMetrics[];
  /** Checkpoint directories written, in order. */
  checkpoints: string[];
  frames: FrameSource;
}

/** The per-epoch seed of the data order (stored as the RNG state of a checkpoint). */
export function epochSeed(seed: number, epoch: number): number {
  let h = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(epoch + 1, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) >>> 0;
}

/** The example order of one epoch: a Fisher–Yates permutation from epochSeed(seed, epoch). */
export function epochOrder(n: number, seed: number, epoch: number): number[] {
  const rng = new Mulberry32(epochSeed(seed, epoch));
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Cursor arithmetic: the next `batchSize` example indices and the cursor after them. */
export function nextBatch(
  n: number,
  seed: number,
  cursor: { epoch: number; position: number },
  batchSize: number,
): { indices: number[]; epoch: number; position: number } {
  let { epoch, position } = cursor;
  let order = epochOrder(n, seed, epoch);
  const indices: number[] = [];
  while (indices.length < batchSize) {
    if (position >= n) {
      epoch++;
      position = 0;
      order = epochOrder(n, seed, epoch);
    }
    indices.push(order[position++]!);
  }
  return { indices, epoch, position };
}

function checkOptions(o: TrainSftOptions, adamw: AdamWSettings, lr: LrSchedule): void {
  const bad = (what: string) => {
    throw new TrainError("BAD_OPTIONS", `trainSft: ${what}`);
  };
  if (!Number.isInteger(o.steps) || o.steps < 1) bad(`steps must be a positive integer (got ${o.steps})`);
  if (!Number.isInteger(o.batchSize) || o.batchSize < 1)
    bad(`batchSize must be a positive integer (got ${o.batchSize})`);
  if (!Number.isFinite(lr.lr) || lr.lr <= 0 || lr.lr > 1e3) bad(`lr must be finite and in (0, 1e3] (got ${lr.lr})`);
  if (lr.warmupSteps !== undefined && (!Number.isInteger(lr.warmupSteps) || lr.warmupSteps < 0))
    bad(`lr.warmupSteps must be a non-negative integer (got ${lr.warmupSteps})`);
  if (lr.kind === "cosine" && lr.minLr !== undefined && !(lr.minLr >= 0 && lr.minLr <= lr.lr))
    bad(`lr.minLr must be in [0, lr] (got ${lr.minLr})`);
  if (!(adamw.beta1 >= 0 && adamw.beta1 < 1 && adamw.beta2 >= 0 && adamw.beta2 < 1))
    bad("AdamW betas must be in [0, 1)");
  if (!(adamw.eps > 0) || !(adamw.weightDecay >= 0)) bad("AdamW eps must be > 0 and weightDecay >= 0");
  if (adamw.gradClip !== null && !(adamw.gradClip > 0)) bad("AdamW gradClip must be > 0 or null");
  if (o.checkpointEvery !== undefined && (!Number.isInteger(o.checkpointEvery) || o.checkpointEvery < 0))
    bad(`checkpointEvery must be a non-negative integer (got ${o.checkpointEvery})`);
  if ((o.checkpointEvery ?? 0) > 0 && !o.outDir) bad("checkpointEvery needs outDir");
  if (!o.suiteDir && !(o.suite && o.frames)) bad("give suiteDir, or suite and frames");
}

/** The largest-magnitude tensor of the parameters, and the first tensor holding a non-finite value. */
function parameterDiagnosis(config: ModelConfig, flat: Float32Array): string {
  let offset = 0;
  let maxName = "";
  let max = -1;
  for (const p of parameterLayout(config)) {
    const n = p.shape.reduce((a, b) => a * b, 1);
    for (let i = offset; i < offset + n; i++) {
      const a = Math.abs(flat[i]!);
      if (!Number.isFinite(a)) return `parameter ${p.name}[${i - offset}] = ${flat[i]}`;
      if (a > max) [max, maxName] = [a, p.name];
    }
    offset += n;
  }
  return `all parameters finite; the largest |value| is ${max.toExponential(3)} in ${maxName}`;
}

const ckptName = (step: number) => `step-${String(step).padStart(6, "0")}`;

/** Trains (or continues training) the nano model on SFT examples of a suite. */
export async function trainSft(o: TrainSftOptions): Promise<TrainSftResult> {
  const tok = o.tokenizer ?? defaultTokenizer();
  const config = o.modelConfig;
  const adamw: AdamWSettings = { ...SPEC_ADAMW, ...o.adamw };
  const schedule: LrSchedule = o.lr ?? { kind: "cosine", lr: 1e-3, warmupSteps: Math.ceil(o.steps / 20) };
  checkOptions(o, adamw, schedule);
  if (config.vocabSize !== tok.size) {
    throw new TrainError(
      "BAD_OPTIONS",
      `trainSft: modelConfig.vocabSize ${config.vocabSize} is not the tokenizer's size ${tok.size}`,
    );
  }
  if (o.sft?.spellSubAgentTimes && !tok.hasTimePieces) {
    // Version 1 already spells every time: the option would change nothing, so it is a mistake.
    throw new TrainError(
      "BAD_OPTIONS",
      "trainSft: sft.spellSubAgentTimes needs a tokenizer with time pieces (version 2)",
    );
  }
  const seed = o.seed ?? config.seed;

  const source = o.suite ?? (await readSuite(o.suiteDir!));
  const frames = o.frames ?? videoFrameSource(o.suiteDir!, config.thumbnail);
  const all = sftExamples(source, { ...o.sft, tokenizer: tok, contextLength: config.contextLength }).examples;
  const examples = o.filter ? all.filter(o.filter) : all;
  if (examples.length === 0) throw new TrainError("NO_DATA", "trainSft: no SFT example left (check sft and filter)");
  // Without curricula the fingerprint is the examples' alone; each curriculum adds its part, in
  // order, so fingerprints of runs started before one existed stay valid.
  let dataHash = datasetHash(examples);
  for (const c of o.curricula ?? []) {
    dataHash = createHash("sha256").update(`${dataHash}\0${c.fingerprint}`).digest("hex");
  }
  const curricula: { name: string; run: SftCurriculumRun }[] = (o.curricula ?? []).map((c) => {
    try {
      return { name: c.name, run: c.start({ tokenizer: tok, config, examples, frames, seed }) };
    } catch (e) {
      throw new TrainError("BAD_OPTIONS", `trainSft: ${c.name}: ${(e as Error).message}`, {}, { cause: e });
    }
  });

  let step = 0;
  let cursor = { epoch: 0, position: 0 };
  let model: KernelModel;
  if (o.resumeFrom) {
    const ck = await loadCheckpoint(o.resumeFrom, { tokenizer: tok });
    const t = ck.training;
    const diffs: string[] = [];
    for (const k of Object.keys(config) as (keyof ModelConfig)[]) {
      if (JSON.stringify(ck.config[k]) !== JSON.stringify(config[k]))
        diffs.push(`model.${k} ${JSON.stringify(ck.config[k])} vs ${JSON.stringify(config[k])}`);
    }
    if (t.seed !== seed) diffs.push(`seed ${t.seed} vs ${seed}`);
    if (t.dataCursor.datasetHash !== dataHash)
      diffs.push(
        `dataset ${String(t.dataCursor.datasetHash).slice(0, 12)} vs ${dataHash.slice(0, 12)} (other suite, sft options or filter)`,
      );
    if (!t.optimizer || !ck.moments) diffs.push("the checkpoint has no optimizer state");
    else {
      for (const k of ["beta1", "beta2", "eps", "weightDecay", "gradClip"] as const) {
        if (t.optimizer[k] !== adamw[k]) diffs.push(`adamw.${k} ${t.optimizer[k]} vs ${adamw[k]}`);
      }
    }
    if (t.rng.algorithm !== Mulberry32.algorithm || t.rng.state[0] !== epochSeed(seed, t.dataCursor.epoch))
      diffs.push(`rng ${t.rng.algorithm} [${t.rng.state.join(", ")}] is not this trainer's epoch order`);
    if (t.step > o.steps) diffs.push(`the checkpoint is at step ${t.step}, past steps = ${o.steps}`);
    if (diffs.length > 0) {
      throw new TrainError("RESUME_MISMATCH", `cannot resume from ${o.resumeFrom}: ${diffs.join("; ")}`);
    }
    model = createCoreModel(config, ck.params);
    model.setOptimizerState({
      step: t.step,
      m: flattenParameters(config, ck.moments!.m),
      v: flattenParameters(config, ck.moments!.v),
    });
    step = t.step;
    cursor = { epoch: t.dataCursor.epoch, position: t.dataCursor.position };
  } else {
    model = createCoreModel(config, o.initialParameters ?? initParameters(config));
  }
  // The largest batch this run can draw (batchSize of the longest example) must fit where the
  // model lives: refused here, with both numbers, rather than out of memory part way.
  let longest = 1;
  for (const e of examples) longest = Math.max(longest, e.ids.length - 1);
  const memory = model.trainingMemory(o.batchSize, Math.min(longest, config.contextLength));
  if (memory.availableBytes !== null && memory.needBytes > memory.availableBytes) {
    const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
    throw new TrainError(
      "DOES_NOT_FIT",
      `trainSft: a batch of ${o.batchSize} x ${Math.min(longest, config.contextLength)} tokens needs ` +
        `${gib(memory.needBytes)} more on the ${memory.backend} core, and ${gib(memory.availableBytes)} of ` +
        `${gib(memory.totalBytes ?? memory.availableBytes)} are available: lower batchSize or the context length`,
    );
  }

  const checkpoints: string[] = [];
  const started = performance.now();
  const save = async (lr: number) => {
    const dir = join(o.outDir!, ckptName(step));
    const state = model.getOptimizerState();
    const training: TrainingState = {
      step,
      seed,
      rng: { algorithm: Mulberry32.algorithm, state: [epochSeed(seed, cursor.epoch)] },
      dataCursor: { epoch: cursor.epoch, position: cursor.position, datasetHash: dataHash },
      optimizer: { kind: "adamw", lr, ...adamw },
    };
    await saveCheckpoint(
      dir,
      {
        config,
        tokenizer: tok,
        params: unflattenParameters(config, model.getParameters()),
        training,
        moments: { m: unflattenParameters(config, state.m), v: unflattenParameters(config, state.v) },
        ...(o.lineage
          ? withStage(o.lineage.parent, {
              ...o.lineage.stage,
              data: { ...o.lineage.stage.data, dataHash },
              steps: step,
              // This call's training time (a resumed run counts from its resume).
              minutes: Math.round((performance.now() - started) / 600) / 100,
            })
          : {}),
      },
      { overwrite: true },
    );
    checkpoints.push(dir);
    await o.onCheckpoint?.(dir, step);
  };
  if (o.outDir) await mkdir(o.outDir, { recursive: true });

  const P = config.frameFeatures;
  const metrics: StepMetrics[] = [];
  let lr = learningRate(schedule, Math.max(1, step), o.steps);
  while (step < o.steps) {
    const t0 = performance.now();
    const next = nextBatch(examples.length, seed, cursor, o.batchSize);
    const batchEx = next.indices.map((i) => examples[i]!);
    // 1. The curricula's relabelling, in list order (curriculum.ts).
    const rowIds = batchEx.map((e) => e.ids);
    const trainFrom = batchEx.map(() => 0);
    const transforms: SftBatchTransform[] = [];
    for (const { run } of curricula) {
      const t = run.transform?.({ step: step + 1, seed, indices: next.indices, examples: batchEx, ids: [...rowIds] });
      if (!t) continue;
      t.relabel?.forEach((r, b) => {
        if (!r) return;
        rowIds[b] = r.ids;
        trainFrom[b] = Math.max(trainFrom[b]!, r.trainFrom);
      });
      transforms.push(t);
    }
    // 2. Packing: targets are the next ids, the mask the loss mask from each row's trainFrom on.
    const B = batchEx.length;
    const seqLen = Math.max(...batchEx.map((e) => e.ids.length)) - 1;
    const { tokens, targets, mask } = batchArrays(B, seqLen, tok.pad);
    const trained = new Uint8Array(B * seqLen);
    let inputs = 0;
    let lossTokens = 0;
    const tf = performance.now();
    const feats = await Promise.all(batchEx.map((e) => frameFeatures(frames, e.frames, config)));
    const frameTimeMs = performance.now() - tf;
    const frameArr = coreFrames(
      batchEx.map((e, b) => ({ frameIndex: e.frameIndex, length: e.ids.length - 1, features: feats[b]! })),
      P,
    );
    batchEx.forEach((e, b) => {
      const n = e.ids.length - 1;
      const ids = rowIds[b]!;
      inputs += n;
      tokens.set(toCoreTokens(ids.subarray(0, n), tok), b * seqLen);
      targets.set(ids.subarray(1), b * seqLen);
      for (let i = 0; i < n; i++) {
        const t = i + 1 >= trainFrom[b]! ? e.lossMask[i + 1]! : 0;
        mask[b * seqLen + i] = t;
        trained[b * seqLen + i] = t;
        lossTokens += t;
      }
    });
    // 3. The curricula's weights and extra targets on the packed arrays.
    const packed = { seqLen, ids: rowIds, examples: batchEx, indices: next.indices, targets, mask, trained };
    const reports = transforms.map((t) => t.packed?.(packed)).filter((r): r is SftBatchReport => !!r);
    const extraTargets = reports.flatMap((r) => r.extraTargets ?? []);
    const batch = { batchSize: B, seqLen, tokens, targets, mask, frames: frameArr };
    lr = learningRate(schedule, step + 1, o.steps);

    // 4. Forward (with logits when a curriculum counts argmax hits) and backward.
    const fwd = await model.forward(batch, {
      logits: extraTargets.length > 0 || reports.some((r) => r.accuracy),
    });
    const hits = (positions: readonly number[]) => argmaxHits(fwd.logits!, config.vocabSize, targets, positions);
    const extraCorrect = fwd.logits ? hits(extraTargets) : 0;
    const curriculumMetrics: Record<string, number> = {};
    for (const r of reports) Object.assign(curriculumMetrics, r.metrics, fwd.logits ? r.accuracy?.(hits) : {});
    const loss = fwd.loss ?? NaN;
    if (!Number.isFinite(loss)) {
      // Let the core name the gradient tensor (its step refuses and leaves the parameters as they are).
      let core = "";
      await model.backward();
      try {
        await model.step({ lr, ...coreAdamW(adamw) });
      } catch (e) {
        core = (e as Error).message;
      }
      const tensor = /non-finite gradient (\w+)\[/.exec(core)?.[1];
      throw new TrainError(
        "NON_FINITE",
        `training stopped at step ${step + 1}: the loss is ${loss} (batch ${batchEx.map((e) => e.id).join(", ")}, lr ${lr})` +
          `${core ? `; core: ${core}` : ""}; ${parameterDiagnosis(config, model.getParameters())}`,
        { step: step + 1, ...(tensor ? { tensor } : {}) },
      );
    }
    await model.backward();
    // 5. The curricula's extra losses, accumulated into the step's gradient.
    for (const { name, run } of curricula) {
      if (!run.extraLoss) continue;
      const extra = await run.extraLoss({ step: step + 1, seed, model });
      if (!Number.isFinite(extra.loss)) {
        throw new TrainError("NON_FINITE", `training stopped at step ${step + 1}: the ${name} loss is ${extra.loss}`, {
          step: step + 1,
        });
      }
      Object.assign(curriculumMetrics, extra.metrics);
    }
    let st;
    try {
      st = await model.step({ lr, ...coreAdamW(adamw) });
    } catch (e) {
      const msg = (e as Error).message;
      const tensor = /non-finite gradient (\w+)\[/.exec(msg)?.[1];
      throw new TrainError(
        "NON_FINITE",
        `training stopped at step ${step + 1} (loss ${loss}): ${msg}`,
        { step: step + 1, ...(tensor ? { tensor } : {}) },
        { cause: e },
      );
    }
    step++;
    cursor = { epoch: next.epoch, position: next.position };
    const stepTimeMs = performance.now() - t0;
    const m: StepMetrics = {
      step,
      epoch: cursor.epoch,
      position: cursor.position,
      loss,
      // Counted here: with mask weights the core's `tokens` is the sum of the weights, and the
      // core's `correct` includes the curricula's extra targets.
      tokenAccuracy: lossTokens > 0 ? (fwd.correct - extraCorrect) / lossTokens : 0,
      ...(curricula.length > 0 ? { curricula: curriculumMetrics } : {}),
      lossTokens,
      tokens: inputs,
      tokensPerSecond: inputs / (stepTimeMs / 1000),
      stepTimeMs,
      frameTimeMs,
      gradNorm: st.gradNorm,
      clipScale: st.clipScale,
      lr,
      examples: batchEx.map((e) => e.id),
    };
    metrics.push(m);
    await o.onStep?.(m);
    if (o.outDir && ((o.checkpointEvery ?? 0) > 0 ? step % o.checkpointEvery! === 0 : false)) await save(lr);
  }
  if (o.outDir && checkpoints.at(-1) !== join(o.outDir, ckptName(step))) await save(lr);
  return { model, config, tokenizer: tok, examples, datasetHash: dataHash, metrics, checkpoints, frames };
}

function coreAdamW(a: AdamWSettings) {
  return {
    beta1: a.beta1,
    beta2: a.beta2,
    eps: a.eps,
    weightDecay: a.weightDecay,
    maxGradNorm: a.gradClip ?? 0,
  };
}

/** The core's input arrays of a [B, seqLen] batch: tokens and targets padded, mask 0, no frames. */
function batchArrays(B: number, seqLen: number, pad: number) {
  return {
    tokens: new Int32Array(B * seqLen).fill(pad),
    targets: new Int32Array(B * seqLen).fill(pad),
    mask: new Float32Array(B * seqLen),
  };
}
