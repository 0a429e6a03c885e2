// The paper-shaped table of a group (evals-table.ts) on hand-computed summaries.
import { describe, expect, it } from "vitest";
import type { EvalRunOutput } from "../../contracts/evals";
import { buildGroupTable, percent } from "./evals-table";
import { summarize, type SummaryRow } from "./evals-summary";

const row = (over: Partial<SummaryRow>): SummaryRow => ({
  status: "OK",
  correct: null,
  score: null,
  toolCallCount: 0,
  questionType: "mcq",
  duration: null,
  formatCompliant: true,
  ...over,
});

let seq = 0;
function run(
  model: string,
  dataset: string,
  mode: EvalRunOutput["mode"],
  rows: SummaryRow[],
  over: Partial<EvalRunOutput> = {},
): EvalRunOutput {
  seq++;
  return {
    id: `run${seq}`,
    kind: "eval",
    jobName: "eval.run",
    name: `${model} ${dataset}`,
    status: "SUCCEEDED",
    progress: 1,
    message: null,
    error: null,
    attempts: 1,
    createdAt: new Date(1_000_000 + seq),
    startedAt: null,
    finishedAt: null,
    createdBy: null,
    group: { id: "g1", name: "Main table" },
    model: { id: model, name: model, kind: "OPENAI_COMPATIBLE" },
    dataset: { id: dataset, name: dataset },
    mode,
    k: 64,
    withTool: mode.startsWith("agentic"),
    knobs: null,
    imported: false,
    summary: summarize(rows, rows.length),
    ...over,
  };
}

/** `correct` of n MCQ rows, the first `right` of them right. */
const mcqRows = (right: number, n: number, over: Partial<SummaryRow> = {}) =>
  Array.from({ length: n }, (_, i) => row({ correct: i < right, ...over }));
const tvgRows = (ious: number[]) => ious.map((score) => row({ questionType: "tvg", score, correct: score >= 0.5 }));

describe("percent", () => {
  it("prints a fraction as the paper does", () => {
    expect(percent(0.6944)).toBe("69.4");
    expect(percent(1)).toBe("100.0");
    expect(percent(null)).toBe("");
  });
});

describe("buildGroupTable", () => {
  const runs = [
    run("ParaVT-8B", "VideoMME", "agentic_general", [
      ...mcqRows(3, 4, { duration: "short" }),
      row({ status: "ERROR", toolCallCount: 0 }),
    ]),
    // The reference runs Charades-STA in agentic_minimal: the same "with tools" row of the table.
    run("ParaVT-8B", "Charades-STA", "agentic_minimal", tvgRows([0.8, 0.4])),
    run("Qwen3-VL | 8B", "VideoMME", "direct", mcqRows(1, 2)),
  ];
  const t = buildGroupTable({ id: "g1", name: "Main table (K=64)" }, runs);

  it("puts benchmarks as columns with their headline metric, models as rows, and the average", () => {
    expect(t.columns.map((c) => [c.name, c.metric])).toEqual([
      ["Charades-STA", "mIoU"],
      ["VideoMME", "accuracy"],
    ]);
    expect(t.rows.map((r) => [r.modelName, r.modes, r.withTool])).toEqual([
      ["ParaVT-8B", ["agentic_minimal", "agentic_general"], true],
      ["Qwen3-VL | 8B", ["direct"], false],
    ]);
    // ParaVT: mIoU (0.8 + 0.4) / 2 = 0.6; accuracy 3/4 answered (the ERROR left out) = 0.75.
    expect(t.rows[0]!.values[0]).toBeCloseTo(0.6, 12);
    expect(t.rows[0]!.values[1]).toBe(0.75);
    expect(t.rows[0]!.average).toBeCloseTo(0.675, 12);
    expect(t.rows[0]!.notes).toEqual(["VideoMME: 1 ERROR episode left out"]);
    // Qwen has no Charades-STA run: no value, and no average over a partial row.
    expect(t.rows[1]!.values).toEqual([null, 0.5]);
    expect(t.rows[1]!.average).toBeNull();
  });

  it("renders CSV: one header, one line per row, percent with one decimal, notes last", () => {
    expect(t.csv.split("\r\n")).toEqual([
      "Model,Mode,K,Tools,Charades-STA (mIoU),VideoMME (Acc),Avg,Notes",
      "ParaVT-8B,agentic_minimal + agentic_general,64,yes,60.0,75.0,67.5,VideoMME: 1 ERROR episode left out",
      "Qwen3-VL | 8B,direct,64,no,,50.0,,",
      "",
    ]);
    expect(t.fileName).toBe("paravt-main-table-k-64-table");
  });

  it("renders Markdown: the main table (pipes escaped), the policy, the notes, then each run's SPEC §5 figures", () => {
    const lines = t.markdown.split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "# Main table (K=64)",
      "",
      "| Model | Mode | K | Tools | Charades-STA (mIoU) | VideoMME (Acc) | Avg |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
      "| ParaVT-8B | agentic_minimal + agentic_general | 64 | yes | 60.0 | 75.0 | 67.5 |",
      "| Qwen3-VL \\| 8B | direct | 64 | no | — | 50.0 | — |",
    ]);
    expect(t.markdown).toContain("never counted as a wrong answer");
    expect(t.markdown).toContain(
      "- ParaVT-8B (agentic_minimal + agentic_general, K=64): VideoMME: 1 ERROR episode left out",
    );
    // Per run: VideoMME by duration (all four answered rows are "short"), Charades R@0.3/0.5/0.7.
    expect(lines).toContain(
      "| ParaVT-8B | agentic_general | 64 | VideoMME | succeeded | 5/5 | 1 | 75.0 | 75.0 | — | — | — | — | — | — | 100.0 | 0.0 | 0.00 |",
    );
    expect(lines).toContain(
      "| ParaVT-8B | agentic_minimal | 64 | Charades-STA | succeeded | 2/2 | 0 | — | — | — | — | 60.0 | 100.0 | 50.0 | 50.0 | 100.0 | 0.0 | 0.00 |",
    );
  });

  it("keeps two modes of one tool class on the same benchmark as two rows", () => {
    const two = buildGroupTable({ id: "g3", name: "modes" }, [
      run("M", "MLVU", "agentic_general", mcqRows(1, 2)),
      run("M", "MLVU", "agentic_minimal", mcqRows(2, 2)),
    ]);
    expect(two.rows.map((r) => [r.modes, r.values])).toEqual([
      [["agentic_general"], [0.5]],
      [["agentic_minimal"], [1]],
    ]);
  });

  it("notes a run that has not finished, and guards spreadsheet formulas in names", () => {
    const live = buildGroupTable({ id: "g2", name: "live" }, [
      run("=cmd()", "MLVU", "reasoning", mcqRows(1, 1), { status: "RUNNING" }),
    ]);
    expect(live.rows[0]!.notes).toEqual(["MLVU: running, 1/1 stored"]);
    expect(live.csv.split("\r\n")[1]).toBe('\'=cmd(),reasoning,64,no,100.0,100.0,"MLVU: running, 1/1 stored"');
  });
});
