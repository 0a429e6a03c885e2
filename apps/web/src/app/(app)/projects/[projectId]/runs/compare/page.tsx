"use client";
import { useQueries } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { ConfigDiffTable } from "@/components/training/config-diff-table";
import { MAX_OVERLAY_RUNS } from "@/components/training/compare-runs-picker";
import { RUN_COLORS, TrainingDashboard } from "@/components/training/training-dashboard";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Several training runs overlaid (`?runs=a,b[,c]`): one line per run in every chart, and their config diff. */
function CompareRuns() {
  const { projectId } = useProject();
  const trpc = useTRPC();
  const params = useSearchParams();
  const runIds = [
    ...new Set(
      (params.get("runs") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => ID.test(s)),
    ),
  ].slice(0, MAX_OVERLAY_RUNS);
  // New series and points of the overlaid runs arrive through useLiveRuns (their events).
  const live = useLiveRuns(projectId);
  const runs = useQueries({ queries: runIds.map((runId) => trpc.runs.byId.queryOptions({ projectId, runId })) });
  const error = runs.find((q) => q.error)?.error;
  const loaded = runs.map((q) => q.data).filter((r) => r !== undefined);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <Link href={`/projects/${projectId}/jobs`} className="text-sm text-muted hover:text-fg">
            Jobs /
          </Link>
          <h1 className="text-lg font-semibold">Compare training runs</h1>
        </div>
        <LiveBadge status={live.status} />
      </div>
      {runIds.length < 2 && <Alert tone="info">Pick two or more training runs (Compare… on a run page).</Alert>}
      {error && <Alert>{errorMessage(error)}</Alert>}
      <ul className="flex flex-wrap gap-4 text-sm" aria-label="Compared runs">
        {loaded.map((r, i) => (
          <li key={r.id} className="flex items-center gap-2">
            <span aria-hidden className="inline-block h-2 w-4 rounded" style={{ background: RUN_COLORS[i] }} />
            <Link href={`/projects/${projectId}/runs/${r.id}`} className="font-medium hover:underline">
              {r.name}
            </Link>
            <StatusBadge status={r.status} />
          </li>
        ))}
      </ul>
      {loaded.length === runIds.length && runIds.length >= 2 && (
        <>
          <TrainingDashboard projectId={projectId} runs={loaded.map((r) => ({ id: r.id, name: r.name }))} />
          <ConfigDiffTable projectId={projectId} runIds={runIds} />
        </>
      )}
    </div>
  );
}

export default function CompareRunsPage() {
  return (
    <Suspense>
      <CompareRuns />
    </Suspense>
  );
}
