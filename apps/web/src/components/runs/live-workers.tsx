"use client";
import type { LiveWorkersOutput } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { timeAgo } from "@/components/format";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { useTRPC } from "@/trpc/client";

/** Worker announcements expire after three missed beats (5 s each by default): poll at that pace. */
const POLL_MS = 5_000;

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 10 * 2 ** 30 ? 1 : 0)} GiB`;

/** The worker processes alive now (issue 39 item 6), on the Jobs page. */
export function LiveWorkers({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.runs.workers.queryOptions({ projectId }), refetchInterval: POLL_MS });
  const workers = q.data?.workers ?? [];
  return (
    <Card className="mb-6">
      <CardHeader
        title="Workers"
        description={
          q.isLoading
            ? "Looking for live workers…"
            : workers.length
              ? `${workers.length} live worker process${workers.length === 1 ? "" : "es"}, each announcing itself every few seconds.`
              : "No live worker: queued jobs wait until one starts (npm start runs one; see docs/gpu-workers.md for more machines)."
        }
      />
      {q.error && <p className="text-sm text-danger">Could not read the workers: {q.error.message}</p>}
      {workers.length > 0 && (
        <ul className="divide-y divide-line text-sm" aria-label="Live workers">
          {workers.map((w) => (
            <WorkerRow key={w.id} worker={w} projectId={projectId} />
          ))}
        </ul>
      )}
      {(q.data?.unreadable ?? 0) > 0 && (
        <p className="mt-2 text-xs text-warning">
          {q.data!.unreadable} announcement(s) of another version of the worker could not be read.
        </p>
      )}
    </Card>
  );
}

function WorkerRow({ worker: w, projectId }: { worker: LiveWorkersOutput["workers"][number]; projectId: string }) {
  const busy = w.active.length + w.otherJobs;
  return (
    <li className="flex flex-wrap items-start gap-x-6 gap-y-1 py-2" data-testid={`worker-${w.pid}`}>
      <div className="min-w-48">
        <div className="font-medium">
          {w.host} <span className="font-mono text-xs text-muted">pid {w.pid}</span>
        </div>
        <div className="text-xs text-muted">
          started {timeAgo(new Date(w.startedAt))} · seen {timeAgo(new Date(w.seenAt))}
        </div>
      </div>
      <div className="flex items-center gap-1">
        {w.queues.map((queueName) => (
          <Badge key={queueName} tone={queueName === "gpu" ? "accent" : "neutral"}>
            {queueName} queue
          </Badge>
        ))}
      </div>
      <div className="min-w-64 text-xs">
        <div>
          <span className="font-mono">{w.backend}</span> core · {w.device}
        </div>
        <div className="text-muted">
          {w.cores} cores · {gib(w.memoryBytes)} · {w.concurrency} job{w.concurrency === 1 ? "" : "s"} at a time
        </div>
      </div>
      <div className="flex-1 text-xs">
        {busy === 0 && <span className="text-muted">idle</span>}
        {w.active.map((a) => (
          <div key={`${a.runId}-${a.since}`}>
            <Link
              href={`/projects/${projectId}/runs/${a.runId}`}
              className="font-mono hover:text-accent hover:underline"
            >
              {a.jobName}
            </Link>{" "}
            <span className="text-muted">since {timeAgo(new Date(a.since))}</span>
          </div>
        ))}
        {w.otherJobs > 0 && (
          <div className="text-muted">
            {w.otherJobs} job{w.otherJobs === 1 ? "" : "s"} of other projects
          </div>
        )}
      </div>
    </li>
  );
}
