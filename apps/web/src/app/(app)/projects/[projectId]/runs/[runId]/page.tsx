"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { Suspense } from "react";
import { EvalRunView } from "@/components/evals/eval-run-view";
import { timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CompareRunsPicker } from "@/components/training/compare-runs-picker";
import { BuildQueueForm } from "@/components/reviews/build-queue-form";
import { ResumeRunButton } from "@/components/runs/resume-run-button";
import { TrainingRunView } from "@/components/training/training-run-view";
import { Progress } from "@/components/ui/progress";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function RunPage() {
  const { runId } = useParams<{ runId: string }>();
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  // Its charts append new points, a new series or step's rollouts appear: useLiveRuns does it all
  // from what each event says changed.
  const live = useLiveRuns(projectId);
  const run = useQuery(trpc.runs.byId.queryOptions({ projectId, runId }));
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: () => void run.refetch() }));

  if (run.error) return <Alert>{errorMessage(run.error)}</Alert>;
  const r = run.data;
  if (!r) return null;
  // One URL per run: an evaluation's page is its summary and per-sample rows.
  if (r.kind === "eval" || r.kind === "import") {
    return (
      <EvalRunView
        projectId={projectId}
        runId={runId}
        liveStatus={live.status}
        canCancel={can("runs.cancel")}
        canReview={can("reviews.queue.create")}
        canLaunch={can("runs.launch")}
      />
    );
  }
  const active = r.status === "QUEUED" || r.status === "RUNNING";
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Link href={`/projects/${projectId}/jobs`} className="text-sm text-muted hover:text-fg">
            Jobs /
          </Link>
          <h1 className="text-lg font-semibold" data-testid="run-name">
            {r.name}
          </h1>
          <StatusBadge status={r.status} />
          <span className="font-mono text-xs text-muted">{r.jobName}</span>
        </div>
        <div className="flex items-center gap-3">
          <LiveBadge status={live.status} />
          <Progress value={r.progress} label={`Progress of ${r.name}`} />
          {can("runs.cancel") && active && (
            <Button size="sm" variant="secondary" onClick={() => cancel.mutate({ projectId, runId })}>
              Cancel
            </Button>
          )}
          {can("runs.launch") && <ResumeRunButton projectId={projectId} run={r} />}
        </div>
      </div>
      <p className="text-sm text-muted">
        {[r.message, `started by ${r.createdBy ?? "system"}`, `created ${timeAgo(r.createdAt)}`]
          .filter(Boolean)
          .join(" · ")}
        {r.attempts > 1 && ` · attempt ${r.attempts}`}
      </p>
      {r.error && <Alert>{r.error}</Alert>}
      {(r.kind === "sft" || r.kind === "rl") && (
        <>
          <div>
            <CompareRunsPicker projectId={projectId} runId={runId} />
          </div>
          {/* RL runs keep sample rollouts as episodes: they can be reviewed like an evaluation's. */}
          {r.kind === "rl" && !active && can("reviews.queue.create") && (
            <BuildQueueForm projectId={projectId} runId={runId} />
          )}
          {/* useSearchParams (the dashboard's URL state, the rollouts' step) needs a Suspense boundary. */}
          <Suspense>
            <TrainingRunView
              projectId={projectId}
              run={{ id: r.id, name: r.name, kind: r.kind }}
              canLaunch={can("runs.launch")}
            />
          </Suspense>
        </>
      )}
    </div>
  );
}
