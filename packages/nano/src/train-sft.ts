// Cold-start SFT of ParaVT-nano on the needle suite's oracle rows, on the compute core.
//
// Data: `sftExamples` (main agent and sub-agents, loss only on assistant tokens, SPEC §3), frames
// from the suite's videos (frames.ts). Order: each epoch is a permutation of the examples drawn
// from (seed, epoch); a batch takes the next `batchSize` examples of that order (crossing into the
// next epoch when one ends) and is padded to its longest example. The data cursor (epoch,
// position) plus the step, the parameters and the AdamW moments are everything the next step
// depends on, and every checkpoint stores them: resuming continues the same loss curve bit for
// bit (the core is deterministic, see kernels/README.md).

import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { KernelModel } from "@paravt/kernels";
import { readSuite } from "@paravt/suite";
import type { OracleRow } from "@paravt/suite";
import { loadCheckpoint, saveCheckpoint, type TrainingState } from "./checkpoint";
import { parameterLayout, type ModelConfig } from "./config";
import { createCoreModel, flattenParameters, toCoreTokens, unflattenParameters } from "./core";
import type { FrameTargets } from "./frame-targets";
import { frameFeatures, videoFrameSource, type FrameSource } from "./frames";
import { initParameters, Mulberry32 } from "./init";
import type { TensorMap } from "./safetensors";
import { emphasisWeights, lastTurnStart, type LossEmphasis } from "./emphasis";
import { digitIds, digitPermutable, drawDigitPermutation, permuteDigitIds } from "./digit-permutation";
import { drawPermutation, palettePieces, permutable, permuteIds } from "./palette-permutation";
import {
  buildSequence,
  datasetHash,
  frameParts,
  sftExamples,
  type FrameRef,
  type SftExample,
  type SftOptions,
} from "./sequence";
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
  /** Share of assistant tokens whose argmax prediction is the target. */
  tokenAccuracy: number;
  /** With `frameTargets`: share of those targets the argmax predicts, and how many there were. */
  frameTargetAccuracy?: number;
  frameTargetCount?: number;
  /** With `frameDrill`: the drill batch's loss and the share of its targets the argmax predicts. */
  drillLoss?: number;
  drillAccuracy?: number;
  /**
   * With `permutePalette`: how many examples of the batch were permuted, and the share of the
   * palette words of their answer turns the argmax predicts (chance ~1/6: copying is the only way).
   */
  permuted?: number;
  permutedPaletteAccuracy?: number;
  permutedPaletteCount?: number;
  /**
   * With `permuteDigits`: how many examples of the batch had their digits permuted, and the share
   * of the digits of those answer turns the argmax predicts (the copy; chance ~1/10).
   */
  digitPermuted?: number;
  permutedDigitAccuracy?: number;
  permutedDigitCount?: number;
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

export type TrainErrorCode = "BAD_OPTIONS" | "NO_DATA" | "RESUME_MISMATCH" | "NON_FINITE";

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
   * Weigh the loss of these target tokens more (emphasis.ts: the palette words); the loss is then
   * the weighted mean. Part of the dataset fingerprint, so a resume must use the same emphasis.
   */
  emphasis?: LossEmphasis;
  /**
   * Weigh the loss of each main-agent trajectory's last turn (its answer, `lastTurnStart`) this
   * much more (multiplying any token emphasis); sub-agent samples and earlier turns weigh 1.
   * Part of the dataset fingerprint.
   */
  answerEmphasis?: number;
  /**
   * Auxiliary perception targets at frame slots (frame-targets.ts): prompt positions only, part
   * of the fingerprint. The loss is then the weighted mean over assistant tokens and these.
   */
  frameTargets?: FrameTargets;
  /**
   * Frame drill (needs `frameTargets`): each step also runs `sequences` sequences of
   * `framesPerSequence` frames drawn at random from all the examples' frames (a timestamp and a
   * slot each, no text), whose only targets are the frame targets; its gradient (of its own mean
   * loss) is added to the step's. Why: a sub-agent sample shows the same two or three events in
   * all its frames, so the frame targets of a batch are few distinct examples; random frames are
   * many. Part of the fingerprint.
   */
  frameDrill?: { sequences: number; framesPerSequence: number };
  /**
   * Palette permutation (palette-permutation.ts), a probability in (0, 1]: each main-agent example
   * of a batch whose answer turn's palette words are all named in its question or tool responses
   * is, with this probability, re-labelled by a random bijection of the shape colours, shapes and
   * scene colours (drawn from the seed and the step, so a resume draws the same), and then trains
   * its answer turn only. Teaches the answer to copy from the text. Part of the fingerprint.
   */
  permutePalette?: number;
  /**
   * Digit permutation (digit-permutation.ts), a probability in (0, 1]: each main-agent example of a
   * batch whose answer turn's digit runs all appear in its untrained text is, with this
   * probability, re-labelled by a random bijection of the ten digits (from the seed and the step)
   * and then trains its answer turn only: the answer's numbers are predictable only by copying.
   * Independent of `permutePalette` (an example may get both). Part of the fingerprint.
   */
  permuteDigits?: number;
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
  const weightOf = emphasisWeights(o.emphasis, tok.size);
  // Without emphasis and frame targets the fingerprint is the examples' alone (as in checkpoints
  // written before them); each option adds its own part, so older fingerprints stay valid.
  let dataHash = datasetHash(examples);
  if (o.emphasis) {
    const ids = [...o.emphasis.tokenIds].sort((a, b) => a - b).join(",");
    dataHash = createHash("sha256").update(`${dataHash}\0emphasis\0${o.emphasis.weight}\0${ids}`).digest("hex");
  }
  const answerWeight = o.answerEmphasis ?? 1;
  if (o.answerEmphasis !== undefined) {
    if (!(Number.isFinite(answerWeight) && answerWeight > 0))
      throw new TrainError("BAD_OPTIONS", `trainSft: answerEmphasis must be > 0 (got ${o.answerEmphasis})`);
    dataHash = createHash("sha256").update(`${dataHash}\0answer-emphasis\0${answerWeight}`).digest("hex");
  }
  // Sequence positions from which a target is in the main agent's answer turn (none for sub-agents).
  const answerFrom = examples.map((e) =>
    e.kind === "main" && answerWeight !== 1 ? lastTurnStart(e.lossMask) : Number.POSITIVE_INFINITY,
  );
  if (o.frameTargets) {
    const { name, weight } = o.frameTargets;
    if (!(Number.isFinite(weight) && weight > 0))
      throw new TrainError("BAD_OPTIONS", `trainSft: frameTargets.weight must be > 0 (got ${weight})`);
    dataHash = createHash("sha256").update(`${dataHash}\0frame-targets\0${name}\0${weight}`).digest("hex");
  }
  if (o.frameDrill) {
    const { sequences, framesPerSequence } = o.frameDrill;
    if (!o.frameTargets) throw new TrainError("BAD_OPTIONS", "trainSft: frameDrill needs frameTargets (its labels)");
    for (const [k, v] of Object.entries(o.frameDrill)) {
      if (!Number.isInteger(v) || v < 1)
        throw new TrainError("BAD_OPTIONS", `trainSft: frameDrill.${k} must be a positive integer (got ${v})`);
    }
    dataHash = createHash("sha256")
      .update(`${dataHash}\0frame-drill\0${sequences}\0${framesPerSequence}`)
      .digest("hex");
  }
  const drillPool = o.frameDrill ? distinctFrames(examples) : [];
  const permuteP = o.permutePalette ?? 0;
  if (o.permutePalette !== undefined) {
    if (!(permuteP > 0 && permuteP <= 1))
      throw new TrainError("BAD_OPTIONS", `trainSft: permutePalette must be in (0, 1] (got ${o.permutePalette})`);
    dataHash = createHash("sha256").update(`${dataHash}\0palette-permutation\0${permuteP}`).digest("hex");
  }
  const pieces = permuteP > 0 ? palettePieces(tok) : undefined;
  const digitP = o.permuteDigits ?? 0;
  if (o.permuteDigits !== undefined) {
    if (!(digitP > 0 && digitP <= 1))
      throw new TrainError("BAD_OPTIONS", `trainSft: permuteDigits must be in (0, 1] (got ${o.permuteDigits})`);
    dataHash = createHash("sha256").update(`${dataHash}\0digit-permutation\0${digitP}`).digest("hex");
  }
  if (digitP > 0 && tok.hasTimePieces) {
    // A permuted "0" would leave a time piece's digits as they are: the copy it teaches would lie.
    throw new TrainError("BAD_OPTIONS", "trainSft: permuteDigits needs a tokenizer without time pieces (version 1)");
  }
  const digits = digitP > 0 ? digitIds(tok) : undefined;
  const digitSet = new Set(digits ?? []);
  const digitFrom = examples.map((e) => {
    if (!digits || e.kind !== "main") return Number.POSITIVE_INFINITY;
    const from = lastTurnStart(e.lossMask);
    return digitPermutable(e, from, digits) ? from : Number.POSITIVE_INFINITY;
  });
  // Per example: where its answer turn starts if it may be permuted, else +Infinity.
  const permuteFrom = examples.map((e) => {
    if (!pieces || e.kind !== "main") return Number.POSITIVE_INFINITY;
    const from = lastTurnStart(e.lossMask);
    return permutable(e, from, pieces) ? from : Number.POSITIVE_INFINITY;
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

  const checkpoints: string[] = [];
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
    const batchAnswerFrom = next.indices.map((i) => answerFrom[i]!);
    // Which examples this step permutes (palette-permutation.ts) and their relabelled ids.
    const permRng = pieces ? new Mulberry32(epochSeed(seed ^ 0x9a1e77e, step + 1)) : undefined;
    const paletteIds = next.indices.map((i) => {
      const e = examples[i]!;
      if (!permRng || !(permuteFrom[i]! < e.ids.length) || !(permRng.next() < permuteP)) return null;
      return permuteIds(e.ids, drawPermutation(permRng, pieces!), pieces!);
    });
    // Digit permutation (digit-permutation.ts), on its own stream, after any palette permutation.
    const digitRng = digits ? new Mulberry32(epochSeed(seed ^ 0x0d161751, step + 1)) : undefined;
    const digitPermuted = next.indices.map((i) => {
      const e = examples[i]!;
      return !!digitRng && digitFrom[i]! < e.ids.length && digitRng.next() < digitP;
    });
    const batchIds = next.indices.map((i, b) => {
      const ids = paletteIds[b] ?? null;
      if (!digitPermuted[b]) return ids;
      return permuteDigitIds(ids ?? examples[i]!.ids, drawDigitPermutation(digitRng!), digits!);
    });
    const B = batchEx.length;
    const seqLen = Math.max(...batchEx.map((e) => e.ids.length)) - 1;
    const { tokens, targets, mask, frameArr } = batchArrays(B, seqLen, P, tok.pad);
    let inputs = 0;
    let lossTokens = 0;
    const tf = performance.now();
    const feats = await Promise.all(batchEx.map((e) => frameFeatures(frames, e.frames, config)));
    const frameTimeMs = performance.now() - tf;
    const auxPositions: number[] = []; // flat batch positions holding a frame target
    const copyPositions: number[] = []; // flat positions of palette words in permuted answer turns
    const digitPositions: number[] = []; // flat positions of digits in digit-permuted answer turns
    batchEx.forEach((e, b) => {
      const n = e.ids.length - 1;
      const ids = batchIds[b] ?? e.ids;
      // A permuted example trains its answer turn only (its earlier turns may describe the frames).
      const i0 = next.indices[b]!;
      const trainFrom = batchIds[b]
        ? Math.min(paletteIds[b] ? permuteFrom[i0]! : Infinity, digitPermuted[b] ? digitFrom[i0]! : Infinity)
        : 0;
      inputs += n;
      tokens.set(toCoreTokens(ids.subarray(0, n), tok), b * seqLen);
      targets.set(ids.subarray(1), b * seqLen);
      for (let i = 0; i < n; i++) {
        const turnWeight = i + 1 >= batchAnswerFrom[b]! ? answerWeight : 1;
        const trained = i + 1 >= trainFrom ? e.lossMask[i + 1]! : 0;
        mask[b * seqLen + i] = trained * weightOf[ids[i + 1]!]! * turnWeight;
        lossTokens += trained;
        if (trained > 0 && paletteIds[b] && pieces!.group[ids[i + 1]!]! >= 0) copyPositions.push(b * seqLen + i);
        if (trained > 0 && digitPermuted[b] && digitSet.has(ids[i + 1]!)) digitPositions.push(b * seqLen + i);
        const f = e.frameIndex[i]!;
        if (f >= 0) frameArr.set(feats[b]![f]!, (b * seqLen + i) * P);
      }
      if (o.frameTargets) placeFrameTargets(e, o.frameTargets, b * seqLen, targets, mask, auxPositions);
    });
    const batch = { batchSize: B, seqLen, tokens, targets, mask, frames: frameArr };
    lr = learningRate(schedule, step + 1, o.steps);

    const fwd = await model.forward(batch, {
      logits: auxPositions.length + copyPositions.length + digitPositions.length > 0,
    });
    const auxCorrect = fwd.logits ? argmaxHits(fwd.logits, config.vocabSize, targets, auxPositions) : 0;
    const copyCorrect = fwd.logits ? argmaxHits(fwd.logits, config.vocabSize, targets, copyPositions) : 0;
    const digitCorrect = fwd.logits ? argmaxHits(fwd.logits, config.vocabSize, targets, digitPositions) : 0;
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
    const drill = o.frameDrill
      ? await drillStep(model, config, tok, frames, o.frameTargets!, o.frameDrill, drillPool, seed, step + 1)
      : undefined;
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
      // Counted here: with emphasis the core's `tokens` is the sum of the weights, and the core's
      // `correct` includes the frame targets.
      tokenAccuracy: lossTokens > 0 ? (fwd.correct - auxCorrect) / lossTokens : 0,
      ...(o.frameTargets
        ? {
            frameTargetAccuracy: auxPositions.length > 0 ? auxCorrect / auxPositions.length : 0,
            frameTargetCount: auxPositions.length,
          }
        : {}),
      ...(drill ? { drillLoss: drill.loss, drillAccuracy: drill.accuracy } : {}),
      ...(pieces
        ? {
            permuted: paletteIds.filter((x) => x !== null).length,
            permutedPaletteCount: copyPositions.length,
            ...(copyPositions.length > 0 ? { permutedPaletteAccuracy: copyCorrect / copyPositions.length } : {}),
          }
        : {}),
      ...(digits
        ? {
            digitPermuted: digitPermuted.filter(Boolean).length,
            permutedDigitCount: digitPositions.length,
            ...(digitPositions.length > 0 ? { permutedDigitAccuracy: digitCorrect / digitPositions.length } : {}),
          }
        : {}),
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

/**
 * Puts `ft`'s targets of each frame of `e` at its slot and the positions after it (frame-targets.ts),
 * only where the sequence has no loss and no other frame; records the flat positions in `placed`.
 */
function placeFrameTargets(
  e: Pick<SftExample, "ids" | "lossMask" | "frameIndex" | "frames">,
  ft: FrameTargets,
  offset: number,
  targets: Int32Array,
  mask: Float32Array,
  placed: number[],
): void {
  const n = e.ids.length - 1;
  for (let i = 0; i < n; i++) {
    const f = e.frameIndex[i]!;
    if (f < 0) continue;
    ft.tokensOf(e.frames[f]!).forEach((id, j) => {
      const pos = i + j;
      if (pos >= n || e.lossMask[pos + 1] || (j > 0 && e.frameIndex[pos]! >= 0)) return;
      targets[offset + pos] = id;
      mask[offset + pos] = ft.weight;
      placed.push(offset + pos);
    });
  }
}

/** How many of `positions` have their target as the argmax of `logits` [positions, V]. */
function argmaxHits(logits: Float32Array, V: number, targets: Int32Array, positions: readonly number[]): number {
  let hits = 0;
  for (const pos of positions) {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits[pos * V + v]! > logits[pos * V + best]!) best = v;
    hits += best === targets[pos] ? 1 : 0;
  }
  return hits;
}

/** The core's input arrays of a [B, seqLen] batch: tokens and targets padded, mask 0, no frames. */
function batchArrays(B: number, seqLen: number, P: number, pad: number) {
  return {
    tokens: new Int32Array(B * seqLen).fill(pad),
    targets: new Int32Array(B * seqLen).fill(pad),
    mask: new Float32Array(B * seqLen),
    frameArr: new Float32Array(B * seqLen * P),
  };
}

/** Every distinct frame of the examples (the drill's pool), in first-seen order. */
function distinctFrames(examples: readonly SftExample[]): FrameRef[] {
  const seen = new Map<string, FrameRef>();
  for (const e of examples) for (const f of e.frames) seen.set(`${f.video}\0${f.t}`, f);
  return [...seen.values()];
}

/**
 * The frame drill of one step: random frames of the pool (drawn from the run's seed and the
 * step, so a resumed run draws the same), each as `<t seconds><frame>`, with the frame targets;
 * forward and backward, accumulated into the step's gradient.
 */
async function drillStep(
  model: KernelModel,
  config: ModelConfig,
  tok: Tokenizer,
  frames: FrameSource,
  ft: FrameTargets,
  drill: { sequences: number; framesPerSequence: number },
  pool: readonly FrameRef[],
  seed: number,
  step: number,
): Promise<{ loss: number; accuracy: number }> {
  const rng = new Mulberry32(epochSeed(seed ^ 0x6d7a11, step));
  const seqs = Array.from({ length: drill.sequences }, () => {
    const refs = Array.from({ length: drill.framesPerSequence }, () => pool[Math.floor(rng.next() * pool.length)]!);
    return buildSequence(tok, [{ role: "user", content: frameParts(refs) }]);
  });
  const B = seqs.length;
  const P = config.frameFeatures;
  const seqLen = Math.max(...seqs.map((q) => q.ids.length)) - 1;
  const { tokens, targets, mask, frameArr } = batchArrays(B, seqLen, P, tok.pad);
  const placed: number[] = [];
  for (let b = 0; b < B; b++) {
    const q = seqs[b]!;
    const n = q.ids.length - 1;
    const feats = await frameFeatures(frames, q.frames, config);
    tokens.set(toCoreTokens(q.ids.subarray(0, n), tok), b * seqLen);
    for (let i = 0; i < n; i++) if (q.frameIndex[i]! >= 0) frameArr.set(feats[q.frameIndex[i]!]!, (b * seqLen + i) * P);
    placeFrameTargets(q, ft, b * seqLen, targets, mask, placed);
  }
  if (placed.length === 0) return { loss: 0, accuracy: 0 };
  const fwd = await model.forward({ batchSize: B, seqLen, tokens, targets, mask, frames: frameArr }, { logits: true });
  const loss = fwd.loss ?? NaN;
  if (!Number.isFinite(loss)) {
    throw new TrainError("NON_FINITE", `training stopped at step ${step}: the frame drill's loss is ${loss}`, { step });
  }
  await model.backward({ accumulate: true });
  return { loss, accuracy: argmaxHits(fwd.logits!, config.vocabSize, targets, placed) / placed.length };
}
