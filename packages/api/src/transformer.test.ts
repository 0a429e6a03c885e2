import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isPlainJson, transformer } from "./transformer";

// Values the fast path takes must be exactly what superjson writes; the others must go to it.
const chart = Array.from({ length: 3 }, (_, s) => ({
  name: `series_${s}`,
  total: 1e6,
  points: Array.from({ length: 50 }, (_, i) => ({ step: i * 7, value: Math.sin(i) - s, t: i / 3 })),
}));
const plain: unknown[] = [
  chart,
  null,
  "text",
  true,
  0,
  -1.5e-300,
  [],
  {},
  [[1, "a"], { b: [null, false] }],
  Object.assign(Object.create(null) as object, { a: 1 }),
  { __proto__x: 1, constructor_: "c" },
];
class Point {
  constructor(public step: number) {}
}
const shared = { a: 1 };
const notPlain: unknown[] = [
  undefined,
  { a: undefined },
  [1, undefined],
  // eslint-disable-next-line no-sparse-arrays -- a hole is what is tested
  [1, , 2],
  NaN,
  Infinity,
  -0,
  { t: -Infinity },
  new Date(0),
  { at: new Date(0) },
  new Map([[1, 2]]),
  new Set([1]),
  10n,
  /re/,
  new Point(1),
  { x: [shared, shared] },
  () => 1,
  Symbol("s"),
];

describe("the tRPC transformer", () => {
  it("writes plain JSON exactly as superjson does, without its walk", () => {
    for (const v of plain) {
      expect(isPlainJson(v)).toBe(true);
      expect(transformer.serialize(v)).toEqual({ json: v });
      expect(superjson.serialize(v)).toEqual({ json: v });
      expect(JSON.stringify(transformer.serialize(v))).toBe(JSON.stringify(superjson.serialize(v)));
    }
  });

  it("hands everything else to superjson, and reads back what it wrote", () => {
    for (const v of notPlain) {
      expect(isPlainJson(v)).toBe(false);
      expect(transformer.serialize(v)).toEqual(superjson.serialize(v));
    }
    for (const v of [...plain, { at: new Date(5), n: NaN, u: undefined, x: [shared, shared] }]) {
      const back = transformer.deserialize(JSON.parse(JSON.stringify(transformer.serialize(v))));
      expect(back).toEqual(superjson.deserialize(JSON.parse(JSON.stringify(superjson.serialize(v)))));
    }
  });
});
