// The SFT trainer's one extension point (`TrainSftOptions.curricula`): a curriculum changes what a
// step trains on without the trainer knowing it. The ones that trained the shipped default (loss
// emphasis, frame targets and their drill, palette permutation) live in research/curricula/; the
// product passes none, and then a step is SPEC §3's plain SFT step.
//
// A step with curricula, in list order at each stage:
//   1. `transform(batch)` of each curriculum: it may relabel rows (new token ids, trained from a
//      position on only); the next curriculum sees the relabelled ids;
//   2. the trainer packs the rows into the core's arrays (mask = the loss mask, 0 before a row's
//      `trainFrom`);
//   3. the `packed` hook each transform returned: mask weights, extra targets at prompt positions;
//   4. forward (with logits when a hook asks for accuracy), backward;
//   5. `extraLoss` of each curriculum: its own forward and backward({accumulate: true}), added to
//      the step's gradient before AdamW.
// Relabelling comes first so that weights and targets see the ids actually trained.

import type { KernelModel } from "@paravt/kernels";
import type { ModelConfig } from "./config";
import type { FrameSource } from "./frames";
import type { SftExample } from "./sequence";
import type { Tokenizer } from "./tokenizer";

export interface SftCurriculum {
  /** Names it in messages (e.g. "frame-drill"). */
  readonly name: string;
  /**
   * Mixed into the dataset fingerprint after the examples' hash, in list order
   * (sha256(`${hash}\0${fingerprint}`)), so a resume with other curricula, other settings or
   * another order is a RESUME_MISMATCH. By convention `name\0setting\0…`.
   */
  readonly fingerprint: string;
  /**
   * Once per trainSft call (fresh or resumed), after the examples are built and before any step:
   * checks the run (a throw is a BAD_OPTIONS TrainError) and returns the per-step hooks.
   */
  start(run: SftRun): SftCurriculumRun;
}

/** What a curriculum may read of the run. */
export interface SftRun {
  tokenizer: Tokenizer;
  config: ModelConfig;
  /** Every example of the run; a batch names its rows by index into this list. */
  examples: readonly SftExample[];
  frames: FrameSource;
  /** The data-order seed: draw a step's randomness from it and the step, so a resume draws the same. */
  seed: number;
}

export interface SftCurriculumRun {
  transform?(batch: SftBatch): SftBatchTransform | void;
  /**
   * After the step's backward: its own forward and `backward({ accumulate: true })` on `model`.
   * A non-finite loss stops the run (NON_FINITE) before AdamW.
   */
  extraLoss?(step: { step: number; seed: number; model: KernelModel }): Promise<SftExtraLoss>;
}

/** The rows of one step before packing. */
export interface SftBatch {
  /** The step being trained (1-based) and the run's seed. */
  step: number;
  seed: number;
  /** Per row: its example's index in `run.examples`, the example, and its ids as relabelled so far. */
  indices: readonly number[];
  examples: readonly SftExample[];
  ids: readonly Int32Array[];
}

export interface SftBatchTransform {
  /**
   * Per row, null to leave it, or new token ids (same length; frame slots stay where they are)
   * and the sequence position from which the row is still trained (an earlier turn may now
   * contradict the frames). Rows relabelled by several curricula train from the latest position.
   */
  relabel?: readonly ({ ids: Int32Array; trainFrom: number } | null)[];
  /** Called on the packed batch once every curriculum has relabelled. */
  packed?(batch: SftPackedBatch): SftBatchReport | void;
}

/**
 * The core's arrays of one step, [rows, seqLen] flattened: row b's position i (input ids[i],
 * target ids[i + 1]) is b * seqLen + i. Hooks edit `targets` and `mask` in place.
 */
export interface SftPackedBatch {
  seqLen: number;
  /** The rows' final ids (after relabelling), their examples and indices. */
  ids: readonly Int32Array[];
  examples: readonly SftExample[];
  indices: readonly number[];
  targets: Int32Array;
  mask: Float32Array;
  /** 1 where an assistant token is trained (loss mask 1, at or after its row's trainFrom), else 0. */
  trained: Uint8Array;
}

export interface SftBatchReport {
  /** Into `StepMetrics.curricula` (names unique across curricula). */
  metrics?: Record<string, number>;
  /**
   * Flat positions where this curriculum put a target that is no assistant token (a prompt
   * position): `tokenAccuracy` leaves them out.
   */
  extraTargets?: readonly number[];
  /**
   * Metrics that need the forward's argmax: given, the trainer fetches the logits and calls it
   * with a counter of the positions whose target is the argmax.
   */
  accuracy?(hits: (positions: readonly number[]) => number): Record<string, number>;
}

export interface SftExtraLoss {
  loss: number;
  metrics?: Record<string, number>;
}

/** How many of `positions` have their target as the argmax of `logits` [positions, V]. */
export function argmaxHits(logits: Float32Array, V: number, targets: Int32Array, positions: readonly number[]): number {
  let hits = 0;
  for (const pos of positions) {
    let best = 0;
    for (let v = 1; v < V; v++) if (logits[pos * V + v]! > logits[pos * V + best]!) best = v;
    hits += best === targets[pos] ? 1 : 0;
  }
  return hits;
}
