"use client";
import type { EvalSampleRow } from "@paravt/shared";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useRowKeys } from "@/lib/use-row-keys";
import { useSessionValue } from "@/lib/session-value";
import { Badge } from "../ui/badge";
import { cn } from "../ui/cn";
import { EmptyRow, Td, Th } from "../ui/table";
import { outcomeOf } from "./outcome";

function Outcome({ row }: { row: EvalSampleRow }) {
  const o = outcomeOf(row, row.questionType, 2);
  return <Badge tone={o.tone}>{o.text}</Badge>;
}

/** Where the selection of a run's filtered view is remembered, so Back returns to the same row. */
const memoryKey = (scope: string) => `paravt:samples-selection:${scope}`;

/**
 * Per-sample rows of an eval run. j / k move the selection, Enter opens the selected episode;
 * the selection survives a round trip to the episode (sessionStorage, per run and filter).
 */
export function SamplesTable({
  projectId,
  rows,
  scope,
  loading,
  onPastEnd,
  compareHref,
}: {
  projectId: string;
  rows: readonly EvalSampleRow[];
  /** Run id + filters: the selection belongs to one filtered view. */
  scope: string;
  loading: boolean;
  onPastEnd?: () => void;
  /** With a run to compare with: the comparison page of a sample (adds a "Compare" column). */
  compareHref?: (sampleId: string) => string;
}) {
  const router = useRouter();
  // From sessionStorage after hydration (useSessionValue): the server knows no remembered row.
  const [stored, store] = useSessionValue(memoryKey(scope));
  const selected = stored === null ? -1 : Number(stored);
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  const href = (r: EvalSampleRow) => `/projects/${projectId}/episodes/${r.episodeId}`;

  function select(i: number) {
    store(String(i));
  }
  useEffect(() => {
    // The row takes focus so Enter is ours, not the last clicked control's.
    const el = rowRefs.current[selected];
    if (el && document.activeElement !== el) el.focus({ preventScroll: true });
    el?.scrollIntoView({ block: "nearest" });
  }, [selected, rows.length]);

  useRowKeys({
    count: rows.length,
    selected,
    onSelect: select,
    onOpen: (i) => router.push(href(rows[i]!)),
    ...(onPastEnd ? { onPastEnd } : {}),
  });

  return (
    <div className="flex flex-col gap-2">
      <p id="samples-keys" className="text-xs text-muted">
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">j</kbd> /{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">k</kbd> move ·{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">Enter</kbd> opens the episode
      </p>
      <div className="overflow-x-auto rounded-lg border border-line bg-surface">
        <table
          aria-label="Samples"
          aria-describedby="samples-keys"
          aria-busy={loading}
          className="w-full border-collapse text-sm [&_tbody_tr:last-child_td]:border-b-0"
        >
          <thead>
            <tr>
              <Th>Sample</Th>
              <Th>Question</Th>
              <Th>Type</Th>
              <Th>Answer</Th>
              <Th>Prediction</Th>
              <Th>Outcome</Th>
              <Th className="text-right">Tool calls</Th>
              <Th className="text-right">K</Th>
              <Th>Duration</Th>
              {compareHref && <Th>Compare</Th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={r.episodeId}
                ref={(el) => {
                  rowRefs.current[i] = el;
                }}
                tabIndex={-1}
                aria-current={i === selected ? "true" : undefined}
                onClick={() => select(i)}
                className={cn(
                  "align-top outline-none",
                  i === selected ? "bg-accent/10 shadow-[inset_3px_0_0_var(--accent)]" : "hover:bg-surface-2/60",
                )}
              >
                <Td className="whitespace-nowrap">
                  <Link href={href(r)} className="font-mono text-xs text-accent hover:underline">
                    {r.key}
                  </Link>
                  {r.rolloutIndex > 0 && <span className="ml-1 text-xs text-muted">#{r.rolloutIndex}</span>}
                </Td>
                <Td className="max-w-md">
                  <p className="line-clamp-2" title={r.question}>
                    {r.question.split("\n")[0]}
                  </p>
                  {r.error && <p className="mt-1 line-clamp-2 text-xs text-danger">{r.error}</p>}
                </Td>
                <Td>
                  <Badge>{r.questionType}</Badge>
                </Td>
                <Td className="font-mono text-xs">{r.answer}</Td>
                <Td className="max-w-40 truncate font-mono text-xs" title={r.prediction ?? undefined}>
                  {r.prediction ?? <span className="text-muted">—</span>}
                </Td>
                <Td>
                  <Outcome row={r} />
                </Td>
                <Td className="text-right tabular-nums">{r.toolCallCount}</Td>
                <Td className="text-right tabular-nums">{r.k}</Td>
                <Td className="text-muted">{r.duration ?? "—"}</Td>
                {compareHref && (
                  <Td>
                    <Link href={compareHref(r.sampleId)} className="text-xs text-accent hover:underline">
                      compare
                    </Link>
                  </Td>
                )}
              </tr>
            ))}
            {!loading && rows.length === 0 && <EmptyRow colSpan={compareHref ? 10 : 9}>No samples match.</EmptyRow>}
          </tbody>
        </table>
      </div>
    </div>
  );
}
