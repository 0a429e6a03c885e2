import type { EvalMatrixOutput } from "@paravt/shared";
import Link from "next/link";
import { cn } from "../ui/cn";
import { Th } from "../ui/table";
import { MODE_LABEL, pct } from "./format";

type Row = EvalMatrixOutput["rows"][number];
type Cell = Row["cells"][string];

const SECTIONS = [
  { withTool: false, title: "No tool" },
  { withTool: true, title: "With tool" },
] as const;

/**
 * The best value of each column (and of Average), for bold like the paper's tables. A column
 * whose values are all equal has no best (bolding every 0.0 would only be noise).
 */
function bestOf(rows: readonly Row[], columns: EvalMatrixOutput["columns"]) {
  const best = new Map<string, number>();
  const column = (key: string, values: (number | null | undefined)[]) => {
    const nums = values.filter((v): v is number => v != null);
    if (nums.length > 1 && Math.max(...nums) > Math.min(...nums)) best.set(key, Math.max(...nums));
  };
  for (const c of columns)
    column(
      c.datasetId,
      rows.map((r) => r.cells[c.datasetId]?.value),
    );
  column(
    "average",
    rows.map((r) => r.average),
  );
  return best;
}

function CellBody({ cell, best, label }: { cell: Cell; best: boolean; label: string }) {
  const done = cell.status === "SUCCEEDED";
  const note =
    cell.status === "RUNNING" || cell.status === "QUEUED"
      ? { text: cell.status === "RUNNING" ? "running" : "queued", tone: "text-accent" }
      : cell.status === "FAILED"
        ? { text: "failed", tone: "text-danger" }
        : cell.status === "CANCELLED"
          ? { text: "cancelled", tone: "text-warning" }
          : null;
  return (
    <span className="inline-flex flex-col items-end">
      <span className="whitespace-nowrap">
        <span className={cn("tabular-nums", best && done && "font-semibold", !done && "text-muted")}>
          {pct(cell.value)}
        </span>
        {cell.metric === "mIoU" && cell.value !== null && <span className="ml-1 text-[10px] text-muted">mIoU</span>}
        {cell.errors > 0 && (
          <sup
            className="ml-1 rounded bg-danger/10 px-1 text-[10px] font-medium text-danger"
            title={`${cell.errors} sample${cell.errors === 1 ? "" : "s"} failed (not counted as wrong)`}
            aria-label={`${cell.errors} errors`}
          >
            {cell.errors} err
          </sup>
        )}
      </span>
      {note && <span className={cn("text-[10px]", note.tone)}>{note.text}</span>}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * Results like the paper's main table: one row per (model, prompt mode, K), "no tool" rows
 * (direct, reasoning) above "with tool" rows (agentic), one column per dataset plus the row's
 * average. MCQ accuracy in %, grounding as mIoU × 100; errors are counted next to the value,
 * never folded into it. Each cell opens its run's samples.
 */
export function ResultsMatrix({ projectId, matrix }: { projectId: string; matrix: EvalMatrixOutput }) {
  const best = bestOf(matrix.rows, matrix.columns);
  const width = 3 + matrix.columns.length + 1;
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table aria-label="Results matrix" className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <Th>Model</Th>
            <Th>Mode</Th>
            <Th className="text-right">K</Th>
            {matrix.columns.map((c) => (
              <Th key={c.datasetId} className="text-right normal-case!">
                {c.name}
              </Th>
            ))}
            <Th className="text-right">Average</Th>
          </tr>
        </thead>
        {SECTIONS.map((section) => {
          const rows = matrix.rows.filter((r) => r.withTool === section.withTool);
          if (!rows.length) return null;
          return (
            <tbody key={section.title}>
              <tr>
                <th
                  colSpan={width}
                  scope="rowgroup"
                  className="border-b border-line bg-surface-2/60 px-4 py-1.5 text-left text-xs font-semibold uppercase tracking-wide text-muted"
                >
                  {section.title}
                </th>
              </tr>
              {rows.map((r) => {
                const setting = `${r.modelName} · ${MODE_LABEL[r.mode]} · K=${r.k}`;
                return (
                  <tr key={`${r.modelId}|${r.mode}|${r.k}`} className="border-b border-line last:border-b-0">
                    <td className="px-4 py-2.5 font-medium">{r.modelName}</td>
                    <td className="px-4 py-2.5 text-muted">{MODE_LABEL[r.mode]}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums text-muted">{r.k}</td>
                    {matrix.columns.map((c) => {
                      const cell = r.cells[c.datasetId];
                      return (
                        <td key={c.datasetId} className="px-4 py-2.5 text-right">
                          {cell ? (
                            <Link
                              href={`/projects/${projectId}/runs/${cell.runId}`}
                              className="inline-block rounded px-1 hover:bg-accent/10 hover:text-accent"
                              title={`${cell.answered} answered, ${cell.errors} errors, ${cell.status.toLowerCase()} — open the samples`}
                            >
                              <CellBody
                                cell={cell}
                                best={cell.value !== null && best.get(c.datasetId) === cell.value}
                                label={`${setting} on ${c.name}`}
                              />
                            </Link>
                          ) : (
                            <span className="text-muted">—</span>
                          )}
                        </td>
                      );
                    })}
                    <td
                      className={cn(
                        "px-4 py-2.5 text-right tabular-nums",
                        r.average !== null && best.get("average") === r.average && "font-semibold",
                      )}
                    >
                      {pct(r.average)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          );
        })}
        {matrix.rows.length === 0 && (
          <tbody>
            <tr>
              <td colSpan={width} className="px-4 py-8 text-center text-sm text-muted">
                No results yet.
              </td>
            </tr>
          </tbody>
        )}
      </table>
    </div>
  );
}
