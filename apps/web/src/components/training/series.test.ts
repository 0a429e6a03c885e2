import { describe, expect, it } from "vitest";
import { dashboardParamsFrom, dashboardSearch } from "./dashboard-params";
import { emaSmooth, formatFor, groupCharts } from "./series";

describe("groupCharts", () => {
  it("groups SFT series and gathers *_k<K> series into one chart per base", () => {
    const groups = groupCharts([
      "accuracy_k16",
      "accuracy_k4",
      "clip_fraction",
      "format_compliance",
      "grad_norm",
      "kl",
      "loss",
      "reward_mean",
      "step_time_ms",
      "tokens_per_s",
      "weird",
    ]);
    expect(groups.map((g) => g.id)).toEqual(["loss", "format", "policy", "throughput", "by-k", "other"]);
    expect(groups[0]!.charts.map((c) => c.id)).toEqual(["loss", "reward_mean"]);
    expect(groups[2]!.charts.map((c) => c.id)).toEqual(["clip_fraction", "grad_norm", "kl"]);
    expect(groups[4]!.charts).toEqual([
      {
        id: "accuracy_by_k",
        title: "accuracy by K",
        series: [
          { name: "accuracy_k4", label: "K=4" },
          { name: "accuracy_k16", label: "K=16" },
        ],
      },
    ]);
  });

  it("formats rates as percentages", () => {
    expect(formatFor("token_accuracy")(0.5)).toBe("50.0%");
    expect(formatFor("lr")(0.001)).toBe("1.0e-3");
  });
});

describe("emaSmooth", () => {
  it("is the identity at weight 0 and debiased from the first point", () => {
    const pts = [4, 0, 4, 0].map((value, step) => ({ step, value }));
    expect(emaSmooth(pts, 0)).toEqual(pts);
    const s = emaSmooth(pts, 0.5).map((p) => p.value);
    expect(s[0]).toBe(4); // debiased: not pulled toward 0
    // acc: 2, 1, 2.5, 1.25 over (1 - 0.5^n): 0.5, 0.75, 0.875, 0.9375
    expect(s[1]).toBeCloseTo(1 / 0.75, 12);
    expect(s[3]).toBeCloseTo(1.25 / 0.9375, 12);
  });
});

describe("dashboard params", () => {
  it("round-trips smoothing, x and zoom through the URL and keeps other parameters", () => {
    const search = dashboardSearch(new URLSearchParams("runs=a,b"), {
      smooth: 0.6,
      x: "time",
      zoom: { from: 10, to: 20.5 },
    });
    expect(search).toBe("?runs=a,b&smooth=0.6&x=time&from=10&to=20.5");
    expect(dashboardParamsFrom(new URLSearchParams(search))).toEqual({
      smooth: 0.6,
      x: "time",
      zoom: { from: 10, to: 20.5 },
    });
  });

  it("drops values out of range", () => {
    expect(dashboardParamsFrom(new URLSearchParams("smooth=7&x=bogus&from=5&to=1"))).toEqual({
      smooth: 0.99,
      x: "step",
      zoom: null,
    });
  });
});
