import type { EvalMatrixOutput } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { averageOver, bestMarks, DEFAULT_MIN_BEST_N, minBestNFrom } from "./matrix-best";

type Row = EvalMatrixOutput["rows"][number];

const cell = (value: number | null, n: number, status = "SUCCEEDED") => ({
  runId: `r${value}-${n}`,
  metric: "accuracy" as const,
  value,
  n,
  se: null,
  figures: [],
  answered: n,
  errors: 0,
  status,
});

function row(model: string, cells: Row["cells"]): Row {
  const values = Object.values(cells)
    .map((c) => c.value)
    .filter((v): v is number => v !== null);
  return {
    modelId: model,
    modelName: model,
    mode: "direct",
    k: 64,
    withTool: false,
    cells,
    average: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
  };
}

const columns = [
  { datasetId: "a", name: "A" },
  { datasetId: "b", name: "B" },
];

describe("bestMarks", () => {
  it("marks the best of a column and of Average when every value is over at least minN samples", () => {
    const rows = [row("m1", { a: cell(0.6, 40), b: cell(0.5, 30) }), row("m2", { a: cell(0.7, 40), b: cell(0.2, 30) })];
    const marks = bestMarks(rows, columns, 30);
    expect(marks.best).toEqual(
      new Map([
        ["a", 0.7],
        ["b", 0.5],
        ["average", 0.55],
      ]),
    );
    expect(marks.withheld).toEqual([]);
  });

  it("marks no best on fewer than minN samples, and says why", () => {
    // 3/3 beats 50/60 on its face; over 3 samples that is not a finding.
    const rows = [row("m1", { a: cell(1, 3) }), row("m2", { a: cell(50 / 60, 60) })];
    const marks = bestMarks(rows, columns, 30);
    expect(marks.best.size).toBe(0);
    expect(marks.withheld).toEqual([
      { key: "a", name: "A", reason: "a value is over n=3 samples, fewer than 30" },
      { key: "average", name: "Average", reason: "a value is over n=3 samples, fewer than 30" },
    ]);
    // The minimum is the user's: at 3 the same column has a best.
    expect(bestMarks(rows, columns, 3).best.get("a")).toBe(1);
  });

  it("marks no best while a run is going, nor between equal values", () => {
    const going = [row("m1", { a: cell(0.4, 50, "RUNNING") }), row("m2", { a: cell(0.3, 50) })];
    expect(bestMarks(going, columns, 30).best.size).toBe(0);
    expect(bestMarks(going, columns, 30).withheld[0]).toMatchObject({ key: "a", reason: "a run has not finished" });
    const equal = [row("m1", { a: cell(0, 50) }), row("m2", { a: cell(0, 50) })];
    expect(bestMarks(equal, columns, 30)).toEqual({ best: new Map(), withheld: [] });
  });

  it("counts the datasets an average is over", () => {
    expect(averageOver(row("m", { a: cell(0.5, 10), b: cell(null, 0) }))).toBe(1);
  });
});

describe("minBestNFrom", () => {
  it("reads ?minN= as a whole number >= 1, else the default", () => {
    expect(DEFAULT_MIN_BEST_N).toBe(30);
    expect(minBestNFrom(new URLSearchParams("minN=5"))).toBe(5);
    for (const bad of ["", "minN=", "minN=0", "minN=-3", "minN=2.5", "minN=abc"])
      expect(minBestNFrom(new URLSearchParams(bad))).toBe(DEFAULT_MIN_BEST_N);
    expect(minBestNFrom(null)).toBe(DEFAULT_MIN_BEST_N);
  });
});
