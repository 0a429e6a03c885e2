import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCoalescer } from "./event-coalescer";

interface Item {
  key: string;
  n: number[];
}

describe("createCoalescer", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function setup(windowMs = 250) {
    const out: Item[] = [];
    const c = createCoalescer<Item>({
      windowMs,
      key: (i) => i.key,
      merge: (a, b) => ({ key: a.key, n: [...a.n, ...b.n] }),
      emit: (i) => out.push(i),
    });
    return { c, out };
  }

  it("sends a key's first item at once and merges the rest of its window into one", () => {
    const { c, out } = setup();
    c.push({ key: "a", n: [1] });
    expect(out).toEqual([{ key: "a", n: [1] }]);
    c.push({ key: "a", n: [2] });
    c.push({ key: "b", n: [9] }); // another key has its own window
    c.push({ key: "a", n: [3] });
    expect(out).toEqual([
      { key: "a", n: [1] },
      { key: "b", n: [9] },
    ]);
    vi.advanceTimersByTime(250);
    expect(out.at(-1)).toEqual({ key: "a", n: [2, 3] });
    expect(out).toHaveLength(3);
  });

  it("keeps a steady stream at one item per window, and starts over after a quiet window", () => {
    const { c, out } = setup();
    for (let t = 0; t < 1000; t += 50) {
      c.push({ key: "a", n: [t] });
      vi.advanceTimersByTime(50);
    }
    // 20 items in 1 s: the first at once, then one merged item per 250 ms window, in order.
    expect(out.length).toBe(5);
    expect(out.flatMap((i) => i.n)).toEqual(Array.from({ length: 20 }, (_, i) => i * 50));
    vi.advanceTimersByTime(1000);
    const before = out.length;
    c.push({ key: "a", n: [5000] }); // quiet long enough: straight out again
    expect(out.length).toBe(before + 1);
  });

  it("passes items through with a zero window, and drops held items on close", () => {
    const zero = setup(0);
    zero.c.push({ key: "a", n: [1] });
    zero.c.push({ key: "a", n: [2] });
    expect(zero.out).toHaveLength(2);
    const { c, out } = setup();
    c.push({ key: "a", n: [1] });
    c.push({ key: "a", n: [2] });
    c.close();
    vi.advanceTimersByTime(1000);
    expect(out).toEqual([{ key: "a", n: [1] }]);
  });
});
