import { describe, expect, it } from "vitest";
import { capEvenly, evalSampleGridInput, GRID_PAGE_MAX } from "./sample-grid";

describe("capEvenly", () => {
  it("keeps short lists whole and picks evenly by index from long ones, first and last included", () => {
    expect(capEvenly([1, 2, 3], 16)).toEqual([1, 2, 3]);
    const k64 = Array.from({ length: 64 }, (_, i) => i);
    const kept = capEvenly(k64, 16);
    expect(kept).toHaveLength(16);
    expect(kept[0]).toBe(0);
    expect(kept[15]).toBe(63);
    // Steps of 63/15 = 4.2 indices, rounded.
    expect(kept.slice(0, 5)).toEqual([0, 4, 8, 13, 17]);
    expect(new Set(kept).size).toBe(16);
    expect(capEvenly(k64, 1)).toEqual([0]);
    expect(capEvenly(k64, 0)).toEqual([]);
  });
});

describe("the eval grid's input", () => {
  it("is the samples table's filter contract with a bounded page and a comparison run", () => {
    const parsed = evalSampleGridInput.parse({ projectId: "p", runId: "r", outcome: "wrong", compareWith: "b" });
    expect(parsed).toMatchObject({ outcome: "wrong", compareWith: "b", limit: 48 });
    expect(evalSampleGridInput.safeParse({ projectId: "p", runId: "r", limit: GRID_PAGE_MAX + 1 }).success).toBe(false);
    expect(evalSampleGridInput.safeParse({ projectId: "p", runId: "r", outcome: "maybe" }).success).toBe(false);
  });
});
