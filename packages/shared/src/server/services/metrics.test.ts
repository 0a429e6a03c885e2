import { describe, expect, it } from "vitest";
import { downsampleMinMax } from "./metrics";

describe("downsampleMinMax", () => {
  it("keeps short series as they are", () => {
    const pts = [1, 2, 3].map((v, i) => ({ step: i, value: v }));
    expect(downsampleMinMax(pts, 10)).toBe(pts);
  });

  it("keeps every bucket's extremes, so a one-step spike survives", () => {
    const pts = Array.from({ length: 10_000 }, (_, i) => ({ step: i, value: i === 4321 ? 1e6 : Math.sin(i / 50) }));
    const out = downsampleMinMax(pts, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out.some((p) => p.step === 4321 && p.value === 1e6)).toBe(true);
    expect(out.map((p) => p.step)).toEqual([...out.map((p) => p.step)].sort((a, b) => a - b));
    expect(Math.min(...out.map((p) => p.value))).toBe(Math.min(...pts.map((p) => p.value)));
  });
});
