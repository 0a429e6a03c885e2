import { describe, expect, it } from "vitest";
import { ChartCache } from "./metric-chart-cache";

const cache = () => new ChartCache<number[]>(10, (v) => v.length);
const load = (key: string, value: number[]) => async () => ({ key, value });

describe("ChartCache", () => {
  it("evicts the least recently used entries past its bound in points", async () => {
    const c = cache();
    await c.read("a", load("a", [1, 2, 3, 4]));
    await c.read("b", load("b", [1, 2, 3, 4]));
    await c.read("a", load("a", [9])); // a hit: "a" becomes the most recent
    await c.read("c", load("c", [1, 2, 3])); // 11 points: "b" goes
    expect(c.stats()).toEqual({ hits: 1, misses: 3, entries: 2, points: 7 });
    expect(await c.read("a", load("a", [0]))).toEqual([1, 2, 3, 4]);
    expect(await c.read("b", load("b", [5]))).toEqual([5]);
    // Larger than the whole bound: answered, never kept.
    expect(await c.read("big", load("big", Array(11).fill(0)))).toHaveLength(11);
    expect(c.stats().entries).toBe(3);
    expect(await c.read("big", load("big", [1]))).toEqual([1]);
  });

  it("keeps an answer under the key its load says, and forgets a failed load", async () => {
    const c = cache();
    expect(await c.read("v1", load("v2", [7]))).toEqual([7]);
    expect(await c.read("v2", load("v2", [0]))).toEqual([7]);
    const failing = async (): Promise<{ key: string; value: number[] }> => {
      throw new Error("database gone");
    };
    await expect(Promise.all([c.read("x", failing), c.read("x", failing)])).rejects.toThrow("database gone");
    expect(await c.read("x", load("x", [3]))).toEqual([3]);
  });
});
