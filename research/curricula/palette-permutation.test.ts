import { defaultTokenizer, Mulberry32 } from "@paravt/nano";
import { SCENE_COLORS, SHAPE_COLORS, SHAPES } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { drawPermutation, palettePieces, permutable, permuteIds } from "./palette-permutation";

const tok = defaultTokenizer();
const pieces = palettePieces(tok);
const enc = (s: string) => Int32Array.from(tok.encode(s));
const dec = (ids: Int32Array) => tok.decode([...ids]);
/** [shape colours, shapes, scene colours] as index permutations, from words. */
const perm = (
  colors: Record<string, string>,
  shapes: Record<string, string> = {},
  scenes: Record<string, string> = {},
) =>
  [
    [SHAPE_COLORS, colors],
    [SHAPES, shapes],
    [SCENE_COLORS, scenes],
  ].map(([words, m]) => {
    const ws = words as readonly string[];
    const map = m as Record<string, string>;
    return ws.map((w) => ws.indexOf(map[w] ?? w));
  });

describe("palette permutation", () => {
  it("knows every palette word in its bare and spaced piece, in its own group", () => {
    for (const [g, words] of [SHAPE_COLORS, SHAPES, SCENE_COLORS].entries()) {
      for (const [i, w] of words.entries()) {
        for (const piece of [w, ` ${w}`]) {
          const id = tok.idOf(piece)!;
          expect([pieces.group[id], pieces.word[id]]).toEqual([g, i]);
        }
      }
    }
    expect(pieces.group[tok.idOf(" the")!]).toBe(-1);
    expect(() => palettePieces({ size: tok.size, idOf: (p) => (p === " cyan" ? undefined : tok.idOf(p)) })).toThrow(
      /" cyan" is not one piece/,
    );
  });

  it("relabels the words of every group consistently, in both forms, and fixes the article", () => {
    const text = "The background is olive. A red circle and an orange cross.\n<answer>red circle</answer>";
    const p = perm(
      { red: "orange", orange: "white" },
      { circle: "diamond", diamond: "circle" },
      { olive: "teal", teal: "olive" },
    );
    expect(dec(permuteIds(enc(text), p, pieces))).toBe(
      "The background is teal. An orange diamond and an white cross.\n<answer>orange diamond</answer>",
    );
    // The summaries' capitalised article follows the new colour; the identity changes nothing.
    expect(dec(permuteIds(enc(" An orange cross. A red cross."), p, pieces))).toBe(" A white cross. An orange cross.");
    const ids = enc(text);
    expect(permuteIds(ids, perm({}), pieces)).toEqual(ids);
  });

  it("draws a seeded bijection per group", () => {
    const a = drawPermutation(new Mulberry32(5), pieces);
    expect(a.map((g) => [...g].sort((x, y) => x - y))).toEqual(pieces.ids.map((g) => g.map((_, i) => i)));
    expect(drawPermutation(new Mulberry32(5), pieces)).toEqual(a);
    expect(drawPermutation(new Mulberry32(6), pieces)).not.toEqual(a);
  });

  it("permutes only an answer whose palette words the untrained text names", () => {
    const example = (prompt: string, answer: string) => {
      const ids = enc(prompt + answer);
      const from = enc(prompt).length;
      const lossMask = ids.map((_, i) => (i >= from ? 1 : 0));
      return { e: { ids, lossMask, frameIndex: new Int32Array(ids.length).fill(-1) }, from };
    };
    const named = example("A red circle is in the center.", " So it was a red circle.");
    expect(permutable(named.e, named.from, pieces)).toBe(true);
    const unseen = example("A red circle is in the center.", " So it was a green circle.");
    expect(permutable(unseen.e, unseen.from, pieces)).toBe(false);
    const none = example("A red circle is in the center.", " So it was at 7 s.");
    expect(permutable(none.e, none.from, pieces)).toBe(false);
    // A word named only in a trained (assistant) turn does not count: the model wrote it.
    const trained = { ...named.e, lossMask: named.e.lossMask.map(() => 1) };
    expect(permutable(trained, named.from, pieces)).toBe(false);
  });
});
