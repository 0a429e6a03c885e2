import { describe, expect, it } from "vitest";
import type { EvalRunOutput, EvalSummary } from "../../contracts/evals";
import { summarize } from "./evals-summary";
import { buildMatrix } from "./evals-matrix";

let seq = 0;
function run(
  model: string,
  dataset: string,
  mode: EvalRunOutput["mode"],
  summary: EvalSummary,
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
    group: { id: "g", name: "g" },
    model: { id: model, name: model.toUpperCase(), kind: "OPENAI_COMPATIBLE" },
    dataset: { id: dataset, name: dataset },
    mode,
    k: 64,
    withTool: mode.startsWith("agentic"),
    knobs: null,
    imported: false,
    summary,
    ...over,
  };
}

const mcq = (correct: number, n: number) =>
  summarize(
    Array.from({ length: n }, (_, i) => ({
      status: "OK" as const,
      correct: i < correct,
      score: null,
      toolCallCount: 0,
      questionType: "mcq" as const,
      duration: null,
      formatCompliant: null,
    })),
    n,
  );
const tvg = (ious: number[]) =>
  summarize(
    ious.map((score) => ({
      status: "OK" as const,
      correct: null,
      score,
      toolCallCount: 1,
      questionType: "tvg" as const,
      duration: null,
      formatCompliant: null,
    })),
    ious.length,
  );

describe("buildMatrix", () => {
  it("puts models in rows (split by tool use), datasets in columns, MCQ accuracy or grounding mIoU per cell, and the row average", () => {
    const m = buildMatrix([
      run("a", "mlvu", "agentic_general", mcq(3, 4)),
      run("a", "charades", "agentic_general", tvg([0.2, 0.6])),
      run("a", "mlvu", "direct", mcq(1, 4)),
      run("b", "mlvu", "agentic_general", mcq(2, 4)),
    ]);
    expect(m.columns).toEqual([
      { datasetId: "charades", name: "charades" },
      { datasetId: "mlvu", name: "mlvu" },
    ]);
    expect(m.rows.map((r) => [r.modelName, r.mode, r.withTool])).toEqual([
      ["A", "direct", false],
      ["A", "agentic_general", true],
      ["B", "agentic_general", true],
    ]);
    const aTool = m.rows[1]!;
    expect(aTool.cells.mlvu).toMatchObject({ metric: "accuracy", value: 0.75, n: 4 });
    // Agresti-Coull (eval-quantities.ts binomialSE): p~ = (3 + 2) / (4 + 4).
    expect(aTool.cells.mlvu!.se).toBeCloseTo(Math.sqrt(((5 / 8) * (3 / 8)) / 8), 12);
    expect(aTool.cells.charades!.metric).toBe("mIoU");
    expect(aTool.cells.charades!.value).toBeCloseTo(0.4, 12);
    // mIoU's standard error: sample SD (0.2828) / sqrt(2) = 0.2.
    expect(aTool.cells.charades!.n).toBe(2);
    expect(aTool.cells.charades!.se).toBeCloseTo(0.2, 12);
    // (0.75 + 0.4) / 2
    expect(aTool.average).toBeCloseTo(0.575, 12);
    expect(m.rows[0]!.cells.charades).toBeUndefined();
    expect(m.rows[0]!.average).toBe(0.25);
  });

  it("gives every cell one figure per question type of its run, each with n and standard error", () => {
    const mixed = summarize(
      [
        ...[true, false, true].map((correct) => ({
          status: "OK" as const,
          correct,
          score: null,
          toolCallCount: 0,
          questionType: "mcq" as const,
          duration: null,
          formatCompliant: null,
        })),
        ...[1, 0.5].map((score) => ({
          status: "OK" as const,
          correct: null,
          score,
          toolCallCount: 0,
          questionType: "oe" as const,
          duration: null,
          formatCompliant: null,
        })),
      ],
      5,
    );
    const cell = buildMatrix([run("a", "mmvu", "direct", mixed)]).rows[0]!.cells.mmvu!;
    expect(cell).toMatchObject({ metric: "accuracy", value: 2 / 3, n: 3 });
    expect(cell.figures.map((f) => [f.quantity, f.n])).toEqual([
      ["accuracy", 3],
      ["score", 2],
    ]);
    // Agresti-Coull: p~ = (2 + 2) / (3 + 4).
    expect(cell.figures[0]!.se).toBeCloseTo(Math.sqrt(((4 / 7) * (3 / 7)) / 7), 12);
    // Open-ended score 0.75 with sample SD sqrt(0.125) over 2: SE 0.25.
    expect(cell.figures[1]!.value).toBeCloseTo(0.75, 12);
    expect(cell.figures[1]!.se).toBeCloseTo(0.25, 12);
    // An open-ended-only dataset heads with its score (it was "—" as a missing accuracy).
    const oeOnly = { ...mixed, mcq: null };
    expect(buildMatrix([run("a", "oe", "direct", oeOnly)]).rows[0]!.cells.oe).toMatchObject({
      metric: "score",
      n: 2,
      se: cell.figures[1]!.se,
    });
  });

  it("shows the latest finished run when a cell has several", () => {
    const older = run("a", "mlvu", "direct", mcq(1, 2));
    const newer = run("a", "mlvu", "direct", mcq(2, 2));
    const running = run("a", "mlvu", "direct", mcq(0, 2), { status: "RUNNING" });
    const m = buildMatrix([newer, running, older]);
    expect(m.rows).toHaveLength(1);
    expect(m.rows[0]!.cells.mlvu).toMatchObject({ runId: newer.id, value: 1 });
  });
});
