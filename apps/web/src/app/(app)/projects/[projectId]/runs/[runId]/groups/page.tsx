"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { Suspense } from "react";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { GroupInspector } from "@/components/rl-groups/group-inspector";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

/** The GRPO group inspector of an RL run: `?step=N&group=G&order=group|advantage`. */
export default function GroupInspectorPage() {
  const { runId } = useParams<{ runId: string }>();
  const { projectId } = useProject();
  const trpc = useTRPC();
  // A running run stores new steps: their groups appear without a reload.
  const live = useLiveRuns(projectId);
  const run = useQuery(trpc.runs.byId.queryOptions({ projectId, runId }));
  if (run.error) return <Alert>{errorMessage(run.error)}</Alert>;
  const r = run.data;
  if (!r) return null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Link href={`/projects/${projectId}/training`} className="text-sm text-muted hover:text-fg">
          Training /
        </Link>
        <Link href={`/projects/${projectId}/runs/${runId}`} className="text-sm text-muted hover:text-fg">
          {r.name} /
        </Link>
        <h1 className="text-lg font-semibold">GRPO groups</h1>
        <StatusBadge status={r.status} />
        <span className="ml-auto">
          <LiveBadge status={live.status} />
        </span>
      </div>
      {r.kind !== "rl" ? (
        <Alert>
          &quot;{r.name}&quot; is a {r.kind} run: only RL training runs have GRPO groups.
        </Alert>
      ) : (
        // useSearchParams (the view's URL state) needs a Suspense boundary.
        <Suspense>
          <GroupInspector projectId={projectId} runId={runId} />
        </Suspense>
      )}
    </div>
  );
}
