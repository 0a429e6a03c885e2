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
//
// As curricula (the trainer's extension point, packages/nano/src/curriculum.ts): `paletteEmphasis`
// (`--emphasize-palette W`) and `answerEmphasis` (`--emphasize-answer W`) multiply the mask weight
// of trained assistant tokens; the loss stays the weighted mean, and `tokenAccuracy` and
// `lossTokens` still count tokens, not weights.

import type { SftCurriculum, Tokenizer } from "@paravt/nano";
import { POSITIONS, SCENE_COLORS, SHAPE_COLORS, SHAPES } from "@paravt/suite";

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

/**
 * Trained targets with `e.tokenIds` weigh `e.weight` in the loss, the other assistant tokens 1.
 * Fingerprint `emphasis\0weight\0sorted ids` (as the trainer's `emphasis` option wrote it).
 */
export function tokenEmphasis(e: LossEmphasis): SftCurriculum {
  const ids = [...e.tokenIds].sort((a, b) => a - b).join(",");
  return {
    name: "emphasis",
    fingerprint: `emphasis\0${e.weight}\0${ids}`,
    start(run) {
      const weightOf = emphasisWeights(e, run.tokenizer.size);
      return {
        transform: () => ({
          packed({ targets, mask, trained }) {
            for (let pos = 0; pos < mask.length; pos++)
              if (trained[pos]) mask[pos] = mask[pos]! * weightOf[targets[pos]!]!;
          },
        }),
      };
    },
  };
}

/** `--emphasize-palette W`: the palette words (`paletteTokenIds`) weigh W. */
export function paletteEmphasis(tok: Pick<Tokenizer, "idOf">, weight: number): SftCurriculum {
  return tokenEmphasis({ tokenIds: paletteTokenIds(tok), weight });
}

/**
 * `--emphasize-answer W`: the trained targets of each main-agent trajectory's last turn (its
 * answer, `lastTurnStart`) weigh W times any token emphasis listed before it; sub-agent samples
 * and earlier turns 1. Fingerprint `answer-emphasis\0W`.
 */
export function answerEmphasis(weight: number): SftCurriculum {
  if (!(Number.isFinite(weight) && weight > 0)) throw new RangeError(`answer emphasis must be > 0 (got ${weight})`);
  return {
    name: "answer-emphasis",
    fingerprint: `answer-emphasis\0${weight}`,
    start(run) {
      const answerFrom = run.examples.map((e) => (e.kind === "main" ? lastTurnStart(e.lossMask) : Infinity));
      return {
        transform: () => ({
          packed({ seqLen, indices, mask, trained }) {
            indices.forEach((x, b) => {
              // Position i predicts token i + 1: it is in the answer turn from answerFrom - 1 on.
              for (let i = Math.max(0, answerFrom[x]! - 1); i < seqLen; i++) {
                const pos = b * seqLen + i;
                if (trained[pos]) mask[pos] = mask[pos]! * weight;
              }
            });
          },
        }),
      };
    },
  };
}
