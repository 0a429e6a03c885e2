// The PARA-GRPO trainer (SPEC §3, issue 9): per step, the next `promptsPerStep` RL prompts ->
// K per prompt (SPEC §1.8 gating) -> `groupSize` full agentic rollouts each, sampled from the
// model being trained (temperature 0.7, think prefix per recipe) -> SPEC §2 rewards -> shaped,
// group-normalized, batch-normalized advantages -> one decoupled-PPO update with a KL penalty
// to the frozen initial weights (kernels `policyLoss`, AdamW).
//
// Determinism: the data order (nano's epoch permutations from the seed), rollout seeds (a hash
// of seed, step, prompt slot and rollout index), the parameters and the AdamW moments are all
// the next step depends on; checkpoints store them (plus the reference weights once), so a run
// resumed from a checkpoint continues bit for bit (the core is deterministic).
//
// Policy vs sampler temperature: the behaviour log-probabilities are those of the sampler,
// softmax(z / 0.7); the trained policy is softmax(z) (the core has no temperature). The
// decoupled loss is built for exactly this: the ratio is taken against the proximal policy (the
// trainer's own recomputation before the update), and the behaviour importance weight
// exp(prox - behaviour) corrects for sampling from another distribution, capped at 5 (SPEC §3).

import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { CoreNanoBackend, videoFrameSampler, type FrameSampler } from "@paravt/agent";
import type { KernelModel } from "@paravt/kernels";
import {
  createCoreModel,
  epochSeed,
  flattenParameters,
  initParameters,
  loadCheckpoint,
  Mulberry32,
  nextBatch,
  epochOrder,
  saveCheckpoint,
  unflattenParameters,
  defaultTokenizer,
  type ModelConfig,
  type TensorMap,
  type Tokenizer,
  type TrainingState,
} from "@paravt/nano";
import { readSuite } from "@paravt/suite";
import { computeAdvantages, mean, std } from "./advantages";
import { parseRlConfig, type RlConfig, type RlConfigInput } from "./config";
import { frameBudget } from "./gating";
import { RolloutEngines, runRollout, type RlPrompt, type Rollout } from "./rollout";
import { policyBatch, trainSequence, type TrainSequence } from "./sequences";

export class RlTrainError extends Error {
  override name = "RlTrainError";
  constructor(
    readonly code: "BAD_OPTIONS" | "NO_DATA" | "RESUME_MISMATCH" | "NON_FINITE" | "CANCELLED" | "DOES_NOT_FIT",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface KMetrics {
  rollouts: number;
  /** Mean R_acc (SPEC §2) of the rollouts at this K. */
  accuracy: number;
  reward: number;
}

export interface RolloutSummary {
  rollouts: number;
  rewardMean: number;
  rewardStd: number;
  accRewardMean: number;
  formatRewardMean: number;
  toolRewardMean: number;
  /** Share of format-compliant rollouts (@paravt/protocol `formatVerdict`, rollout.ts `formatCompliant`). */
  formatCompliance: number;
  /** Share of rollouts with at least one dispatched tool call (SPEC §5 tool usage rate). */
  toolCallRate: number;
  /** Mean dispatched calls per main-agent turn that made at least one call. */
  parallelCallsPerTurn: number;
  /** Mean main-agent turns per rollout. */
  turnsUsed: number;
  /** Share of rollouts whose episode ended with an error (engine, context). */
  errorRate: number;
  /**
   * Share of the main-agent turns (all rollouts) that stopped at the token cap instead of
   * `<|im_end|>` (`finish: "length"`: maxNewTokens, or the context length). The run page warns
   * above 0.1: cut turns lose the answer and the format (issue 41 item 1).
   */
  truncatedTurnRate: number;
  byK: Record<string, KMetrics>;
  /** Generated tokens, main agent and sub-agents. */
  generatedTokens: number;
}

export interface RlStepMetrics extends RolloutSummary {
  step: number;
  epoch: number;
  position: number;
  prompts: string[];
  /** Advantage statistics after normalization. */
  advantageMean: number;
  advantageStd: number;
  loss: number;
  pgLoss: number;
  /** Aggregated KL estimate to the reference (kernels `kl`). */
  kl: number;
  entropy: number;
  clipFraction: number;
  behaviourWeight: number;
  cappedFraction: number;
  gradNorm: number;
  clipScale: number;
  lossTokens: number;
  sequences: number;
  rolloutMs: number;
  updateMs: number;
  stepMs: number;
  /** Generated tokens / rollout time. */
  rolloutTokensPerSecond: number;
  /** Sequence positions through the core in the update / update time. */
  updateTokensPerSecond: number;
  lr: number;
}

export interface RlValidationMetrics extends RolloutSummary {
  step: number;
  temperature: number;
}

export interface TrainRlOptions {
  /** A suite directory (`writeSuite` output): its `rl` rows are the prompts, `questions` the texts. */
  suiteDir: string;
  config: RlConfigInput;
  /** Start from this checkpoint (usually an SFT one); it is also the frozen reference. */
  initialCheckpoint?: string;
  /** Or from these parameters (default: `initParameters(modelConfig)`) with this config. */
  modelConfig?: ModelConfig;
  initialParameters?: TensorMap;
  tokenizer?: Tokenizer;
  /** Checkpoints go to outDir/step-NNNNNN, the reference weights to outDir/reference. */
  outDir?: string;
  /**
   * Where the frozen reference weights go instead of outDir/reference: a worker writes
   * checkpoints into a per-attempt staging folder but keeps one reference per run.
   */
  referenceDir?: string;
  /** A checkpoint directory of this run to continue from. */
  resumeFrom?: string;
  /** Frames (default: exact decoding, `videoFrameSampler({ maxErrorS: 0 })`). */
  sampler?: FrameSampler;
  signal?: AbortSignal;
  /**
   * After each update: the step's metrics and rollouts (groups.flat(), group by group) with each
   * rollout's place in its GRPO group and the SPEC §3 advantage it was trained with.
   */
  onStep?: (m: RlStepMetrics, rollouts: readonly Rollout[], places: readonly RolloutPlace[]) => void | Promise<void>;
  onValidation?: (m: RlValidationMetrics, rollouts: readonly Rollout[]) => void | Promise<void>;
  onCheckpoint?: (dir: string, step: number) => void | Promise<void>;
}

/** Where a rollout of a training step sits: its GRPO group (the prompt's slot in the batch), its index in the group, and the advantage it was trained with (SPEC §3, after group and batch normalization). */
export interface RolloutPlace {
  group: number;
  index: number;
  groupSize: number;
  advantage: number;
}

export interface TrainRlResult {
  model: KernelModel;
  config: RlConfig;
  modelConfig: ModelConfig;
  tokenizer: Tokenizer;
  metrics: RlStepMetrics[];
  validation: RlValidationMetrics[];
  checkpoints: string[];
  step: number;
}

/** rl-state.json in each checkpoint: what config.json cannot hold. */
export const RL_STATE_FILE = "rl-state.json";
const REFERENCE_DIR = "reference";
const ckptName = (step: number) => `step-${String(step).padStart(6, "0")}`;

/** A u32 from several u32s (murmur3-style finalizer): rollout and validation seeds. */
export function mixSeed(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The suite's RL rows as prompts, split into train and validation by a seeded shuffle. */
export async function loadRlPrompts(
  suiteDir: string,
  config: Pick<RlConfig, "seed" | "validationSize">,
): Promise<{ train: RlPrompt[]; validation: RlPrompt[] }> {
  const suite = await readSuite(suiteDir);
  const byId = new Map(suite.questions.map((q) => [q.id, q]));
  const all: RlPrompt[] = suite.rl.map((r) => {
    const q = byId.get(r.id)!; // readSuite checked every RL row has its question
    const path = r.videos[0]!.video;
    return {
      id: r.id,
      file: isAbsolute(path) ? path : join(suite.dir, path),
      path,
      question: q.question,
      questionType: r.extra_info.question_type,
      answer: r.extra_info.answer,
    };
  });
  if (config.validationSize >= all.length) {
    throw new RlTrainError(
      "NO_DATA",
      `validationSize ${config.validationSize} leaves no training prompt (the suite has ${all.length} RL rows)`,
    );
  }
  const order = epochOrder(all.length, mixSeed(config.seed, 0x7a11d), 0);
  const held = new Set(order.slice(0, config.validationSize));
  return {
    train: all.filter((_, i) => !held.has(i)),
    validation: order.slice(0, config.validationSize).map((i) => all[i]!),
  };
}

export function summarizeRollouts(rollouts: readonly Rollout[]): RolloutSummary {
  const rewards = rollouts.map((r) => r.reward.reward);
  const share = (f: (r: Rollout) => boolean) => (rollouts.length ? rollouts.filter(f).length / rollouts.length : 0);
  const callTurns = rollouts.flatMap((r) =>
    r.trajectory.turns.map((t) => t.toolCalls.filter((c) => c.status !== "REJECTED").length).filter((n) => n > 0),
  );
  const turns = rollouts.flatMap((r) => r.trajectory.turns);
  const byK: Record<string, KMetrics> = {};
  for (const k of [...new Set(rollouts.map((r) => r.k))].sort((a, b) => a - b)) {
    const at = rollouts.filter((r) => r.k === k);
    byK[String(k)] = {
      rollouts: at.length,
      accuracy: mean(at.map((r) => r.reward.accReward)),
      reward: mean(at.map((r) => r.reward.reward)),
    };
  }
  return {
    rollouts: rollouts.length,
    rewardMean: mean(rewards),
    rewardStd: std(rewards),
    accRewardMean: mean(rollouts.map((r) => r.reward.accReward)),
    formatRewardMean: mean(rollouts.map((r) => r.reward.formatReward)),
    toolRewardMean: mean(rollouts.map((r) => r.reward.toolReward)),
    formatCompliance: share((r) => r.formatCompliant),
    toolCallRate: share((r) => r.trajectory.toolCallCount > 0),
    parallelCallsPerTurn: mean(callTurns),
    turnsUsed: mean(rollouts.map((r) => r.trajectory.turns.length)),
    errorRate: share((r) => r.trajectory.status !== "ok"),
    truncatedTurnRate: turns.length ? turns.filter((t) => t.finish === "length").length / turns.length : 0,
    byK,
    generatedTokens: rollouts.reduce(
      (n, r) => n + [...r.main, ...r.sub].reduce((m, g) => m + g.generation.ids.length, 0),
      0,
    ),
  };
}

function datasetHashOf(prompts: readonly RlPrompt[]): string {
  return createHash("sha256")
    .update(JSON.stringify(prompts.map((p) => [p.id, p.path, p.answer])))
    .digest("hex");
}

/** Fields of the RL config that must not change across a resume (all but `steps` and the cadences). */
function resumeRelevant(c: RlConfig): unknown {
  const { steps: _s, checkpointEvery: _c, validateEvery: _v, ...rest } = c;
  return rest;
}

/** Trains (or continues) a run. */
export async function trainRl(o: TrainRlOptions): Promise<TrainRlResult> {
  const config = parseRlConfig(o.config);
  if ((config.checkpointEvery > 0 || o.resumeFrom) && !o.outDir && !o.resumeFrom) {
    throw new RlTrainError("BAD_OPTIONS", "checkpointEvery needs outDir");
  }
  let tok = o.tokenizer ?? defaultTokenizer();
  let modelConfig: ModelConfig;
  let initial: TensorMap;
  if (o.initialCheckpoint) {
    const ck = await loadCheckpoint(o.initialCheckpoint, { moments: false });
    tok = ck.tokenizer;
    modelConfig = ck.config;
    initial = ck.params;
  } else {
    if (!o.modelConfig) throw new RlTrainError("BAD_OPTIONS", "give initialCheckpoint, or modelConfig");
    modelConfig = o.modelConfig;
    initial = o.initialParameters ?? initParameters(modelConfig);
  }
  if (modelConfig.vocabSize !== tok.size) {
    throw new RlTrainError(
      "BAD_OPTIONS",
      `model vocabSize ${modelConfig.vocabSize} is not the tokenizer's ${tok.size}`,
    );
  }
  const { train, validation } = await loadRlPrompts(o.suiteDir, config);
  if (train.length === 0) throw new RlTrainError("NO_DATA", `no RL prompt in ${o.suiteDir}`);
  const dataHash = datasetHashOf(train);
  const adamw = {
    beta1: config.beta1,
    beta2: config.beta2,
    eps: config.adamEps,
    weightDecay: config.weightDecay,
    gradClip: config.gradClip,
  };

  let step = 0;
  let cursor = { epoch: 0, position: 0 };
  let model: KernelModel;
  let reference: TensorMap = initial;
  let referenceDir: string | null = null;
  if (o.resumeFrom) {
    const ck = await loadCheckpoint(o.resumeFrom, { tokenizer: tok });
    let state: { config: unknown; referenceDir: string };
    try {
      state = JSON.parse(await readFile(join(o.resumeFrom, RL_STATE_FILE), "utf8")) as typeof state;
    } catch (e) {
      throw new RlTrainError(
        "RESUME_MISMATCH",
        `${o.resumeFrom} has no readable ${RL_STATE_FILE}: not an RL checkpoint`,
        {
          cause: e,
        },
      );
    }
    const diffs: string[] = [];
    if (JSON.stringify(ck.config) !== JSON.stringify(modelConfig)) diffs.push("model config differs");
    if (JSON.stringify(resumeRelevant(parseRlConfig(state.config))) !== JSON.stringify(resumeRelevant(config)))
      diffs.push("RL config differs (other than steps / checkpointEvery / validateEvery)");
    if (ck.training.dataCursor.datasetHash !== dataHash) diffs.push("other RL prompts");
    if (!ck.moments) diffs.push("no optimizer state");
    if (ck.training.step > config.steps) diffs.push(`checkpoint at step ${ck.training.step} > steps ${config.steps}`);
    if (diffs.length)
      throw new RlTrainError("RESUME_MISMATCH", `cannot resume from ${o.resumeFrom}: ${diffs.join("; ")}`);
    referenceDir = resolve(o.resumeFrom, state.referenceDir);
    reference = (await loadCheckpoint(referenceDir, { tokenizer: tok, moments: false })).params;
    model = createCoreModel(modelConfig, ck.params);
    model.setOptimizerState({
      step: ck.training.step,
      m: flattenParameters(modelConfig, ck.moments!.m),
      v: flattenParameters(modelConfig, ck.moments!.v),
    });
    step = ck.training.step;
    cursor = { epoch: ck.training.dataCursor.epoch, position: ck.training.dataCursor.position };
  } else {
    model = createCoreModel(modelConfig, initial);
  }
  // SPEC §3: KL against a frozen reference policy = the initial weights, in a second core model.
  const refModel = createCoreModel(modelConfig, reference);
  refuseWhatCannotFit(model, refModel, modelConfig, config);

  const outDir = o.outDir;
  const checkpoints: string[] = [];
  if (outDir) {
    await mkdir(outDir, { recursive: true });
    if (!referenceDir) {
      referenceDir = o.referenceDir ?? join(outDir, REFERENCE_DIR);
      await saveCheckpoint(
        referenceDir,
        {
          config: modelConfig,
          tokenizer: tok,
          params: reference,
          training: {
            step: 0,
            seed: config.seed,
            rng: { algorithm: Mulberry32.algorithm, state: [config.seed] },
            dataCursor: { epoch: 0, position: 0, datasetHash: dataHash },
            optimizer: null,
          },
          moments: null,
        },
        { overwrite: true },
      );
    }
  }
  const save = async () => {
    const dir = join(outDir!, ckptName(step));
    const st = model.getOptimizerState();
    const training: TrainingState = {
      step,
      seed: config.seed,
      rng: { algorithm: Mulberry32.algorithm, state: [epochSeed(config.seed, cursor.epoch)] },
      dataCursor: { epoch: cursor.epoch, position: cursor.position, datasetHash: dataHash },
      optimizer: { kind: "adamw", lr: config.lr, ...adamw },
    };
    await saveCheckpoint(
      dir,
      {
        config: modelConfig,
        tokenizer: tok,
        params: unflattenParameters(modelConfig, model.getParameters()),
        training,
        moments: { m: unflattenParameters(modelConfig, st.m), v: unflattenParameters(modelConfig, st.v) },
      },
      { overwrite: true },
    );
    // Written after the atomic rename: a crash between the two leaves a checkpoint without it,
    // which resume refuses with a clear message (use the previous one).
    await writeFile(
      join(dir, RL_STATE_FILE),
      `${JSON.stringify({ config, referenceDir: resolve(referenceDir!) }, null, 2)}\n`,
    );
    checkpoints.push(dir);
    await o.onCheckpoint?.(dir, step);
  };

  const engines = new RolloutEngines(
    new CoreNanoBackend(model, modelConfig, tok, "C++ core (RL policy)"),
    tok,
    modelConfig,
  );
  const sampler = o.sampler ?? videoFrameSampler({ maxErrorS: 0 });
  const cancelled = () => {
    if (o.signal?.aborted) throw new RlTrainError("CANCELLED", `training cancelled at step ${step}`);
  };

  const validate = async (): Promise<RlValidationMetrics> => {
    const rollouts: Rollout[] = [];
    for (const [i, prompt] of validation.entries()) {
      cancelled();
      const k = frameBudget([prompt.path], config.recipe.nframesGating);
      rollouts.push(
        await runRollout({
          engines,
          sampler,
          prompt,
          k,
          seed: mixSeed(config.seed, 0x5a11d, step, i),
          temperature: config.validationTemperature,
          config,
          ...(o.signal ? { signal: o.signal } : {}),
        }),
      );
    }
    const m = { step, temperature: config.validationTemperature, ...summarizeRollouts(rollouts) };
    await o.onValidation?.(m, rollouts);
    return m;
  };

  const metrics: RlStepMetrics[] = [];
  const validations: RlValidationMetrics[] = [];
  while (step < config.steps) {
    cancelled();
    const t0 = performance.now();
    const next = nextBatch(train.length, config.seed, cursor, config.promptsPerStep);
    const prompts = next.indices.map((i) => train[i]!);

    // Rollouts: one group per prompt, all at the prompt's K (SPEC §1.8).
    const groups: Rollout[][] = [];
    for (const [slot, prompt] of prompts.entries()) {
      const k = frameBudget([prompt.path], config.recipe.nframesGating);
      const group: Rollout[] = [];
      for (let i = 0; i < config.groupSize; i++) {
        cancelled();
        group.push(
          await runRollout({
            engines,
            sampler,
            prompt,
            k,
            seed: mixSeed(config.seed, step, slot, i),
            temperature: config.temperature,
            config,
            ...(o.signal ? { signal: o.signal } : {}),
          }),
        );
      }
      groups.push(group);
    }
    const t1 = performance.now();
    const rollouts = groups.flat();

    // SPEC §3 advantages on main-agent trajectories.
    const adv = computeAdvantages(
      groups.map((g) => g.map((r) => r.reward.reward)),
      {
        bias: config.rewardBias,
        scale: config.rewardScale,
        eps: config.normEps,
        batchNormalize: config.batchNormalizeAdvantages,
      },
    );
    const seqs: TrainSequence[] = [];
    groups.forEach((g, gi) =>
      g.forEach((r, ri) => {
        const a = adv[gi]![ri]!;
        for (const rec of r.main) seqs.push(trainSequence(tok, modelConfig, rec, a));
        if (config.includeSubAgents) for (const rec of r.sub) seqs.push(trainSequence(tok, modelConfig, rec, a));
      }),
    );
    if (seqs.length === 0) throw new RlTrainError("NO_DATA", `step ${step + 1}: no rollout produced a generation`);
    const update = await policyUpdate(model, refModel, tok, modelConfig, config, seqs);
    step++;
    cursor = { epoch: next.epoch, position: next.position };
    const t2 = performance.now();
    const summary = summarizeRollouts(rollouts);
    const flatAdv = adv.flat();
    const m: RlStepMetrics = {
      step,
      epoch: cursor.epoch,
      position: cursor.position,
      prompts: prompts.map((p) => p.id),
      ...summary,
      advantageMean: mean(flatAdv),
      advantageStd: std(flatAdv),
      ...update.result,
      rolloutMs: t1 - t0,
      updateMs: t2 - t1,
      stepMs: t2 - t0,
      rolloutTokensPerSecond: summary.generatedTokens / ((t1 - t0) / 1000),
      updateTokensPerSecond: update.positions / ((t2 - t1) / 1000),
      lr: config.lr,
    };
    metrics.push(m);
    await o.onStep?.(
      m,
      rollouts,
      groups.flatMap((g, gi) =>
        g.map((_, ri) => ({ group: gi, index: ri, groupSize: g.length, advantage: adv[gi]![ri]! })),
      ),
    );
    if (outDir && config.checkpointEvery > 0 && step % config.checkpointEvery === 0) await save();
    if (config.validateEvery > 0 && (step % config.validateEvery === 0 || step === config.steps))
      validations.push(await validate());
  }
  if (outDir && checkpoints.at(-1) !== join(outDir, ckptName(step))) await save();
  return { model, config, modelConfig, tokenizer: tok, metrics, validation: validations, checkpoints, step };
}

interface UpdateResult {
  loss: number;
  pgLoss: number;
  kl: number;
  entropy: number;
  clipFraction: number;
  behaviourWeight: number;
  cappedFraction: number;
  gradNorm: number;
  clipScale: number;
  lossTokens: number;
  sequences: number;
}

/**
 * Refuses, before the first rollout, an update that cannot fit where the models live (issue 39):
 * a micro-batch of the longest sequences a rollout can produce (the context length) through the
 * policy's forward and backward, plus the reference model's forward when the KL term needs it.
 * Not counted: the rollouts' decoders (KV caches of groupSize sequences), which are smaller.
 */
function refuseWhatCannotFit(
  model: KernelModel,
  refModel: KernelModel,
  modelConfig: ModelConfig,
  config: RlConfig,
): void {
  const T = modelConfig.contextLength;
  const policy = model.trainingMemory(config.microBatchSize, T);
  const reference = config.klCoef > 0 ? refModel.trainingMemory(config.microBatchSize, T, { forwardOnly: true }) : null;
  const need = policy.needBytes + (reference?.needBytes ?? 0);
  if (policy.availableBytes === null || need <= policy.availableBytes) return;
  const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
  throw new RlTrainError(
    "DOES_NOT_FIT",
    `trainRl: a policy update of ${config.microBatchSize} x ${T} tokens needs ${gib(need)} more on the ` +
      `${policy.backend} core${reference ? " (with the reference model's forward)" : ""}, and ` +
      `${gib(policy.availableBytes)} of ${gib(policy.totalBytes ?? policy.availableBytes)} are available: ` +
      `lower microBatchSize or the context length`,
  );
}

/**
 * One optimizer step over all sequences (SPEC §3): micro-batches accumulate the gradient of the
 * whole batch (`denominator` = the batch's loss tokens, or sequences for the seq-mean
 * aggregations); proximal log-probabilities are taken before any gradient (the parameters only
 * change in the final AdamW step), reference ones from the frozen model.
 */
export async function policyUpdate(
  model: KernelModel,
  refModel: KernelModel,
  tok: Tokenizer,
  modelConfig: ModelConfig,
  config: RlConfig,
  seqs: readonly TrainSequence[],
): Promise<{ result: UpdateResult; positions: number }> {
  const totalTokens = seqs.reduce((n, s) => n + s.lossMask.reduce((a, b) => a + b, 0), 0);
  const totalSeqs = seqs.filter((s) => s.lossMask.some((x) => x > 0)).length;
  const denominator = config.aggregation === "token-mean" ? totalTokens : totalSeqs;
  const acc = { loss: 0, pgLoss: 0, kl: 0, entropy: 0, clipFraction: 0, behaviourWeight: 0, cappedFraction: 0 };
  let positions = 0;
  for (let at = 0; at < seqs.length; at += config.microBatchSize) {
    const part = seqs.slice(at, at + config.microBatchSize);
    const pb = await policyBatch(tok, modelConfig, part);
    positions += pb.positions;
    const prox = await model.logprobs(pb.batch);
    const ref = config.klCoef > 0 ? await refModel.logprobs(pb.batch) : undefined;
    const r = await model.policyLoss(pb.batch, {
      advantages: pb.advantages,
      oldLogprobs: pb.oldLogprobs,
      proxLogprobs: prox.logprobs,
      ...(ref ? { refLogprobs: ref.logprobs } : {}),
      clipLow: config.clip,
      clipHigh: config.clip,
      klCoef: config.klCoef,
      klEstimator: config.klEstimator,
      behaviourCap: config.behaviourCap,
      capMode: config.capMode,
      aggregation: config.aggregation,
      denominator,
      accumulate: at > 0,
    });
    // loss, pgLoss and kl are already sums over the shared denominator; diagnostics are token means.
    acc.loss += r.loss;
    acc.pgLoss += r.pgLoss;
    acc.kl += r.kl;
    for (const k of ["entropy", "clipFraction", "behaviourWeight", "cappedFraction"] as const)
      acc[k] += r[k] * r.tokens;
  }
  if (!Number.isFinite(acc.loss)) throw new RlTrainError("NON_FINITE", `the policy loss is ${acc.loss}`);
  let st;
  try {
    st = await model.step({
      lr: config.lr,
      beta1: config.beta1,
      beta2: config.beta2,
      eps: config.adamEps,
      weightDecay: config.weightDecay,
      maxGradNorm: config.gradClip,
    });
  } catch (e) {
    throw new RlTrainError("NON_FINITE", `AdamW step refused: ${(e as Error).message}`, { cause: e });
  }
  const t = Math.max(1, totalTokens);
  return {
    result: {
      loss: acc.loss,
      pgLoss: acc.pgLoss,
      kl: acc.kl,
      entropy: acc.entropy / t,
      clipFraction: acc.clipFraction / t,
      behaviourWeight: acc.behaviourWeight / t,
      cappedFraction: acc.cappedFraction / t,
      gradNorm: st.gradNorm,
      clipScale: st.clipScale,
      lossTokens: totalTokens,
      sequences: totalSeqs,
    },
    positions,
  };
}
