"use client";
import { TRAINING_RUN_KINDS } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { RunStatusSelect } from "@/components/runs/run-status-select";
import { TrainSftForm } from "@/components/train-sft-form";
import { parseTrainingFilters, trainingFiltersQuery, trainingRowView } from "@/components/training/runs-list";
import { TrainRlForm } from "@/components/training/train-rl-form";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

/** The Training tab (issue 41 item 8): SFT and RL runs apart from the infrastructure jobs. */
export default function TrainingPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const router = useRouter();
  const filters = parseTrainingFilters(useSearchParams());
  const runs = useQuery(trpc.training.runs.queryOptions({ projectId, limit: 100, ...filters }));
  const live = useLiveRuns(projectId);
  const [launching, setLaunching] = useState(false);
  const base = `/projects/${projectId}`;
  const now = new Date();
  // The filters as last asked for, not as this render's address has them: two quick changes (kind,
  // then status) must both stay, though the router has not re-rendered between them.
  const asked = useRef(filters);
  useEffect(() => {
    asked.current = filters; // the address changed (a change here, or back / forward)
  }, [filters.kind, filters.status]); // eslint-disable-line react-hooks/exhaustive-deps
  const setFilter = (patch: Partial<typeof filters>) => {
    asked.current = { ...asked.current, ...patch };
    router.replace(trainingFiltersQuery(asked.current) || "?", { scroll: false });
  };

  return (
    <>
      <PageHeader
        title="Training"
        description="SFT and RL runs of ParaVT-nano, with their last loss or reward. Every other job is under Jobs."
        actions={
          <>
            <LiveBadge status={live.status} />
            <Select
              aria-label="Filter by kind"
              value={filters.kind ?? ""}
              onChange={(e) => setFilter({ kind: (e.target.value || undefined) as typeof filters.kind })}
              className="w-40"
            >
              <option value="">SFT and RL</option>
              {TRAINING_RUN_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k.toUpperCase()}
                </option>
              ))}
            </Select>
            <RunStatusSelect value={filters.status ?? ""} onChange={(s) => setFilter({ status: s || undefined })} />
            {can("runs.launch") && (
              <Button size="sm" variant={launching ? "secondary" : "primary"} onClick={() => setLaunching((v) => !v)}>
                {launching ? "Hide launch forms" : "Launch training"}
              </Button>
            )}
          </>
        }
      />
      {runs.error && <Alert>{errorMessage(runs.error)}</Alert>}
      {launching && can("runs.launch") && <LaunchTraining projectId={projectId} />}
      <Table label="Training runs">
        <thead>
          <tr>
            <Th>Run</Th>
            <Th>Status</Th>
            <Th>Last loss / reward</Th>
            <Th>Steps</Th>
            <Th>Started</Th>
            <Th>Duration</Th>
            <Th>Model produced</Th>
          </tr>
        </thead>
        <tbody>
          {runs.data?.map((r) => {
            const v = trainingRowView(r, now);
            return (
              <tr key={r.id} data-testid={`training-run-${r.id}`}>
                <Td className="max-w-xs">
                  <Link
                    href={`${base}/runs/${r.id}`}
                    title={r.name}
                    className="block truncate font-medium hover:text-accent hover:underline"
                  >
                    {r.name}
                  </Link>
                  <div className="font-mono text-xs text-muted">{v.kind}</div>
                </Td>
                <Td>
                  <StatusBadge status={r.status} />
                  {r.error && (
                    <div className="max-w-xs truncate text-xs text-danger" title={r.error}>
                      {r.error}
                    </div>
                  )}
                </Td>
                <Td className="font-mono text-xs">{v.headline}</Td>
                <Td className="font-mono text-xs">{v.steps}</Td>
                <Td className="text-muted">{timeAgo(r.startedAt)}</Td>
                <Td className="text-muted">{v.duration}</Td>
                <Td className="max-w-48">
                  {r.producedModel ? (
                    <Link
                      href={`${base}/models#model-${r.producedModel.id}`}
                      title={r.producedModel.name}
                      className="block truncate hover:text-accent hover:underline"
                    >
                      {r.producedModel.name}
                    </Link>
                  ) : (
                    <span className="text-muted">—</span>
                  )}
                </Td>
              </tr>
            );
          })}
          {runs.data?.length === 0 && (
            <EmptyRow colSpan={7}>
              {filters.kind || filters.status ? "No training run matches these filters." : "No training runs yet."}
            </EmptyRow>
          )}
        </tbody>
      </Table>
    </>
  );
}

/** The SFT and RL launch forms of a chosen needle suite (the same forms as on the suite's page). */
function LaunchTraining({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const suites = (datasets.data ?? []).filter((d) => d.source.kind === "needle-suite" && d.sampleCount > 0);
  const [chosen, setChosen] = useState("");
  const suite = suites.find((d) => d.id === chosen) ?? suites[0];
  if (datasets.isPending) return null;
  if (!suite) {
    return (
      <Card>
        <CardHeader
          title="Launch training"
          description="Training needs a needle suite with samples: generate or import one under Datasets."
        />
        <Link href={`/projects/${projectId}/datasets`} className="text-sm text-accent hover:underline">
          Go to Datasets
        </Link>
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      <Card>
        <CardHeader title="Launch training" description="SFT or RL of ParaVT-nano on a needle suite." />
        <Select
          aria-label="Training suite"
          value={suite.id}
          onChange={(e) => setChosen(e.target.value)}
          className="w-72"
        >
          {suites.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </Select>
      </Card>
      <TrainSftForm key={`sft-${suite.id}`} projectId={projectId} datasetId={suite.id} datasetName={suite.name} />
      <TrainRlForm key={`rl-${suite.id}`} projectId={projectId} datasetId={suite.id} datasetName={suite.name} />
    </div>
  );
}
