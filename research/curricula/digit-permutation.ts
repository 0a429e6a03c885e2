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
//
// As a curriculum (packages/nano/src/curriculum.ts): `permuteDigits(P)`.

import { epochSeed, Mulberry32, type SftCurriculum, type Tokenizer } from "@paravt/nano";
import { lastTurnStart } from "./emphasis";

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

/**
 * Digit permutation, P in (0, 1]: each main-agent example of a batch whose answer turn is
 * `digitPermutable` is, with probability P, re-labelled by `drawDigitPermutation` (from the seed
 * and the step: Mulberry32(epochSeed(seed ^ 0x0d161751, step)); every decision of the batch is
 * drawn before the permutations) and trains its answer turn only. Listed after `permutePalette`,
 * it permutes that one's output (an example may get both). `digitPermuted` counts them;
 * `permutedDigitAccuracy` / `permutedDigitCount` score the digits of their trained answers
 * (chance ~1/10). Refuses a tokenizer with time pieces (version 2): a permuted "0" would leave a
 * time piece's digits as they are, and the copy it teaches would lie. Fingerprint
 * `digit-permutation\0P`.
 */
export function permuteDigits(p: number): SftCurriculum {
  if (!(p > 0 && p <= 1)) throw new RangeError(`digit permutation must be a probability in (0, 1] (got ${p})`);
  return {
    name: "digit-permutation",
    fingerprint: `digit-permutation\0${p}`,
    start(run) {
      if (run.tokenizer.hasTimePieces) throw new Error("needs a tokenizer without time pieces (version 1)");
      const digits = digitIds(run.tokenizer);
      const isDigit = new Set(digits);
      // Per example: where its answer turn starts if its digits may be permuted, else +Infinity.
      const from = run.examples.map((e) => {
        if (e.kind !== "main") return Infinity;
        const turn = lastTurnStart(e.lossMask);
        return digitPermutable(e, turn, digits) ? turn : Infinity;
      });
      return {
        transform({ step, seed, indices, examples, ids }) {
          const rng = new Mulberry32(epochSeed(seed ^ 0x0d161751, step));
          const chosen = indices.map((x, b) => from[x]! < examples[b]!.ids.length && rng.next() < p);
          const relabel = indices.map((x, b) =>
            chosen[b]
              ? { ids: permuteDigitIds(ids[b]!, drawDigitPermutation(rng), digits), trainFrom: from[x]! }
              : null,
          );
          return {
            relabel,
            packed({ seqLen, ids: final, trained }) {
              const copies: number[] = []; // flat positions of digits in permuted answer turns
              relabel.forEach((r, b) => {
                if (!r) return;
                for (let i = 0; i < seqLen; i++) {
                  const pos = b * seqLen + i;
                  if (trained[pos] && isDigit.has(final[b]![i + 1]!)) copies.push(pos);
                }
              });
              return {
                metrics: { digitPermuted: relabel.filter((r) => r !== null).length, permutedDigitCount: copies.length },
                ...(copies.length > 0
                  ? { accuracy: (hits) => ({ permutedDigitAccuracy: hits(copies) / copies.length }) }
                  : {}),
              };
            },
          };
        },
      };
    },
  };
}
