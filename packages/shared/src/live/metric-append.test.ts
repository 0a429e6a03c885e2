import { describe, expect, it } from "vitest";
import { seriesColumns, seriesPoints, type MetricQueryOutput } from "../contracts/runs";
import { appendSince, metricsAppendRequest, type ChartRead } from "./metric-append";

const pts = (steps: number[]) => steps.map((step) => ({ step, t: step, value: step / 10 }));
const read: ChartRead = { names: ["loss", "lr"], maxPoints: 10, x: "step" };
const held: MetricQueryOutput = [
  { name: "loss", total: 5, ...seriesColumns(pts([1, 2, 3, 4, 5])) },
  { name: "lr", total: 1, ...seriesColumns(pts([5])) },
];

describe("metricsAppendRequest", () => {
  it("asks for the touched series after the step each holds, up to the event's last step", () => {
    expect(metricsAppendRequest(read, held, { names: ["loss", "lr"], fromStep: 6, toStep: 6 })).toEqual({
      action: "since",
      series: [
        { name: "loss", afterStep: 5 },
        { name: "lr", afterStep: 5 },
      ],
      untilStep: 6,
    });
    // Unnamed: every series of the read.
    expect(metricsAppendRequest(read, held, { fromStep: 6, toStep: 7 })).toMatchObject({ action: "since" });
    expect(
      metricsAppendRequest(read, [...held, { name: "x", total: 0, ...seriesColumns([]) }], {
        names: ["x"],
        fromStep: 1,
        toStep: 1,
      }),
    ).toEqual({
      action: "skip", // "x" is not one of this read's names
    });
  });

  it("skips a read that shows none of the series or a zoom window the steps miss", () => {
    expect(metricsAppendRequest(read, held, { names: ["val_loss"], fromStep: 6, toStep: 6 })).toEqual({
      action: "skip",
    });
    const zoom = { ...read, range: { from: 1, to: 4 } };
    expect(metricsAppendRequest(zoom, held, { fromStep: 6, toStep: 9 })).toEqual({ action: "skip" });
    // A step window whose end the chart holds already: nothing more can show in it.
    expect(metricsAppendRequest({ ...read, range: { from: 1, to: 5 } }, held, { fromStep: 5, toStep: 9 })).toEqual({
      action: "skip",
    });
    // A wall-time window cannot tell from steps: the new points are asked for (the server filters).
    expect(metricsAppendRequest({ ...zoom, x: "time" }, held, { fromStep: 6, toStep: 9 })).toMatchObject({
      action: "since",
    });
  });

  it("takes points up to a held last step as shown (the read came after them), appends the rest", () => {
    // A read that was ahead of its events: the steps it holds were written before it.
    expect(metricsAppendRequest(read, held, { fromStep: 2, toStep: 5 })).toEqual({ action: "skip" });
    expect(metricsAppendRequest(read, held, { names: ["loss"], fromStep: 4, toStep: 7 })).toEqual({
      action: "since",
      series: [{ name: "loss", afterStep: 5 }],
      untilStep: 7,
    });
  });

  it("reads again without data, without a touched series, or for a write out of step order (backfill)", () => {
    expect(metricsAppendRequest(read, undefined, { fromStep: 6, toStep: 6 })).toEqual({ action: "refetch" });
    expect(metricsAppendRequest(read, [held[0]!], { names: ["lr"], fromStep: 9, toStep: 9 })).toEqual({
      action: "refetch",
    });
    expect(metricsAppendRequest(read, held, { names: ["lr"], fromStep: 3, toStep: 3, backfill: true })).toEqual({
      action: "refetch",
    });
  });

  it("asks from the start for a series the read holds no point of (null)", () => {
    const empty: MetricQueryOutput = [{ name: "loss", total: 0, ...seriesColumns([]) }];
    expect(metricsAppendRequest({ ...read, names: ["loss"] }, empty, { fromStep: 1, toStep: 1 })).toEqual({
      action: "since",
      series: [{ name: "loss", afterStep: null }],
      untilStep: 1,
    });
  });
});

describe("appendSince", () => {
  it("appends the new points and counts them; series not asked stay as they are", () => {
    const asked = [{ name: "loss", afterStep: 5 }];
    const since: MetricQueryOutput = [{ name: "loss", total: 2, ...seriesColumns(pts([6, 7])) }];
    const out = appendSince(held, since, asked, 10)!;
    expect(out[0]).toEqual({ name: "loss", total: 7, ...seriesColumns(pts([1, 2, 3, 4, 5, 6, 7])) });
    expect(out[1]).toBe(held[1]);
    // Nothing new for a series: unchanged.
    expect(appendSince(held, [{ name: "loss", total: 0, ...seriesColumns([]) }], asked, 10)![0]).toBe(held[0]);
  });

  it("gives up (null: read again) when the cache moved past the step asked after", () => {
    const since: MetricQueryOutput = [{ name: "loss", total: 1, ...seriesColumns(pts([6])) }];
    expect(appendSince(held, since, [{ name: "loss", afterStep: 4 }], 10)).toBeNull();
  });

  it("compacts a series past 2 x maxPoints with min/max per bucket, keeping the spike and the last point", () => {
    const long: MetricQueryOutput = [
      { name: "loss", total: 20, ...seriesColumns(pts(Array.from({ length: 20 }, (_, i) => i + 1))) },
    ];
    const fresh = pts([21, 22, 23]).map((p) => (p.step === 22 ? { ...p, value: 99 } : p));
    const out = appendSince(
      long,
      [{ name: "loss", total: 3, ...seriesColumns(fresh) }],
      [{ name: "loss", afterStep: 20 }],
      10,
    )![0]!;
    expect(out.total).toBe(23);
    expect(seriesPoints(out).length).toBeLessThanOrEqual(10);
    expect(seriesPoints(out).at(-1)!.step).toBe(23);
    expect(seriesPoints(out).some((p) => p.value === 99)).toBe(true);
    expect(seriesPoints(out).map((p) => p.step)).toEqual(
      [...seriesPoints(out).map((p) => p.step)].sort((a, b) => a - b),
    );
  });
});
