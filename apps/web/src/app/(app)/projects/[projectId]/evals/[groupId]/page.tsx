"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { timeAgo } from "@/components/format";
import { EvalRunsTable } from "@/components/evals/eval-runs-table";
import { GroupTableDownload } from "@/components/evals/group-table-download";
import { ImportReferenceForm } from "@/components/evals/import-reference-form";
import { ResultsMatrix } from "@/components/evals/results-matrix";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function EvalGroupPage() {
  const { groupId } = useParams<{ groupId: string }>();
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const live = useLiveRuns(projectId);
  const group = useQuery(trpc.evals.group.queryOptions({ projectId, groupId }));
  const matrix = useQuery(trpc.evals.matrix.queryOptions({ projectId, groupId }));

  if (group.error) return <Alert>{errorMessage(group.error)}</Alert>;
  const g = group.data;
  if (!g) return null;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Link href={`/projects/${projectId}/evals`} className="text-sm text-muted hover:text-fg">
            Evaluations /
          </Link>
          <h1 className="text-lg font-semibold" data-testid="group-name">
            {g.name}
          </h1>
          <span className="text-xs text-muted">
            {g.runs.length} run{g.runs.length === 1 ? "" : "s"} · created {timeAgo(g.createdAt)}
          </span>
        </div>
        <LiveBadge status={live.status} />
      </div>
      <Card>
        <CardHeader
          title="Results"
          description="Per dataset and question type: accuracy (multiple choice, %), score (open-ended, × 100) and mIoU (grounding, × 100), each ± its standard error and with its n; errors are counted beside the value, never as wrong answers. Open a cell for its samples."
          actions={<GroupTableDownload projectId={projectId} groupId={g.id} />}
        />
        {matrix.error && <Alert>{errorMessage(matrix.error)}</Alert>}
        {matrix.data && <ResultsMatrix projectId={projectId} matrix={matrix.data} />}
      </Card>
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold">Runs</h2>
        <EvalRunsTable projectId={projectId} runs={g.runs} canCancel={can("runs.cancel")} />
      </section>
      {can("runs.launch") && <ImportReferenceForm projectId={projectId} groupId={g.id} />}
    </div>
  );
}
