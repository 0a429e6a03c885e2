import { defaultTokenizer, Mulberry32 } from "@paravt/nano";
import { describe, expect, it } from "vitest";
import { digitIds, digitPermutable, drawDigitPermutation, permuteDigitIds } from "./digit-permutation";

const tok = defaultTokenizer();
const digits = digitIds(tok);

/** An example of `given` text (untrained) then `answer` (trained), no frames. */
function example(given: string, answer: string) {
  const a = tok.encode(given);
  const b = tok.encode(answer);
  return {
    e: {
      ids: Int32Array.from([...a, ...b]),
      lossMask: Uint8Array.from([...a.map(() => 0), ...b.map(() => 1)]),
      frameIndex: Int32Array.from([...a, ...b].map(() => -1)),
    },
    from: a.length,
  };
}

describe("digit permutation", () => {
  it("has one token per digit", () => {
    expect(new Set(digits).size).toBe(10);
    expect(tok.decode(digits)).toBe("0123456789");
  });

  it("permutes an answer only when each of its digit runs is in the untrained text", () => {
    const given = "A cyan square is in the center from 00:56 to 01:03.";
    const copy = example(
      given,
      "The cyan square is visible from 00:56 to 01:03.\n</think>\n<answer>00:56 - 01:03</answer>",
    );
    expect(digitPermutable(copy.e, copy.from, digits)).toBe(true);
    // A computed number (56 s from 00:56) is not in the text: the answer stays as it is.
    const computed = example(given, "<answer>[56, 64]</answer>");
    expect(digitPermutable(computed.e, computed.from, digits)).toBe(false);
    // A run must match whole: "5" alone is not "56".
    expect(digitPermutable(example(given, "<answer>5</answer>").e, copy.from, digits)).toBe(false);
    expect(digitPermutable(example(given, "<answer>B</answer>").e, copy.from, digits)).toBe(false);
    // Digits at trained positions or frame slots do not count as given.
    const trainedGiven = { ...copy.e, lossMask: copy.e.lossMask.map(() => 1) };
    expect(digitPermutable(trainedGiven, copy.from, digits)).toBe(false);
  });

  it("re-labels every digit by one seeded bijection and nothing else", () => {
    const perm = drawDigitPermutation(new Mulberry32(7));
    expect([...perm].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(drawDigitPermutation(new Mulberry32(7))).toEqual(perm);
    expect(drawDigitPermutation(new Mulberry32(8))).not.toEqual(perm);
    const text = "from 00:56 to 01:03, <12.0 seconds>";
    const out = tok.decode([...permuteDigitIds(Int32Array.from(tok.encode(text)), perm, digits)]);
    const map = (d: string) => String(perm[Number(d)]);
    expect(out).toBe(text.replace(/\d/g, map));
  });
});
