// Palette permutation: a copy curriculum for the main agent's answer turn.
//
// Why: teacher-forced on its own K = 8 `oe` answers, the `ans2` default repeats a shape it has
// just written 30 times in 30 but its colour 4 times in 30 (scripts/answer-copy-probe.ts): it
// writes the colour it believes from the frames and the question, not the one in the text. In the
// oracle's trajectories the two always agree, so nothing in SFT rewards reading the colour off
// the tool responses. Here a main-agent example is re-labelled with a random bijection of the
// shape colours, of the shapes and of the scene colours — the question, the tool responses and
// the answer all change together, the frames do not — and only its last turn is trained. The
// permuted answer is then predictable from the text alone, and only by copying.
//
// The sub-agents' summaries write "A red …" / "An orange …" (suite observe.ts); the article
// before a permuted shape colour follows the new word, so " An" does not give the colour away.
//
// Only examples whose answer turn names no palette word the earlier text (question, tool
// responses) does not also name are permuted: an answer read off the overview frames alone would
// become a random word.
//
// As a curriculum (packages/nano/src/curriculum.ts): `permutePalette(P)`, `--permute-palette P`.

import { epochSeed, Mulberry32, type SftCurriculum, type Tokenizer } from "@paravt/nano";
import { SCENE_COLORS, SHAPE_COLORS, SHAPES } from "@paravt/suite";
import { lastTurnStart } from "./emphasis";

/** The word groups permuted, each among itself (a shape colour never becomes a scene colour). */
export const PERMUTED_GROUPS: readonly (readonly string[])[] = [SHAPE_COLORS, SHAPES, SCENE_COLORS];

/** Where each palette piece sits: its group, its word's index in the group, and its form. */
export interface PalettePieces {
  /** id → group (-1 for a piece of no group). */
  group: Int32Array;
  /** id → index of the word in its group. */
  word: Int32Array;
  /** id → 0 for the bare word, 1 for the word with a leading space. */
  form: Int32Array;
  /** [group][word][form] → id. */
  ids: number[][][];
  /** The " A" and " An" pieces, where the tokenizer has them. */
  articles: { a?: number; an?: number };
}

/** The palette pieces of `tok`; throws if a word lacks its bare or its spaced piece. */
export function palettePieces(tok: Pick<Tokenizer, "idOf" | "size">): PalettePieces {
  const p: PalettePieces = {
    group: new Int32Array(tok.size).fill(-1),
    word: new Int32Array(tok.size),
    form: new Int32Array(tok.size),
    ids: [],
    articles: { a: tok.idOf(" A"), an: tok.idOf(" An") },
  };
  PERMUTED_GROUPS.forEach((words, g) => {
    p.ids.push(
      words.map((w, i) =>
        [w, ` ${w}`].map((piece, f) => {
          const id = tok.idOf(piece);
          if (id === undefined) throw new Error(`palette permutation: "${piece}" is not one piece of the tokenizer`);
          p.group[id] = g;
          p.word[id] = i;
          p.form[id] = f;
          return id;
        }),
      ),
    );
  });
  return p;
}

/**
 * Whether permuting `e` keeps its answer turn (from `answerFrom`) predictable from text: every
 * palette word the turn names is also named at an earlier text position that is not trained
 * (`lossMask` 0, not a frame slot), i.e. in the question or a tool response.
 */
export function permutable(
  e: { ids: Int32Array; lossMask: ArrayLike<number>; frameIndex: ArrayLike<number> },
  answerFrom: number,
  pieces: PalettePieces,
): boolean {
  if (answerFrom >= e.ids.length) return false;
  const named = new Set<number>();
  for (let i = 0; i < answerFrom; i++) {
    const id = e.ids[i]!;
    if (pieces.group[id]! >= 0 && !(e.lossMask[i]! > 0) && e.frameIndex[i]! < 0) named.add(wordKey(pieces, id));
  }
  let any = false;
  for (let i = answerFrom; i < e.ids.length; i++) {
    const id = e.ids[i]!;
    if (pieces.group[id]! < 0) continue;
    if (!named.has(wordKey(pieces, id))) return false;
    any = true;
  }
  return any;
}

const wordKey = (p: PalettePieces, id: number) => p.group[id]! * 64 + p.word[id]!;

/** A random bijection per group (Fisher–Yates from `rng`): [group][word] → new word index. */
export function drawPermutation(rng: Mulberry32, pieces: PalettePieces): number[][] {
  return pieces.ids.map((words) => {
    const perm = words.map((_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
    return perm;
  });
}

/**
 * `ids` with every palette piece replaced by its permuted word, in the same form, and an " A" /
 * " An" right before a shape colour replaced by the new word's article.
 */
export function permuteIds(ids: Int32Array, perm: readonly (readonly number[])[], pieces: PalettePieces): Int32Array {
  const out = Int32Array.from(ids);
  const { a, an } = pieces.articles;
  for (let i = 0; i < out.length; i++) {
    const g = pieces.group[out[i]!]!;
    if (g < 0) continue;
    const word = perm[g]![pieces.word[out[i]!]!]!;
    out[i] = pieces.ids[g]![word]![pieces.form[out[i]!]!]!;
    if (g === 0 && i > 0 && a !== undefined && an !== undefined && (out[i - 1] === a || out[i - 1] === an))
      out[i - 1] = /^[aeiou]/.test(PERMUTED_GROUPS[g]![word]!) ? an : a;
  }
  return out;
}

/**
 * `--permute-palette P`, P in (0, 1]: each main-agent example of a batch whose answer turn is
 * `permutable` is, with probability P, re-labelled by `drawPermutation` (from the seed and the
 * step: Mulberry32(epochSeed(seed ^ 0x9a1e77e, step)), so a resume draws the same) and trains its
 * answer turn only. `permuted` counts them; `permutedPaletteAccuracy` / `permutedPaletteCount`
 * score the palette words of their trained answers (chance ~1/6: copying is the only way).
 * Fingerprint `palette-permutation\0P`.
 */
export function permutePalette(p: number): SftCurriculum {
  if (!(p > 0 && p <= 1)) throw new RangeError(`palette permutation must be a probability in (0, 1] (got ${p})`);
  return {
    name: "palette-permutation",
    fingerprint: `palette-permutation\0${p}`,
    start(run) {
      const pieces = palettePieces(run.tokenizer);
      // Per example: where its answer turn starts if it may be permuted, else +Infinity.
      const from = run.examples.map((e) => {
        if (e.kind !== "main") return Infinity;
        const turn = lastTurnStart(e.lossMask);
        return permutable(e, turn, pieces) ? turn : Infinity;
      });
      return {
        transform({ step, seed, indices, examples, ids }) {
          const rng = new Mulberry32(epochSeed(seed ^ 0x9a1e77e, step));
          const relabel = indices.map((x, b) => {
            if (!(from[x]! < examples[b]!.ids.length) || !(rng.next() < p)) return null;
            return { ids: permuteIds(ids[b]!, drawPermutation(rng, pieces), pieces), trainFrom: from[x]! };
          });
          return {
            relabel,
            packed({ seqLen, ids: final, trained }) {
              const copies: number[] = []; // flat positions of palette words in permuted answer turns
              relabel.forEach((r, b) => {
                if (!r) return;
                for (let i = 0; i < seqLen; i++) {
                  const pos = b * seqLen + i;
                  if (trained[pos] && pieces.group[final[b]![i + 1]!]! >= 0) copies.push(pos);
                }
              });
              return {
                metrics: { permuted: relabel.filter((r) => r !== null).length, permutedPaletteCount: copies.length },
                ...(copies.length > 0
                  ? { accuracy: (hits) => ({ permutedPaletteAccuracy: hits(copies) / copies.length }) }
                  : {}),
              };
            },
          };
        },
      };
    },
  };
}
