"use client";
// The Training tab's runs table (issue 41 item 11): one row per run, the picked columns, sortable
// headers, optional groups by a setting (a header row with the count and each summary column's
// mean) and a checkbox per training run to overlay it. Every control is a native button, link or
// checkbox, so the table works from the keyboard.
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { MAX_OVERLAY_RUNS } from "./overlay";
import { formatCell, headlineText, stepsText, type TableColumn, type TableRun } from "./runs-table-columns";
import type { RunGroup, SortSpec } from "./runs-table-model";

export interface RunsTableProps {
  projectId: string;
  columns: TableColumn[];
  /** The rows to draw, already filtered and sorted; grouped when `groups` is given. */
  runs: TableRun[];
  groups: { column: TableColumn; groups: RunGroup[] } | null;
  sort: SortSpec | null;
  onSort: (key: string) => void;
  selected: readonly string[];
  onToggle: (runId: string) => void;
  /** What the empty table says. */
  empty: string;
}

const KIND_LABEL: Record<string, string> = { sft: "SFT", rl: "RL", eval: "Eval", import: "Import", job: "Job" };

export function RunsTable(props: RunsTableProps) {
  const { columns, groups, runs } = props;
  const width = columns.length + 2;
  return (
    <Table label="Training runs">
      <thead>
        <tr>
          <Th className="w-8 px-3">
            <span className="sr-only">Overlay</span>
          </Th>
          <SortHeader label="Run" columnKey="name" sort={props.sort} onSort={props.onSort} />
          {columns.map((c) => (
            <SortHeader key={c.key} label={c.label} columnKey={c.key} sort={props.sort} onSort={props.onSort} />
          ))}
        </tr>
      </thead>
      {groups ? (
        groups.groups.map((g) => (
          <tbody key={g.value === null ? "\u0000none" : String(g.value)}>
            <GroupHeader column={groups.column} group={g} columns={columns} />
            {g.runs.map((r) => (
              <RunRow key={r.row.id} run={r} {...props} />
            ))}
          </tbody>
        ))
      ) : (
        <tbody>
          {runs.map((r) => (
            <RunRow key={r.row.id} run={r} {...props} />
          ))}
        </tbody>
      )}
      {runs.length === 0 && (
        <tbody>
          <EmptyRow colSpan={width}>{props.empty}</EmptyRow>
        </tbody>
      )}
    </Table>
  );
}

function SortHeader({
  label,
  columnKey,
  sort,
  onSort,
}: {
  label: string;
  columnKey: string;
  sort: SortSpec | null;
  onSort: (key: string) => void;
}) {
  const dir = sort?.key === columnKey ? sort.dir : null;
  return (
    <Th aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"} className="whitespace-nowrap">
      <button
        type="button"
        onClick={() => onSort(columnKey)}
        title={`Sort by ${label}${dir === "asc" ? " (descending next)" : dir === "desc" ? " (unsorted next)" : ""}`}
        className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span className="normal-case">{label}</span>
        <span aria-hidden className={cn("text-[10px]", dir ? "text-accent" : "text-line")}>
          {dir === "desc" ? "▼" : "▲"}
        </span>
      </button>
    </Th>
  );
}

function GroupHeader({ column, group, columns }: { column: TableColumn; group: RunGroup; columns: TableColumn[] }) {
  const n = group.runs.length;
  return (
    <tr className="bg-surface-2/60">
      <th scope="rowgroup" colSpan={2} className="border-b border-line px-4 py-2 text-left text-sm font-semibold">
        {column.label} = {group.value === null ? "(none)" : formatCell(column, group.value)}{" "}
        <span className="ml-1 font-normal text-muted">
          {n} {n === 1 ? "run" : "runs"}
        </span>
      </th>
      {columns.map((c) => {
        const mean = group.means.get(c.key);
        return (
          <td key={c.key} className="border-b border-line px-4 py-2 font-mono text-xs text-muted">
            {mean === undefined ? "" : `mean ${formatCell(c, mean)}`}
          </td>
        );
      })}
    </tr>
  );
}

function RunRow({ run, projectId, columns, selected, onToggle }: RunsTableProps & { run: TableRun }) {
  const { row } = run;
  const base = `/projects/${projectId}`;
  const picked = selected.includes(row.id);
  const full = !picked && selected.length >= MAX_OVERLAY_RUNS;
  return (
    <tr data-testid={`training-run-${row.id}`} className={picked ? "bg-accent/5" : undefined}>
      <Td className="w-8 px-3">
        {run.overlayable && (
          <input
            type="checkbox"
            aria-label={`Overlay ${row.name}`}
            title={full ? `At most ${MAX_OVERLAY_RUNS} runs overlay` : undefined}
            checked={picked}
            disabled={full}
            onChange={() => onToggle(row.id)}
          />
        )}
      </Td>
      <Td className="min-w-56 max-w-md">
        {/* Two lines before the ellipsis: runs of one launch share a long prefix and differ at the end. */}
        <Link
          href={`${base}/runs/${row.id}`}
          title={row.name}
          className="line-clamp-2 font-medium [overflow-wrap:anywhere] hover:text-accent hover:underline"
        >
          {row.name}
        </Link>
        <div className="font-mono text-xs text-muted">
          {KIND_LABEL[row.kind] ?? row.kind}
          {row.jobName === "external" ? " · external" : ""}
        </div>
      </Td>
      {columns.map((c) => (
        <Cell key={c.key} column={c} run={run} base={base} />
      ))}
    </tr>
  );
}

function Cell({ column, run, base }: { column: TableColumn; run: TableRun; base: string }) {
  const { row } = run;
  const named = (ref: { id: string; name: string } | null, href: (id: string) => string) =>
    ref ? (
      <Link href={href(ref.id)} title={ref.name} className="block truncate hover:text-accent hover:underline">
        {ref.name}
      </Link>
    ) : (
      <span className="text-muted">—</span>
    );
  switch (column.key) {
    case "status":
      return (
        <Td>
          <StatusBadge status={row.status} />
          {row.error && (
            <div className="max-w-xs truncate text-xs text-danger" title={row.error}>
              {row.error}
            </div>
          )}
        </Td>
      );
    case "headline":
      return <Td className="whitespace-nowrap font-mono text-xs">{headlineText(run)}</Td>;
    case "steps":
      return <Td className="whitespace-nowrap font-mono text-xs">{stepsText(row)}</Td>;
    case "produced":
      return <Td className="max-w-48">{named(row.producedModel, (id) => `${base}/models#model-${id}`)}</Td>;
    case "model":
      return <Td className="max-w-48">{named(row.model, (id) => `${base}/models#model-${id}`)}</Td>;
    case "dataset":
      return <Td className="max-w-48">{named(row.dataset, (id) => `${base}/datasets/${id}`)}</Td>;
  }
  const value = run.values.get(column.key) ?? null;
  const text = formatCell(column, value);
  const time = column.key === "created" || column.key === "started" || column.key === "finished";
  return (
    <Td
      className={cn(
        "max-w-56 truncate",
        typeof value === "number" && !time ? "font-mono text-xs" : "",
        value === null || time ? "text-muted" : "",
      )}
      title={time && typeof value === "number" ? new Date(value).toLocaleString() : text}
    >
      {text}
    </Td>
  );
}
