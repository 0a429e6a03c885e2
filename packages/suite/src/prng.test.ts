import { describe, expect, it } from "vitest";
import { deckDraw, Rng, rngFor } from "./prng";

describe("rngFor", () => {
  it("is deterministic per (seed, parts) and differs between streams", () => {
    const draw = (r: Rng) => Array.from({ length: 8 }, () => r.next());
    expect(draw(rngFor(1, "layout", 3, 0))).toEqual(draw(rngFor(1, "layout", 3, 0)));
    expect(draw(rngFor(1, "layout", 3, 0))).not.toEqual(draw(rngFor(2, "layout", 3, 0)));
    expect(draw(rngFor(1, "layout", 3, 0))).not.toEqual(draw(rngFor(1, "layout", 3, 1)));
    // A string part and a number part with the same digits are different streams.
    expect(draw(rngFor(1, "3"))).not.toEqual(draw(rngFor(1, 3)));
  });

  it("draws uniform-looking numbers in [0, 1) and integers in [lo, hi]", () => {
    const r = rngFor(9, "test");
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 6000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = r.int(1, 6);
      counts[n - 1]!++;
    }
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(150);
    expect(() => r.int(3, 2)).toThrow(RangeError);
  });

  it("shuffles into a permutation and picks from the list", () => {
    const r = rngFor(4, "shuffle");
    const items = Array.from({ length: 20 }, (_, i) => i);
    const s = r.shuffle(items);
    expect([...s].sort((a, b) => a - b)).toEqual(items);
    expect(s).not.toEqual(items);
    expect(items).toContain(r.pick(items));
    expect(() => r.pick([])).toThrow(RangeError);
  });
});

describe("deckDraw", () => {
  it("holds every value once in each aligned block of draws", () => {
    const values = ["A", "B", "C", "D"] as const;
    for (let block = 0; block < 10; block++) {
      const drawn = [0, 1, 2, 3].map((j) => deckDraw(5, "letters", values, block * 4 + j));
      expect([...drawn].sort()).toEqual([...values]);
    }
  });

  it("is a pure function of (seed, name, index) and changes with each", () => {
    const values = [1, 2, 3, 4, 5, 6];
    const seq = (seed: number, name: string) => Array.from({ length: 30 }, (_, i) => deckDraw(seed, name, values, i));
    expect(seq(1, "x")).toEqual(seq(1, "x"));
    expect(seq(1, "x")).not.toEqual(seq(2, "x"));
    expect(seq(1, "x")).not.toEqual(seq(1, "y"));
    expect(() => deckDraw(1, "empty", [], 0)).toThrow(RangeError);
  });
});
