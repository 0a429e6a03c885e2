// The results matrix of an evaluation group (SPEC §5 tables): one row per (model, prompt mode, K),
// marked with-tool (agentic modes) or no-tool (direct / reasoning), one column per dataset, plus
// the row's average. Each cell carries its headline figure and every per-question-type figure
// (MCQ accuracy, open-ended score, grounding mIoU) with n and standard error. Pure: built from run
// outputs whose summaries come from stored rows.
import { figuresOf, headlineOf, type QuantityFigure } from "../../contracts/eval-quantities";
import type { EvalMatrixOutput, EvalRunOutput, EvalSummary } from "../../contracts/evals";

type Cell = EvalMatrixOutput["rows"][number]["cells"][string];

/**
 * A dataset's headline number with its n and standard error: MCQ accuracy, else grounding mIoU,
 * else the open-ended score (eval-quantities.ts `headlineOf`, the one rule).
 */
export function headline(summary: EvalSummary): {
  metric: Cell["metric"];
  value: number | null;
  n: number;
  se: number | null;
} {
  const h: QuantityFigure = headlineOf(summary);
  return { metric: h.quantity, value: h.value, n: h.n, se: h.se };
}

/**
 * When one cell has several runs (a re-run, an import next to a live run), the latest finished
 * one wins; a run still going only shows while nothing has finished.
 */
function better(a: EvalRunOutput, b: EvalRunOutput): EvalRunOutput {
  const done = (r: EvalRunOutput) => r.status === "SUCCEEDED";
  if (done(a) !== done(b)) return done(a) ? a : b;
  return a.createdAt >= b.createdAt ? a : b;
}

export function buildMatrix(runs: readonly EvalRunOutput[]): EvalMatrixOutput {
  const columns = new Map<string, string>();
  const rows = new Map<string, { run: Omit<EvalRunOutput, "dataset">; byDataset: Map<string, EvalRunOutput> }>();
  for (const r of runs) {
    if (!r.model || !r.dataset) continue; // model or dataset deleted: nothing to place it under
    columns.set(r.dataset.id, r.dataset.name);
    const key = `${r.model.id}|${r.mode}|${r.k}`;
    const row = rows.get(key) ?? { run: r, byDataset: new Map<string, EvalRunOutput>() };
    const prev = row.byDataset.get(r.dataset.id);
    row.byDataset.set(r.dataset.id, prev ? better(prev, r) : r);
    rows.set(key, row);
  }
  const out = [...rows.values()].map(({ run, byDataset }) => {
    const cells: Record<string, Cell> = {};
    for (const [datasetId, r] of byDataset) {
      cells[datasetId] = {
        runId: r.id,
        ...headline(r.summary),
        figures: figuresOf(r.summary),
        answered: r.summary.answered,
        errors: r.summary.errors,
        status: r.status,
      };
    }
    const values = Object.values(cells)
      .map((c) => c.value)
      .filter((v): v is number => v !== null);
    return {
      modelId: run.model!.id,
      modelName: run.model!.name,
      mode: run.mode,
      k: run.k,
      withTool: run.withTool,
      cells,
      average: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
    };
  });
  out.sort(
    (a, b) =>
      a.modelName.localeCompare(b.modelName) ||
      Number(a.withTool) - Number(b.withTool) ||
      a.mode.localeCompare(b.mode) ||
      a.k - b.k,
  );
  return {
    columns: [...columns.entries()]
      .map(([datasetId, name]) => ({ datasetId, name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    rows: out,
  };
}
