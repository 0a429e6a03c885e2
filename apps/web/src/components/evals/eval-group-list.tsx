"use client";
import type { EvalGroupOutput } from "@paravt/shared";
import Link from "next/link";
import { useState } from "react";
import { timeAgo } from "../format";
import { StatusBadge } from "../ui/badge";
import { Card } from "../ui/card";
import { Progress } from "../ui/progress";
import { EvalRunsTable } from "./eval-runs-table";

/** Counts of each status among a group's runs, in lifecycle order. */
function statusCounts(group: EvalGroupOutput): [string, number][] {
  const order = ["RUNNING", "QUEUED", "SUCCEEDED", "FAILED", "CANCELLED"];
  const counts = new Map<string, number>();
  for (const r of group.runs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return order.filter((s) => counts.has(s)).map((s) => [s, counts.get(s)!]);
}

function GroupCard({
  projectId,
  group: g,
  canCancel,
  expanded,
}: {
  projectId: string;
  group: EvalGroupOutput;
  canCancel: boolean;
  expanded: boolean;
}) {
  // Finished groups fold their runs away (the matrix link stays); the choice is the reader's after.
  const [open, setOpen] = useState(expanded);
  const progress = g.runs.reduce((a, r) => a + r.progress, 0) / Math.max(1, g.runs.length);
  const href = `/projects/${projectId}/evals/${g.id}`;
  return (
    <Card className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Link href={href} className="text-base font-semibold hover:text-accent hover:underline">
            {g.name}
          </Link>
          <span className="text-xs text-muted">
            {g.runs.length} run{g.runs.length === 1 ? "" : "s"} · {timeAgo(g.createdAt)}
          </span>
          {statusCounts(g).map(([s, n]) => (
            <span key={s} className="flex items-center gap-1 text-xs text-muted">
              <StatusBadge status={s} /> {n}
            </span>
          ))}
        </div>
        <div className="flex items-center gap-3">
          <Progress value={progress} label={`Progress of ${g.name}`} />
          <Link href={href} className="text-sm text-accent hover:underline">
            Results matrix →
          </Link>
        </div>
      </div>
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="cursor-pointer text-sm text-muted hover:text-fg">
          {open ? "Hide runs" : `Show ${g.runs.length} run${g.runs.length === 1 ? "" : "s"}`}
        </summary>
        <div className="mt-3">
          <EvalRunsTable projectId={projectId} runs={g.runs} canCancel={canCancel} label={`Runs of ${g.name}`} />
        </div>
      </details>
    </Card>
  );
}

/** Recent evaluation groups, each with its runs' live status and progress. */
export function EvalGroupList({
  projectId,
  groups,
  canCancel,
}: {
  projectId: string;
  groups: readonly EvalGroupOutput[];
  canCancel: boolean;
}) {
  return (
    <div className="flex flex-col gap-4">
      {groups.map((g, i) => (
        <GroupCard
          key={g.id}
          projectId={projectId}
          group={g}
          canCancel={canCancel}
          expanded={i === 0 || g.runs.some((r) => r.status === "QUEUED" || r.status === "RUNNING")}
        />
      ))}
    </div>
  );
}
