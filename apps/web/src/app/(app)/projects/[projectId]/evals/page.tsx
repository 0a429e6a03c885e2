"use client";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { EvalGroupList } from "@/components/evals/eval-group-list";
import { EvalLaunchForm } from "@/components/evals/eval-launch-form";
import { LiveBadge } from "@/components/live-badge";
import { preselectedModelIds } from "@/components/models/model-links";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/card";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function EvaluationsPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const live = useLiveRuns(projectId);
  const initialModelIds = preselectedModelIds(useSearchParams());
  const groups = useQuery(trpc.evals.groups.queryOptions({ projectId, limit: 20 }));
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Evaluations"
        description="SPEC §5 benchmark runs: models × datasets × prompt modes × K, scored from stored trajectories."
        actions={<LiveBadge status={live.status} />}
      />
      {can("runs.launch") && <EvalLaunchForm projectId={projectId} initialModelIds={initialModelIds} />}
      <h2 className="text-base font-semibold">Recent evaluations</h2>
      {groups.error && <Alert>{errorMessage(groups.error)}</Alert>}
      {groups.data?.length === 0 && (
        <p className="rounded-lg border border-dashed border-line p-8 text-center text-sm text-muted">
          No evaluations yet.
        </p>
      )}
      {groups.data && <EvalGroupList projectId={projectId} groups={groups.data} canCancel={can("runs.cancel")} />}
    </div>
  );
}
