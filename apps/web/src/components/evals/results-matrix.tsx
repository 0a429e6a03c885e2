"use client";
import { EVAL_QUANTITIES, type EvalMatrixOutput } from "@paravt/shared";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { cn } from "../ui/cn";
import { Th } from "../ui/table";
import { MODE_LABEL, pct, seText } from "./format";
import { AVERAGE_KEY, averageOver, bestMarks, MIN_BEST_N_PARAM, minBestNFrom, type BestMarks } from "./matrix-best";

type Row = EvalMatrixOutput["rows"][number];
type Cell = Row["cells"][string];

const SECTIONS = [
  { withTool: false, title: "No tool" },
  { withTool: true, title: "With tool" },
] as const;

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
  // Every per-question-type figure of the run, headline included; a run with none shows "—".
  const figures = cell.figures.length
    ? cell.figures
    : [{ quantity: cell.metric, value: cell.value, n: cell.n, se: cell.se }];
  return (
    <span className="inline-flex flex-col items-end">
      {figures.map((f, i) => (
        <span key={f.quantity} className="whitespace-nowrap" title={EVAL_QUANTITIES[f.quantity].definition}>
          <span
            className={cn("tabular-nums", best && f.quantity === cell.metric && "font-semibold", !done && "text-muted")}
          >
            {pct(f.value)}
          </span>
          {f.value !== null && f.se !== null && (
            <span className="ml-1 text-[10px] tabular-nums text-muted" aria-label={`standard error ${seText(f.se)}`}>
              {seText(f.se)}
            </span>
          )}
          <span className="ml-1 text-[10px] text-muted">{EVAL_QUANTITIES[f.quantity].short}</span>
          <span className="ml-1 text-[10px] tabular-nums text-muted" data-testid="figure-n">
            n={f.n}
          </span>
          {i === 0 && cell.errors > 0 && (
            <sup
              className="ml-1 rounded bg-danger/10 px-1 text-[10px] font-medium text-danger"
              title={`${cell.errors} sample${cell.errors === 1 ? "" : "s"} failed (not counted as wrong)`}
              aria-label={`${cell.errors} errors`}
            >
              {cell.errors} err
            </sup>
          )}
        </span>
      ))}
      {note && <span className={cn("text-[10px]", note.tone)}>{note.text}</span>}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The "best" rule's minimum n (`?minN=`), why a column has no best, and what bold means. */
function BestNote({ minN, marks }: { minN: number; marks: BestMarks }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const setMinN = (value: string) => {
    const next = new URLSearchParams(params.toString());
    const n = Number(value);
    if (Number.isSafeInteger(n) && n >= 1) next.set(MIN_BEST_N_PARAM, String(n));
    else next.delete(MIN_BEST_N_PARAM);
    const q = next.toString();
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };
  return (
    <div className="flex flex-col gap-1 border-t border-line px-4 py-2 text-xs text-muted" data-testid="best-note">
      <div className="flex flex-wrap items-center gap-2">
        <span>
          Bold: the best headline value of a column, marked only when every value in it is from a finished run over at
          least
        </span>
        <label className="inline-flex items-center gap-1">
          <span className="sr-only">Minimum samples for best</span>
          <input
            type="number"
            min={1}
            step={1}
            defaultValue={minN}
            key={minN}
            onBlur={(e) => setMinN(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") setMinN(e.currentTarget.value);
            }}
            className="w-16 rounded border border-line bg-surface px-1 py-0.5 text-right tabular-nums text-fg"
          />
        </label>
        <span>samples (n). ± is the standard error (for accuracy Agresti-Coull, so 0 % and 100 % keep theirs).</span>
      </div>
      {marks.withheld.map((w) => (
        <span key={w.key}>
          No best in {w.name}: {w.reason}.
        </span>
      ))}
    </div>
  );
}

/**
 * Results like the paper's main table: one row per (model, prompt mode, K), "no tool" rows
 * (direct, reasoning) above "with tool" rows (agentic), one column per dataset plus the row's
 * average. Each cell lists its run's figure per question type (accuracy, score, mIoU × 100; the
 * glossary of eval-quantities.ts), each with its standard error and n; errors are counted next to
 * the value, never folded into it. Bold marks a column's best only on at least `minN` samples
 * (matrix-best.ts). Each cell opens its run's samples.
 */
export function ResultsMatrix(props: { projectId: string; matrix: EvalMatrixOutput }) {
  // useSearchParams (the "best" rule's minimum n) needs a Suspense boundary.
  return (
    <Suspense fallback={<MatrixTable {...props} minN={minBestNFrom(null)} />}>
      <MatrixWithParams {...props} />
    </Suspense>
  );
}

function MatrixWithParams(props: { projectId: string; matrix: EvalMatrixOutput }) {
  return <MatrixTable {...props} minN={minBestNFrom(useSearchParams())} withControl />;
}

function MatrixTable({
  projectId,
  matrix,
  minN,
  withControl = false,
}: {
  projectId: string;
  matrix: EvalMatrixOutput;
  minN: number;
  withControl?: boolean;
}) {
  const marks = bestMarks(matrix.rows, matrix.columns, minN);
  const best = marks.best;
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
                        r.average !== null && best.get(AVERAGE_KEY) === r.average && "font-semibold",
                      )}
                    >
                      {pct(r.average)}
                      {r.average !== null && (
                        <span
                          className="ml-1 text-[10px] font-normal text-muted"
                          title="Mean of the row's headline figures"
                        >
                          of {averageOver(r)}
                        </span>
                      )}
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
      {withControl && matrix.rows.length > 0 && <BestNote minN={minN} marks={marks} />}
    </div>
  );
}
