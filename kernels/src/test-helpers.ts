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
  const rows: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = i % seqLen;
    const frame = (t === 1 || t === 2) && Math.floor(i / seqLen) % 2 === 0;
    tokens[i] = frame ? FRAME_TOKEN : Math.floor(rand() * cfg.vocabSize);
    targets[i] = Math.floor(rand() * cfg.vocabSize);
    mask[i] = t === 0 || frame ? 0 : 1;
    if (frame) for (let p = 0; p < cfg.frameDim; p++) rows.push(rand());
  }
  return { batchSize, seqLen, tokens, targets, mask, frames: Float32Array.from(rows) };
}

/** The frame rows (Batch.frames' layout) of the positions `at` of a batch, in that order. */
export function framesAt(
  batch: Pick<Batch, "tokens" | "frames">,
  frameDim: number,
  at: readonly number[],
): Float32Array {
  const slot = new Int32Array(batch.tokens.length); // the row of each position's slot
  let k = 0;
  batch.tokens.forEach((t, i) => (slot[i] = t === FRAME_TOKEN ? k++ : -1));
  const picked = at.filter((i) => slot[i]! >= 0);
  const out = new Float32Array(picked.length * frameDim);
  picked.forEach((i, j) =>
    out.set(batch.frames!.subarray(slot[i]! * frameDim, (slot[i]! + 1) * frameDim), j * frameDim),
  );
  return out;
}

/** Dense [positions, frameDim] features (the fixture file's layout) as Batch.frames' slot rows. */
export function slotRows(tokens: Int32Array, dense: Float32Array, frameDim: number): Float32Array {
  const rows: number[] = [];
  tokens.forEach((t, i) => {
    if (t === FRAME_TOKEN) rows.push(...dense.subarray(i * frameDim, (i + 1) * frameDim));
  });
  return Float32Array.from(rows);
}
