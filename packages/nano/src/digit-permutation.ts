// Digit permutation: the palette permutation's copy curriculum (palette-permutation.ts) for numbers.
//
// Why: a `when` answer must name the target's first and last second, which the tool responses
// state ("A cyan square is in the center from 00:56 to 01:03"; with the suite's `whenAnswer:
// "mmss"` the oracle's answer is exactly those times). Trained on them as they are, the model
// writes digits from its priors: a focused stage of 300 steps on such answers made it write
// "00:0:0:1" (nano README, Quality bar, "MM:SS `when` answers"). Here the ten digits of a
// main-agent example's text are re-labelled by one random bijection — question, frame timestamps,
// tool calls, tool responses and answer alike; the frames are not text and do not change — and
// only its answer turn is trained. Its digits are then predictable only by copying them from the
// text. (The permuted times are not valid MM:SS; nothing is trained on them but the copy.)
//
// Only examples whose answer turn writes no digit run (a maximal run of digits) that the earlier
// untrained text does not also hold are permuted: an answer whose number was computed (the
// default `when` answer in seconds, a `count`'s stretches) would become a random number.

import type { Mulberry32 } from "./init";
import type { Tokenizer } from "./tokenizer";

/** The token id of each digit 0–9 (one piece each in tokenizer v1: byte fallback). */
export function digitIds(tok: Pick<Tokenizer, "encode">): number[] {
  return [..."0123456789"].map((d) => {
    const ids = tok.encode(d);
    if (ids.length !== 1) throw new Error(`digit permutation: "${d}" is not one token of the tokenizer`);
    return ids[0]!;
  });
}

/** The maximal digit runs of `ids[from, to)` whose position passes `keep`, as comma-joined id lists. */
function digitRuns(ids: Int32Array, from: number, to: number, isDigit: Set<number>, keep: (i: number) => boolean) {
  const runs = new Set<string>();
  let run: number[] = [];
  const flush = () => {
    if (run.length > 0) runs.add(run.join(","));
    run = [];
  };
  for (let i = from; i < to; i++) {
    if (isDigit.has(ids[i]!) && keep(i)) run.push(ids[i]!);
    else flush();
  }
  flush();
  return runs;
}

/**
 * Whether permuting `e`'s digits keeps its answer turn (from `answerFrom`) predictable from text:
 * the turn writes at least one digit, and each of its digit runs is also a digit run of an earlier
 * untrained text position (`lossMask` 0, not a frame slot): the question, a frame timestamp, a
 * tool response.
 */
export function digitPermutable(
  e: { ids: Int32Array; lossMask: ArrayLike<number>; frameIndex: ArrayLike<number> },
  answerFrom: number,
  digits: readonly number[],
): boolean {
  if (answerFrom >= e.ids.length) return false;
  const isDigit = new Set(digits);
  const given = digitRuns(e.ids, 0, answerFrom, isDigit, (i) => !(e.lossMask[i]! > 0) && e.frameIndex[i]! < 0);
  const written = digitRuns(e.ids, answerFrom, e.ids.length, isDigit, () => true);
  return written.size > 0 && [...written].every((r) => given.has(r));
}

/** A random bijection of the ten digits (Fisher–Yates from `rng`): digit → new digit. */
export function drawDigitPermutation(rng: Mulberry32): number[] {
  const perm = Array.from({ length: 10 }, (_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  return perm;
}

/** `ids` with every digit replaced by its image under `perm`. */
export function permuteDigitIds(ids: Int32Array, perm: readonly number[], digits: readonly number[]): Int32Array {
  const index = new Map(digits.map((id, d) => [id, d]));
  return ids.map((id) => {
    const d = index.get(id);
    return d === undefined ? id : digits[perm[d]!]!;
  });
}
