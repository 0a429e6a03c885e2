import type { CompareColumnOutput } from "@paravt/shared";
import Link from "next/link";
import type { ReactNode } from "react";
import { MODE_LABEL } from "../evals/format";
import { OutcomeBadge } from "../evals/episode-overview";
import { StatusBadge } from "../ui/badge";

function Row({
  label,
  columns,
  cell,
}: {
  label: string;
  columns: CompareColumnOutput[];
  cell: (c: CompareColumnOutput) => ReactNode;
}) {
  return (
    <tr className="align-top">
      <th scope="row" className="border-b border-line px-3 py-2 text-left text-xs font-medium text-muted">
        {label}
      </th>
      {columns.map((c) => (
        <td key={c.run.id} className="min-w-0 border-b border-line px-3 py-2 text-sm [overflow-wrap:anywhere]">
          {cell(c)}
        </td>
      ))}
    </tr>
  );
}

const dash = <span className="text-muted">—</span>;

/** Answers, correctness, latency and tool calls of each compared run, one column per model. */
export function CompareTable({ projectId, columns }: { projectId: string; columns: CompareColumnOutput[] }) {
  return (
    <div className="min-w-0 overflow-x-auto rounded-lg border border-line bg-surface">
      {/* Fixed layout: the model columns share the width equally and long names or answers wrap or
          truncate (full text in a title) instead of widening the page. */}
      <table
        aria-label="Side by side"
        className="w-full table-fixed border-collapse [&_tbody_tr:last-child>*]:border-b-0"
      >
        <thead>
          <tr>
            <th className="w-28 border-b border-line px-3 py-2" />
            {columns.map((c, i) => (
              <th key={c.run.id} scope="col" className="border-b border-line px-3 py-2 text-left text-sm font-semibold">
                <span className="flex min-w-0 items-center gap-2">
                  <span className="text-xs text-muted">{i + 1}.</span>
                  <Link
                    href={`/projects/${projectId}/runs/${c.run.id}`}
                    className="min-w-0 truncate hover:underline"
                    title={c.run.model?.name ?? "deleted model"}
                  >
                    {c.run.model?.name ?? "deleted model"}
                  </Link>
                </span>
                <span className="mt-0.5 block text-xs font-normal text-muted">
                  {MODE_LABEL[c.run.mode]} · K = {c.run.k}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <Row label="Status" columns={columns} cell={(c) => <StatusBadge status={c.run.status} />} />
          <Row
            label="Answer"
            columns={columns}
            cell={(c) =>
              c.episode ? (
                <span
                  className="line-clamp-3 font-mono [overflow-wrap:anywhere]"
                  title={c.episode.prediction ?? undefined}
                  data-testid="compare-answer"
                >
                  {c.episode.prediction ?? dash}
                </span>
              ) : (
                <span className="text-muted">
                  {c.run.status === "QUEUED" || c.run.status === "RUNNING" ? "running…" : "no episode"}
                </span>
              )
            }
          />
          <Row
            label="Outcome"
            columns={columns}
            cell={(c) =>
              c.episode ? (
                <span className="flex flex-col gap-1">
                  <OutcomeBadge e={c.episode} />
                  {c.episode.error && <span className="text-xs text-danger">{c.episode.error}</span>}
                </span>
              ) : (
                dash
              )
            }
          />
          <Row
            label="Latency"
            columns={columns}
            cell={(c) =>
              c.latencyMs == null ? dash : <span className="tabular-nums">{(c.latencyMs / 1000).toFixed(2)} s</span>
            }
          />
          <Row
            label="Tool calls"
            columns={columns}
            cell={(c) => (c.toolCalls == null ? dash : <span className="tabular-nums">{c.toolCalls}</span>)}
          />
          <Row
            label="Turns"
            columns={columns}
            cell={(c) => (c.episode ? <span className="tabular-nums">{c.episode.turnCount}</span> : dash)}
          />
          <Row
            label="Final response"
            columns={columns}
            cell={(c) =>
              c.episode?.finalText ? (
                <pre className="max-h-40 overflow-auto whitespace-pre-wrap font-mono [overflow-wrap:anywhere] text-xs">
                  {c.episode.finalText}
                </pre>
              ) : (
                dash
              )
            }
          />
          <Row
            label="Episode"
            columns={columns}
            cell={(c) =>
              c.episode ? (
                <Link href={`/projects/${projectId}/episodes/${c.episode.id}`} className="text-accent hover:underline">
                  Open transcript
                </Link>
              ) : (
                dash
              )
            }
          />
        </tbody>
      </table>
    </div>
  );
}
