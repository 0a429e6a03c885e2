// Loss emphasis for SFT: a heavier loss weight on the few target tokens that carry a trajectory's
// content, so they are not drowned by its templated text.
//
// Why: in the suite's trajectories the words a model must copy or see (the question's "cyan
// diamond", a summary's "top-left") are ~1 % of the assistant tokens; the rest is phrasing and
// digits. With the loss a plain mean over assistant tokens (SPEC §3: loss only on generated
// tokens, which this keeps), the stage-3 default never learnt to copy the question's target: on
// its own training videos it named the `when` target right 1 time in 20, with the next-token
// probability of the color ~0.25 (the marginal). Weighting keeps the same targets and mask; it
// only changes how much each one counts: loss = sum(w * ce) / sum(w).

import { POSITIONS, SCENE_COLORS, SHAPE_COLORS, SHAPES } from "@paravt/suite";
import type { Tokenizer } from "./tokenizer";

export interface LossEmphasis {
  /** Target token ids whose loss weight is `weight` (all other loss tokens weigh 1). */
  tokenIds: readonly number[];
  weight: number;
}

/** The suite's palette words: shape colors, shapes, scene colors and positions. */
export const PALETTE_WORDS: readonly string[] = [...SHAPE_COLORS, ...SHAPES, ...SCENE_COLORS, ...POSITIONS];

/**
 * The ids of the palette words as the tokenizer writes them (each word bare and with a leading
 * space, where that is one piece). Throws if a word has neither form as a single piece: the
 * vocabulary no longer covers the palette and the emphasis would silently miss it.
 */
export function paletteTokenIds(tok: Pick<Tokenizer, "idOf">): number[] {
  const ids = new Set<number>();
  for (const word of PALETTE_WORDS) {
    const forms = [word, ` ${word}`].map((w) => tok.idOf(w)).filter((id): id is number => id !== undefined);
    if (forms.length === 0) throw new Error(`palette word "${word}" is not a piece of the tokenizer`);
    for (const id of forms) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** A weight per id lookup (1 for ids not emphasised); validates the weight. */
export function emphasisWeights(e: LossEmphasis | undefined, vocabSize: number): Float32Array {
  const w = new Float32Array(vocabSize).fill(1);
  if (!e) return w;
  if (!(Number.isFinite(e.weight) && e.weight > 0)) throw new Error(`emphasis weight must be > 0 (got ${e.weight})`);
  for (const id of e.tokenIds) {
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize)
      throw new Error(`emphasis token id ${id} is outside the vocabulary`);
    w[id] = e.weight;
  }
  return w;
}

/**
 * Where the last assistant turn of a sequence starts: the first position of the last run of
 * loss positions (`lossMask[i] > 0`), or `lossMask.length` when nothing is trained.
 *
 * Why: in a main-agent trajectory that last turn is the answer (the oracle always ends with
 * `<answer>`, suite oracle.ts), and it is ~50 of ~250 assistant tokens of a trajectory whose
 * sub-agent samples outnumber it 2:1 in the mix; finding the question's target in the tool
 * responses and writing its times is what the models after `checkpoints/perception` fail at.
 */
export function lastTurnStart(lossMask: ArrayLike<number>): number {
  let end = lossMask.length; // one past the last loss position
  while (end > 0 && !(lossMask[end - 1]! > 0)) end--;
  if (end === 0) return lossMask.length;
  let start = end;
  while (start > 0 && lossMask[start - 1]! > 0) start--;
  return start;
}
