"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { MetricChart } from "@/components/metric-chart";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

const SERIES: { name: string; title: string; format?: (v: number) => string }[] = [
  { name: "loss", title: "loss" },
  { name: "token_accuracy", title: "token accuracy", format: (v) => `${(v * 100).toFixed(1)}%` },
  { name: "tokens_per_s", title: "tokens/s", format: (v) => v.toFixed(0) },
  { name: "grad_norm", title: "grad norm" },
  { name: "lr", title: "learning rate", format: (v) => v.toExponential(1) },
  { name: "step_time_ms", title: "step time (ms)", format: (v) => v.toFixed(0) },
];

export default function RunPage() {
  const { runId } = useParams<{ runId: string }>();
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const live = useLiveRuns(projectId);
  const run = useQuery(trpc.runs.byId.queryOptions({ projectId, runId }));
  const series = useQuery({
    ...trpc.runs.metrics.queryOptions({ projectId, runId, names: SERIES.map((s) => s.name) }),
    enabled: run.data?.kind === "sft" || run.data?.kind === "rl",
  });
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: () => void run.refetch() }));

  if (run.error) return <Alert>{errorMessage(run.error)}</Alert>;
  const r = run.data;
  if (!r) return null;
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
        </div>
      </div>
      <p className="text-sm text-muted">
        {r.message ?? ""} · started by {r.createdBy ?? "system"} · created {timeAgo(r.createdAt)}
        {r.attempts > 1 && ` · attempt ${r.attempts}`}
      </p>
      {r.error && <Alert>{r.error}</Alert>}
      {series.data && (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {SERIES.map((s) => {
            const data = series.data.find((d) => d.name === s.name);
            return (
              <MetricChart
                key={s.name}
                title={s.title}
                points={data?.points ?? []}
                total={data?.total ?? 0}
                format={s.format}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}
