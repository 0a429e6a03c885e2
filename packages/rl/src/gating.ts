// SPEC §1.8 frame-budget gating (nFrames Gating): in training, K is drawn per PROMPT from
// {4, 8, 16, 32, 64} uniformly and deterministically from a hash of the prompt's video paths,
// so every rollout of one GRPO group sees the same K. Off: K = 64.
//
// The hash (ours; SPEC fixes only "deterministic from a hash of the video paths"): sha256 of the
// paths joined with "\n", its first 8 bytes read as an unsigned big-endian integer, mod 5, index
// into the list. 2^64 mod 5 = 1, so the bias of the mod is ~1e-19: uniform.

import { createHash } from "node:crypto";

export const GATING_K = [4, 8, 16, 32, 64] as const;
export type GatedK = (typeof GATING_K)[number];
/** SPEC §1.1 default K, and K with gating off. */
export const UNGATED_K = 64;

export function frameBudget(videoPaths: readonly string[], gating: boolean): GatedK {
  if (!gating) return UNGATED_K;
  if (videoPaths.length === 0) throw new RangeError("frameBudget: a prompt needs at least one video path");
  const digest = createHash("sha256").update(videoPaths.join("\n"), "utf8").digest();
  return GATING_K[Number(digest.readBigUInt64BE(0) % BigInt(GATING_K.length))]!;
}
