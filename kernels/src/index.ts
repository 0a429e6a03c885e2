// @paravt/kernels: typed entry to the C++ compute core (N-API addon, src/addon.cc).
//
// The addon is loaded lazily on first use, so importing this module for its types never fails.
// Heavy calls return Promises and run off the event loop; calls on one model (and its decoders)
// are queued here, in call order, because the core runs one job per model at a time. Bad
// arguments reject (or, for synchronous calls, throw) with an Error naming the tensor and index;
// failures inside the core (memory limit, non-finite gradients) reject the call's Promise. Neither
// ends the process. A crash of native code itself (a bug in the core) would: run training jobs in
// a child or sandboxed process (README "Crash isolation").
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export {
  CUDA_CONTEXT_LOST,
  DEVICE_CHOICES,
  isCudaContextLost,
  MATMUL_PRECISIONS,
  resolveDevice,
  type CudaDevice,
  type CudaProbe,
  type DeviceChoice,
  type ResolvedDevice,
  type SelectedDevice,
} from "./device";
import { resolveDevice, type CudaProbe, type DeviceChoice, type SelectedDevice } from "./device";

/** Token id of a frame slot: its embedding comes from `frames` instead of the token table. */
export const FRAME_TOKEN = -1;

/** Where the build puts the addon (`node kernels/scripts/build.mjs`). */
export const ADDON_PATH = fileURLToPath(new URL("../build/Release/paravt_kernels.node", import.meta.url));

export interface ModelConfig {
  /** V: token ids 0..V-1 */
  vocabSize: number;
  /** T: longest sequence (positional table, KV cache length) */
  context: number;
  /** C: residual width */
  width: number;
  /** L: transformer blocks */
  layers: number;
  /** H: attention heads, width % heads === 0 */
  heads: number;
  /** P: floats per frame feature (a flattened thumbnail) */
  frameDim: number;
}

/** One tensor of the contiguous parameter buffer (see README "Parameter layout"). */
export interface ParamTensorInfo {
  name: string;
  shape: number[];
  /** offset in floats from the start of the buffer */
  offset: number;
  /** number of floats */
  size: number;
  /** AdamW weight decay applies (matrices, embeddings), not to biases and norms */
  weightDecay: boolean;
}

export interface Batch {
  batchSize: number;
  seqLen: number;
  /** [batchSize*seqLen] token ids, FRAME_TOKEN at frame slots */
  tokens: Int32Array;
  /**
   * [slots*frameDim]: one row of frameDim features per FRAME_TOKEN of `tokens`, in position order
   * (the ONNX export's layout too); required when there is a slot
   */
  frames?: Float32Array;
  /** [batchSize*seqLen] next-token targets; without them forward computes logits only */
  targets?: Int32Array;
  /** [batchSize*seqLen] loss weights >= 0 (default all 1); loss = sum(mask*loss)/sum(mask) */
  mask?: Float32Array;
}

export interface ForwardOptions {
  /** return logits [batchSize*seqLen*vocabSize] */
  logits?: boolean;
  /** return per-token losses [batchSize*seqLen] (0 where masked out) */
  losses?: boolean;
}

export interface ForwardResult {
  /** mask-weighted mean loss; null without targets; 0 when the mask is all zero */
  loss: number | null;
  /** sum of the mask (the number of loss tokens for a 0/1 mask) */
  tokens: number;
  /** masked-in positions whose argmax logit equals the target */
  correct: number;
  logits?: Float32Array;
  losses?: Float32Array;
}

/** A batch whose `targets` (the next tokens to score) are required; `mask` defaults to all 1. */
export type ScoredBatch = Batch & { targets: Int32Array };

export interface LogprobsOptions {
  /** also return the per-token entropy of the next-token distribution */
  entropy?: boolean;
}

export interface LogprobsResult {
  /** [batchSize*seqLen] log softmax(logits)[target]; 0 where the mask is 0 */
  logprobs: Float32Array;
  /** [batchSize*seqLen] -sum p log p; 0 where the mask is 0 (only with `entropy: true`) */
  entropy?: Float32Array;
}

/** KL(pi_theta || pi_ref) estimators: k1 = d, k2 = d^2/2, k3 = e^-d + d - 1 with d = logp - refLogp. */
export type KlEstimator = "k1" | "k2" | "k3";
/** What a behaviour importance weight above the cap becomes: the cap ("truncate") or 0 ("mask", AReaL). */
export type BehaviourCapMode = "truncate" | "mask";
/** How per-token losses become one number (verl's loss_agg_mode names). */
export type LossAggregation = "token-mean" | "seq-mean-token-mean" | "seq-mean-token-sum";

/**
 * The decoupled PPO loss (SPEC §3; formulas in the README, "Policy-gradient loss"). Loss tokens are
 * the batch's `mask` (> 0; weights): generated tokens only. Per-token arrays are [batchSize*seqLen]
 * and are read only where the mask is > 0.
 */
export interface PolicyLossOptions {
  /** [batchSize] (one per sequence, broadcast over its tokens) or [batchSize*seqLen] */
  advantages: Float32Array;
  /** log-probabilities of the behaviour policy that sampled the tokens */
  oldLogprobs: Float32Array;
  /**
   * log-probabilities of the proximal policy (the trainer's recomputation before the update); the
   * ratio is taken against it and the behaviour weight exp(prox - old) is capped. Absent: the ratio
   * is taken against oldLogprobs and the weight is 1 (plain PPO).
   */
  proxLogprobs?: Float32Array;
  /** log-probabilities of the frozen reference policy; required when klCoef > 0 */
  refLogprobs?: Float32Array;
  /** ratio lower bound 1 - clipLow (default 0.2, SPEC §3) */
  clipLow?: number;
  /** ratio upper bound 1 + clipHigh (default 0.2, SPEC §3) */
  clipHigh?: number;
  /** KL penalty coefficient (default 0.01, SPEC §3) */
  klCoef?: number;
  /** default "k3" */
  klEstimator?: KlEstimator;
  /** cap of the behaviour importance weight (default 5, SPEC §3), >= 1 */
  behaviourCap?: number;
  /** default "truncate" */
  capMode?: BehaviourCapMode;
  /** default "token-mean" */
  aggregation?: LossAggregation;
  /**
   * replaces sum(mask) (token-mean) or the number of sequences with a loss token (seq-mean-*), so
   * that micro-batches accumulated with `accumulate: true` give the gradient of the whole batch
   */
  denominator?: number;
  /** add to the current gradients instead of replacing them (micro-batches) */
  accumulate?: boolean;
}

export interface PolicyLossResult {
  /** pgLoss + klCoef * kl: the number whose gradient was accumulated */
  loss: number;
  /** aggregated clipped surrogate, weighted by the behaviour weights */
  pgLoss: number;
  /** aggregated KL estimate to the reference (0 when klCoef is 0) */
  kl: number;
  // Diagnostics: mask-weighted means over the loss tokens, whatever the aggregation.
  /** mean of r = exp(logp - base) */
  meanRatio: number;
  /** share of tokens on the clipped (flat) branch */
  clipFraction: number;
  /** k3 estimate of KL(current || base policy): mean(r - 1 - log r) */
  approxKl: number;
  /** mean entropy of the next-token distributions */
  entropy: number;
  /** mean behaviour importance weight after the cap (1 without proxLogprobs) */
  behaviourWeight: number;
  /** share of tokens whose behaviour weight exceeded the cap */
  cappedFraction: number;
  /** sum(mask) */
  tokens: number;
  /** sequences with at least one loss token */
  sequences: number;
}

export interface AdamWOptions {
  lr: number;
  beta1?: number; // default 0.9
  beta2?: number; // default 0.95
  eps?: number; // default 1e-8
  /** decoupled weight decay, applied to tensors with weightDecay (default 0) */
  weightDecay?: number;
  /** clip the global gradient norm to this value first (default 0: no clipping) */
  maxGradNorm?: number;
}

export interface StepResult {
  /** global gradient norm before clipping */
  gradNorm: number;
  /** factor applied to the gradients (1 when not clipped) */
  clipScale: number;
  /** AdamW steps taken so far */
  step: number;
}

export interface OptimizerState {
  step: number;
  m: Float32Array;
  v: Float32Array;
}

export interface DecodeInput {
  /** [batchSize*n] the next n positions of every sequence */
  tokens: Int32Array;
  /** [slots*frameDim], one row per FRAME_TOKEN of `tokens` in position order; required when there is one */
  frames?: Float32Array;
}

interface NativeModel {
  readonly numParams: number;
  readonly config: ModelConfig;
  readonly optimizerStep: number;
  layout(): ParamTensorInfo[];
  getParameters(): Float32Array;
  setParameters(p: Float32Array): void;
  getGradients(): Float32Array;
  getOptimizerState(): OptimizerState;
  setOptimizerState(s: OptimizerState): void;
  forward(batch: Batch, options?: ForwardOptions): Promise<ForwardResult>;
  backward(options?: { accumulate?: boolean }): Promise<void>;
  logprobs(batch: ScoredBatch, options?: LogprobsOptions): Promise<LogprobsResult>;
  policyForward(batch: ScoredBatch, options: PolicyLossOptions): Promise<PolicyLossResult>;
  step(options: AdamWOptions): Promise<StepResult>;
  createDecoder(batchSize: number): NativeDecoder;
  trainingMemory(batchSize: number, seqLen: number, forwardOnly?: boolean): TrainingMemory;
}

/** What a training step would still take on the model's backend, and what is left there. */
export interface TrainingMemory {
  backend: string;
  /** Bytes a step at this batch would still allocate (activations, gradients, moments, buffers). */
  needBytes: number;
  /** Free device memory (cuda) or what the process budget leaves (cpu); null: no limit set. */
  availableBytes: number | null;
  totalBytes: number | null;
}

interface NativeDecoder {
  readonly position: number;
  readonly batchSize: number;
  reset(): void;
  step(input: DecodeInput): Promise<Float32Array>;
}

interface NativeAddon {
  NativeModel: new (config: ModelConfig, seed?: number) => NativeModel;
  setThreads(n: number): void;
  getThreads(): number;
  setMemoryLimit(bytes: number): void;
  memoryInUse(): number;
  activeBackend(): string;
  useBackend(name: string): void;
  cudaProbe(): CudaProbe;
  cpuIsa: string;
}

let native: NativeAddon | undefined;

/** Loads the addon once; throws with the build command when it is missing. */
function loadAddon(): NativeAddon {
  if (native) return native;
  if (!fs.existsSync(ADDON_PATH)) {
    throw new Error(
      `@paravt/kernels: the native addon is not built (${ADDON_PATH} is missing). ` +
        "Build it with `node kernels/scripts/build.mjs` from the repository root " +
        "(needs g++, make and python3; `npm start` and `npm test` run it too).",
    );
  }
  const require = createRequire(import.meta.url);
  try {
    native = require(ADDON_PATH) as NativeAddon;
  } catch (err) {
    throw new Error(
      `@paravt/kernels: cannot load ${ADDON_PATH}: ${(err as Error).message}. ` +
        "Rebuild it with `node kernels/scripts/build.mjs --force`.",
      { cause: err },
    );
  }
  return native;
}

/** Threads of the core's pool, shared by all models of the process (0 = hardware concurrency). */
export function setThreads(threads: number): void {
  loadAddon().setThreads(threads);
}

export function getThreads(): number {
  return loadAddon().getThreads();
}

/**
 * Caps the bytes the core may hold (parameters, optimizer state, activations, KV caches) in this
 * process; an allocation past it fails the call with an error instead of waking the OOM killer.
 * 0 = no limit (the default).
 */
export function setMemoryLimit(bytes: number): void {
  loadAddon().setMemoryLimit(bytes);
}

export function memoryInUse(): number {
  return loadAddon().memoryInUse();
}

/** Name of the backend new models use: "cpu" (the reference) or "cuda" after selectDevice. */
export function backendName(): string {
  return loadAddon().activeBackend();
}

/**
 * Whether the CUDA backend can run here: its library (built beside the addon where nvcc was
 * found), the driver and a device of compute capability 9.0+; else `reason` says which is missing.
 * Loads the library on the first call only.
 */
export function cudaProbe(): CudaProbe {
  return loadAddon().cudaProbe();
}

/**
 * Resolves PARAVT_DEVICE against this machine (device.ts) and makes the chosen backend the one new
 * models use. Throws, before any model exists, when `cuda` is asked for and cannot run.
 */
export function selectDevice(requested: DeviceChoice): SelectedDevice {
  const addon = loadAddon();
  const probe = requested === "cpu" ? null : addon.cudaProbe();
  const resolved = resolveDevice(requested, probe);
  addon.useBackend(resolved.backend);
  return { ...resolved, device: resolved.backend === "cuda" ? (probe?.device ?? null) : null };
}

/**
 * The vectorised kernels the CPU backend runs ("avx512", "avx2" or "portable") and why: cpuid, or
 * PARAVT_CPU_ISA (read when the addon loads), e.g. "avx512 (cpuid)".
 */
export function cpuIsa(): string {
  return loadAddon().cpuIsa;
}

/** Creates a model with GPT-2 style initialisation from `seed` (default 0). */
export function createModel(config: ModelConfig, options: { seed?: number } = {}): KernelModel {
  const addon = loadAddon();
  return new KernelModel(new addon.NativeModel(config, options.seed ?? 0));
}

export class KernelModel {
  readonly config: ModelConfig;
  readonly numParams: number;
  readonly layout: readonly ParamTensorInfo[];
  private tail: Promise<unknown> = Promise.resolve();

  /** @internal use createModel() */
  constructor(private readonly native: NativeModel) {
    this.config = native.config;
    this.numParams = native.numParams;
    this.layout = native.layout();
  }

  /** Runs `call` after every earlier queued call of this model and its decoders has settled. */
  enqueue<T>(call: () => Promise<T>): Promise<T> {
    const result = this.tail.then(call);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Forward pass; with targets also the loss. Keeps the activations for backward(). */
  forward(batch: Batch, options: ForwardOptions = {}): Promise<ForwardResult> {
    return this.enqueue(() => this.native.forward(batch, options));
  }

  /** Gradients of the last forward's loss; accumulate adds to the current gradients. */
  backward(options: { accumulate?: boolean } = {}): Promise<void> {
    return this.enqueue(() => this.native.backward(options));
  }

  /** Global-norm clipping, then one AdamW step. Rejects without updating on a non-finite gradient. */
  step(options: AdamWOptions): Promise<StepResult> {
    return this.enqueue(() => this.native.step(options));
  }

  /** Forward, backward and step as one queued call: nothing runs in between, and a failed forward skips the rest. */
  trainStep(batch: Batch, options: AdamWOptions): Promise<ForwardResult & StepResult> {
    return this.enqueue(async () => {
      const fwd = await this.native.forward(batch);
      await this.native.backward();
      return { ...fwd, ...(await this.native.step(options)) };
    });
  }

  /** Per-token log-probabilities (and optionally entropies) of batch.targets: a forward pass, no loss. */
  logprobs(batch: ScoredBatch, options: LogprobsOptions = {}): Promise<LogprobsResult> {
    return this.enqueue(() => this.native.logprobs(batch, options));
  }

  /**
   * The decoupled PPO loss with a KL penalty (SPEC §3) on the batch's loss tokens: forward, then its
   * gradient into the gradient buffer (replacing it, or added with `accumulate`), ready for step().
   */
  policyLoss(batch: ScoredBatch, options: PolicyLossOptions): Promise<PolicyLossResult> {
    return this.enqueue(async () => {
      const result = await this.native.policyForward(batch, options);
      await this.native.backward({ accumulate: options.accumulate ?? false });
      return result;
    });
  }

  /** policyLoss then one AdamW step, as one queued call. */
  policyStep(
    batch: ScoredBatch,
    options: PolicyLossOptions,
    adamw: AdamWOptions,
  ): Promise<PolicyLossResult & StepResult> {
    return this.enqueue(async () => {
      const result = await this.native.policyForward(batch, options);
      await this.native.backward({ accumulate: options.accumulate ?? false });
      return { ...result, ...(await this.native.step(adamw)) };
    });
  }

  /** AdamW steps taken. */
  get optimizerStep(): number {
    return this.native.optimizerStep;
  }

  /**
   * Whether a training step of batchSize x seqLen fits where this model lives: call it before a
   * trainer's first step, so that a config too large is refused with both numbers instead of
   * failing part way (issue 39: "refused before training with the estimate and the free memory").
   * `forwardOnly`: a forward without backward (a frozen reference model's log-probabilities).
   */
  trainingMemory(batchSize: number, seqLen: number, options: { forwardOnly?: boolean } = {}): TrainingMemory {
    return this.native.trainingMemory(batchSize, seqLen, options.forwardOnly === true);
  }

  // Synchronous copies: call them when no Promise of this model is pending.
  getParameters(): Float32Array {
    return this.native.getParameters();
  }

  setParameters(params: Float32Array): void {
    this.native.setParameters(params);
  }

  /** A copy of one tensor of the parameter buffer, by layout name. */
  getTensor(name: string): Float32Array {
    const t = this.layout.find((x) => x.name === name);
    if (!t) throw new Error(`unknown parameter tensor ${name}; known: ${this.layout.map((x) => x.name).join(", ")}`);
    return this.native.getParameters().slice(t.offset, t.offset + t.size);
  }

  getGradients(): Float32Array {
    return this.native.getGradients();
  }

  getOptimizerState(): OptimizerState {
    return this.native.getOptimizerState();
  }

  setOptimizerState(state: OptimizerState): void {
    this.native.setOptimizerState(state);
  }

  /** A KV-cache decoder over `batchSize` sequences sharing this model's weights. */
  createDecoder(batchSize: number): KernelDecoder {
    return new KernelDecoder(this, this.native.createDecoder(batchSize));
  }
}

export class KernelDecoder {
  readonly batchSize: number;

  /** @internal use model.createDecoder() */
  constructor(
    private readonly model: KernelModel,
    private readonly native: NativeDecoder,
  ) {
    this.batchSize = native.batchSize;
  }

  /** Positions decoded so far (the same for every sequence). */
  get position(): number {
    return this.native.position;
  }

  /** Empties the KV cache (needed after the model's parameters change). */
  reset(): Promise<void> {
    return this.model.enqueue(async () => this.native.reset());
  }

  /**
   * Appends n = tokens.length / batchSize positions to every sequence (n > 1 prefills a prompt)
   * and resolves to the logits of the last new position, [batchSize*vocabSize].
   */
  step(input: DecodeInput): Promise<Float32Array> {
    return this.model.enqueue(() => this.native.step(input));
  }
}
