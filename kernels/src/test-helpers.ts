// Shared by the vitest files of this package: tolerance comparison and small deterministic batches.
import { FRAME_TOKEN, type Batch, type ModelConfig } from "./index";

/** Index of the first element outside |a - ref| <= atol + rtol * |ref|, or -1. */
export function firstMismatch(a: ArrayLike<number>, ref: ArrayLike<number>, atol: number, rtol: number): number {
  if (a.length !== ref.length) return Math.min(a.length, ref.length);
  for (let i = 0; i < a.length; i++) {
    const err = Math.abs(a[i]! - ref[i]!);
    if (!(err <= atol + rtol * Math.abs(ref[i]!))) return i;
  }
  return -1;
}

/** Deterministic batch with frame slots at positions 1-2 of even sequences and a partial mask. */
export function makeBatch(cfg: ModelConfig, batchSize: number, seqLen: number, seed = 1): Required<Batch> {
  let s = seed >>> 0;
  const rand = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const n = batchSize * seqLen;
  const tokens = new Int32Array(n);
  const targets = new Int32Array(n);
  const mask = new Float32Array(n);
  const frames = new Float32Array(n * cfg.frameDim);
  for (let i = 0; i < n; i++) {
    const t = i % seqLen;
    const frame = (t === 1 || t === 2) && Math.floor(i / seqLen) % 2 === 0;
    tokens[i] = frame ? FRAME_TOKEN : Math.floor(rand() * cfg.vocabSize);
    targets[i] = Math.floor(rand() * cfg.vocabSize);
    mask[i] = t === 0 || frame ? 0 : 1;
    if (frame) for (let p = 0; p < cfg.frameDim; p++) frames[i * cfg.frameDim + p] = rand();
  }
  return { batchSize, seqLen, tokens, targets, mask, frames };
}
