// Training sequences of rollouts (SPEC §3): one sequence per recorded generation, = the exact
// prompt the sampler saw (`buildPrompt`: BOS, every earlier turn, the assistant header and the
// forced prefix, all mask 0) followed by the sampled ids (mask 1, the closing `<|im_end|>`
// included). Loss is thus only on generated tokens: prompts, tool responses (user turns inside
// the prompt) and forced prefixes are 0. One sequence per turn rather than one per episode
// because later turns were sampled after the earlier ones were re-encoded from text: the
// per-turn prompt is the context the behaviour log-probabilities were computed in.

import type { Batch } from "@paravt/kernels";
import {
  buildPrompt,
  coreFrames,
  frameFeatures,
  toCoreTokens,
  type FrameRef,
  type ModelConfig,
  type Tokenizer,
} from "@paravt/nano";
import type { RecordedGeneration } from "./rollout";

export interface TrainSequence {
  /** Token ids (tokenizer ids, frame slots = tokenizer.frame). */
  ids: Int32Array;
  /** 1 on generated tokens. */
  lossMask: Uint8Array;
  /** Behaviour log-probability of ids[i] where lossMask[i] = 1 (0 elsewhere). */
  behaviour: Float32Array;
  frameIndex: Int32Array;
  /** The prompt's frames in slot order. */
  frames: FrameRef[];
  record: RecordedGeneration;
  /** The rollout's advantage (SPEC §3: sub-agents share their episode's). */
  advantage: number;
}

export function trainSequence(
  tok: Tokenizer,
  config: ModelConfig,
  r: RecordedGeneration,
  advantage: number,
): TrainSequence {
  const prompt = buildPrompt(tok, r.item.turns, {
    ...(r.item.forcedPrefix !== undefined ? { forcedPrefix: r.item.forcedPrefix } : {}),
    contextLength: config.contextLength,
    label: "rollout prompt",
  });
  const gen = r.generation;
  const n = prompt.ids.length + gen.ids.length;
  const ids = new Int32Array(n);
  ids.set(prompt.ids);
  ids.set(gen.ids, prompt.ids.length);
  const lossMask = new Uint8Array(n);
  lossMask.fill(1, prompt.ids.length);
  const behaviour = new Float32Array(n);
  behaviour.set(gen.logprobs, prompt.ids.length);
  const frameIndex = new Int32Array(n).fill(-1);
  frameIndex.set(prompt.frameIndex);
  return { ids, lossMask, behaviour, frameIndex, frames: prompt.frames, record: r, advantage };
}

export interface PolicyBatch {
  batch: Batch & { targets: Int32Array; mask: Float32Array };
  oldLogprobs: Float32Array;
  advantages: Float32Array;
  /** Non-padding input positions. */
  positions: number;
}

/** Next-token arrays of sequences padded to the longest: position i predicts ids[i+1]. */
export async function policyBatch(
  tok: Tokenizer,
  config: ModelConfig,
  seqs: readonly TrainSequence[],
): Promise<PolicyBatch> {
  const B = seqs.length;
  const T = Math.max(...seqs.map((s) => s.ids.length)) - 1;
  const P = config.frameFeatures;
  const tokens = new Int32Array(B * T).fill(tok.pad);
  const targets = new Int32Array(B * T).fill(tok.pad);
  const mask = new Float32Array(B * T);
  const oldLogprobs = new Float32Array(B * T);
  const features: Float32Array[][] = [];
  const advantages = new Float32Array(B);
  let positions = 0;
  for (let b = 0; b < B; b++) {
    const s = seqs[b]!;
    const n = s.ids.length - 1;
    positions += n;
    advantages[b] = s.advantage;
    tokens.set(toCoreTokens(s.ids.subarray(0, n), tok), b * T);
    targets.set(s.ids.subarray(1), b * T);
    features.push(await frameFeatures(s.record.item.frames, s.frames, config));
    for (let i = 0; i < n; i++) {
      mask[b * T + i] = s.lossMask[i + 1]!;
      oldLogprobs[b * T + i] = s.behaviour[i + 1]!;
    }
  }
  const frames = coreFrames(
    seqs.map((s, b) => ({ frameIndex: s.frameIndex, length: s.ids.length - 1, features: features[b]! })),
    P,
  );
  return { batch: { batchSize: B, seqLen: T, tokens, targets, mask, frames }, oldLogprobs, advantages, positions };
}
