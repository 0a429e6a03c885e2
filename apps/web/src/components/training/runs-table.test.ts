import type { RunsTableRow } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { availableColumns, columnOf, formatCell, headlineText, stepsText, tableRun } from "./runs-table-columns";
import { filterRuns, groupRuns, nextSort, parseFilter, resolveFilterKey, sortRuns } from "./runs-table-model";

const now = new Date("2026-01-01T11:00:00Z");

function row(over: Partial<RunsTableRow> & Pick<RunsTableRow, "id" | "name">): RunsTableRow {
  return {
    kind: "sft",
    jobName: "train.sft",
    status: "SUCCEEDED",
    progress: 1,
    message: null,
    error: null,
    attempts: 1,
    createdAt: new Date("2026-01-01T10:00:00Z"),
    startedAt: new Date("2026-01-01T10:00:00Z"),
    finishedAt: new Date("2026-01-01T10:02:05Z"),
    createdBy: null,
    durationS: 125,
    totalSteps: 200,
    lastStep: 200,
    model: null,
    dataset: null,
    producedModel: null,
    config: {},
    configClipped: false,
    metrics: [],
    metricsLeftOut: 0,
    eval: null,
    ...over,
  };
}

const loss = (last: number | null, best: number | null) => ({
  name: "loss",
  points: 3,
  lastStep: 3,
  last,
  goal: "min" as const,
  best,
});

const sftConfig = (lr: number, preset = "tiny") => ({ datasetId: "d1", name: "n", preset, lr });

const runs = [
  tableRun(row({ id: "a", name: "alpha", config: sftConfig(0.001), metrics: [loss(1.5, 1.2)] }), now),
  tableRun(row({ id: "b", name: "beta", config: sftConfig(0.003, "small"), metrics: [loss(0.5, 0.4)] }), now),
  tableRun(row({ id: "c", name: "gamma", config: sftConfig(0.001), metrics: [] }), now),
  tableRun(
    row({
      id: "d",
      name: "delta rl",
      kind: "rl",
      jobName: "external",
      status: "RUNNING",
      finishedAt: null,
      durationS: null,
      config: { trainer: { lr: 0.0001 }, tag: "x" },
      metrics: [
        { name: "reward_mean", points: 2, lastStep: 4, last: 0.25, goal: "max", best: 0.5 },
        { name: "lr", points: 2, lastStep: 4, last: 0.01, goal: null, best: null },
      ],
    }),
    now,
  ),
];
const names = (rs: readonly { row: { name: string } }[]) => rs.map((r) => r.row.name);

describe("a run's cells", () => {
  it("fill the settings the run left out with the defaults it trained with, and keep numbers as numbers", () => {
    const a = runs[0]!;
    expect(a.values.get("config:lr")).toBe(0.001);
    expect(a.values.get("config:preset")).toBe("tiny");
    // sftRunConfig's default: a run launched without batchSize trained with 4.
    expect(a.values.get("config:batchSize")).toBe(4);
    expect(a.values.get("last:loss")).toBe(1.5);
    expect(a.values.get("best:loss")).toBe(1.2);
    expect(a.values.get("headline")).toBe(1.5);
    expect(headlineText(a)).toBe("loss 1.500");
    expect(a.overlayable).toBe(true);
    // A running run's duration runs to now; an ingested config is shown as stored.
    const d = runs[3]!;
    expect(d.values.get("duration")).toBe(3600);
    expect(d.values.get("config:trainer.lr")).toBe(0.0001);
    expect(headlineText(d)).toBe("reward 0.250");
    expect(stepsText(row({ id: "q", name: "q", lastStep: null }))).toBe("— / 200");
  });

  it("gives an evaluation its figures and its headline quantity, and no overlay", () => {
    const e = tableRun(
      row({
        id: "e",
        name: "eval",
        kind: "eval",
        eval: {
          headline: "accuracy",
          values: {
            accuracy: 0.75,
            score: null,
            mIoU: null,
            formatCompliance: 0.5,
            toolUsage: null,
            avgToolCalls: 1.25,
            errors: 2,
          },
        },
      }),
      now,
    );
    expect(headlineText(e)).toBe("acc 75.0%");
    expect(e.values.get("eval:accuracy")).toBe(0.75);
    expect(e.values.has("eval:score")).toBe(false);
    expect(formatCell(columnOf("eval:formatCompliance")!, 0.5)).toBe("50.0%");
    expect(formatCell(columnOf("eval:avgToolCalls")!, 1.25)).toBe("1.25");
    expect(e.overlayable).toBe(false);
    expect(availableColumns([e]).eval).toEqual([
      "eval:accuracy",
      "eval:formatCompliance",
      "eval:avgToolCalls",
      "eval:errors",
    ]);
  });

  it("offers the settings and metrics the shown runs have; best only for a metric with a direction", () => {
    const cols = availableColumns(runs);
    expect(cols.config).toContain("config:lr");
    expect(cols.config).toContain("config:trainer.lr");
    expect(cols.summary).toEqual(["last:loss", "best:loss", "last:lr", "last:reward_mean", "best:reward_mean"]);
    expect(cols.eval).toEqual([]);
  });

  it("names columns by their key, and knows no others", () => {
    expect(columnOf("status")).toMatchObject({ label: "Status", source: "run" });
    expect(columnOf("best:loss")).toMatchObject({ label: "loss (best)", source: "best" });
    expect(columnOf("config:overrides.klCoef")).toMatchObject({ label: "overrides.klCoef", source: "config" });
    expect(columnOf("eval:accuracy")?.label).toBe("Accuracy");
    expect(columnOf("eval:nonsense")).toBeNull();
    expect(columnOf("bogus")).toBeNull();
    expect(formatCell(columnOf("last:format_compliance")!, 0.25)).toBe("25.0%");
    expect(formatCell(columnOf("duration")!, 125)).toBe("2:05");
    expect(formatCell(columnOf("last:loss")!, null)).toBe("—");
  });
});

describe("sorting", () => {
  it("puts runs without a value last in both directions and keeps ties in the server's order", () => {
    expect(names(sortRuns(runs, { key: "last:loss", dir: "asc" }))).toEqual(["beta", "alpha", "gamma", "delta rl"]);
    expect(names(sortRuns(runs, { key: "last:loss", dir: "desc" }))).toEqual(["alpha", "beta", "gamma", "delta rl"]);
    expect(names(sortRuns(runs, { key: "config:lr", dir: "asc" }))).toEqual(["alpha", "gamma", "beta", "delta rl"]);
    expect(names(sortRuns(runs, null))).toEqual(["alpha", "beta", "gamma", "delta rl"]);
  });

  it("orders texts naturally (run-2 before run-10)", () => {
    const t = ["run-10", "run-2", "Run-1"].map((name) => tableRun(row({ id: name, name }), now));
    expect(names(sortRuns(t, { key: "name", dir: "asc" }))).toEqual(["Run-1", "run-2", "run-10"]);
  });

  it("cycles a header's clicks: ascending, descending, none", () => {
    expect(nextSort(null, "name")).toEqual({ key: "name", dir: "asc" });
    expect(nextSort({ key: "name", dir: "asc" }, "name")).toEqual({ key: "name", dir: "desc" });
    expect(nextSort({ key: "name", dir: "desc" }, "name")).toBeNull();
    expect(nextSort({ key: "name", dir: "desc" }, "status")).toEqual({ key: "status", dir: "asc" });
  });
});

describe("the filter", () => {
  it("parses words, comparisons and quoted values, and says what it cannot use", () => {
    expect(parseFilter(' alpha  preset=tiny loss<0.5 config:lr>=1e-3 name="delta rl" x!=y ')).toEqual({
      terms: [
        { type: "text", text: "alpha" },
        { type: "compare", key: "preset", op: "=", value: "tiny" },
        { type: "compare", key: "loss", op: "<", value: "0.5" },
        { type: "compare", key: "config:lr", op: ">=", value: "1e-3" },
        { type: "compare", key: "name", op: "=", value: "delta rl" },
        { type: "compare", key: "x", op: "!=", value: "y" },
      ],
      problems: [],
    });
    expect(parseFilter("loss> lr>abc").problems).toEqual([
      "loss>: a value is missing after >",
      "lr>abc: > compares numbers",
    ]);
    expect(parseFilter("loss> lr>abc").terms).toEqual([]);
  });

  it("reads a bare key as a setting first, then a metric's last value", () => {
    const known = new Set(runs.flatMap((r) => [...r.values.keys()]));
    expect(resolveFilterKey("lr", known)).toBe("config:lr"); // SFT logs lr too: the setting wins
    expect(resolveFilterKey("loss", known)).toBe("last:loss");
    expect(resolveFilterKey("best:loss", known)).toBe("best:loss");
    expect(resolveFilterKey("status", known)).toBe("status");
    expect(resolveFilterKey("nothing", known)).toBe("config:nothing");
  });

  it("keeps the runs every term matches; a run without the value matches no comparison", () => {
    const f = (text: string) => names(filterRuns(runs, parseFilter(text).terms));
    expect(f("")).toEqual(["alpha", "beta", "gamma", "delta rl"]);
    expect(f("ALPHA")).toEqual(["alpha"]);
    expect(f("rl")).toEqual(["delta rl"]); // name or kind
    expect(f("running")).toEqual(["delta rl"]); // status
    expect(f("preset=tiny")).toEqual(["alpha", "gamma"]);
    expect(f("preset=TINY lr=0.001")).toEqual(["alpha", "gamma"]);
    expect(f("lr=1e-3")).toEqual(["alpha", "gamma"]); // numbers compare as numbers
    expect(f("loss<1")).toEqual(["beta"]);
    expect(f("best:loss>=1.2")).toEqual(["alpha"]);
    expect(f("loss!=0.5")).toEqual(["alpha"]); // gamma has no loss: not "different", missing
    expect(f("preset=tiny loss>1")).toEqual(["alpha"]);
    expect(f("nothing=1")).toEqual([]);
    expect(f('name="delta rl"')).toEqual(["delta rl"]);
  });
});

describe("grouping", () => {
  it("groups by a setting in ascending order, runs without it last, with each summary column's mean", () => {
    const columns = ["status", "last:loss", "best:loss"].map((k) => columnOf(k)!);
    const groups = groupRuns(runs, "config:preset", columns);
    expect(groups.map((g) => [g.value, names(g.runs)])).toEqual([
      ["small", ["beta"]],
      ["tiny", ["alpha", "gamma"]],
      [null, ["delta rl"]],
    ]);
    // alpha's loss only: gamma has none, so it does not count as 0.
    expect(Object.fromEntries(groups[1]!.means)).toEqual({ "last:loss": 1.5, "best:loss": 1.2 });
    expect(groups[2]!.means.size).toBe(0);
    const byLr = groupRuns(runs, "config:lr", columns);
    expect(byLr.map((g) => g.value)).toEqual([0.001, 0.003, null]);
    expect(byLr[0]!.means.get("last:loss")).toBe(1.5);
  });

  it("averages over every run of a group that has the value", () => {
    const two = [loss(1, 1), loss(2, 0.5)].map((m, i) =>
      tableRun(row({ id: `r${i}`, name: `r${i}`, config: sftConfig(0.001), metrics: [m] }), now),
    );
    const [g] = groupRuns(two, "config:preset", [columnOf("last:loss")!, columnOf("best:loss")!]);
    expect(Object.fromEntries(g!.means)).toEqual({ "last:loss": 1.5, "best:loss": 0.75 });
  });
});
