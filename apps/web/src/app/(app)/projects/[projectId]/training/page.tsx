"use client";
import type { RunsTableKind } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { RunStatusSelect } from "@/components/runs/run-status-select";
import { TrainSftForm } from "@/components/train-sft-form";
import { runsViewFrom, runsViewSearch, toggleSelected, type RunsView } from "@/components/training/runs-list";
import { RunsTable } from "@/components/training/runs-table";
import { availableColumns, columnOf, DEFAULT_COLUMNS, tableRun } from "@/components/training/runs-table-columns";
import { filterRuns, groupRuns, nextSort, parseFilter, sortRuns } from "@/components/training/runs-table-model";
import { ColumnPicker, FilterInput, GroupSelect, OverlayLink } from "@/components/training/runs-table-toolbar";
import { TrainRlForm } from "@/components/training/train-rl-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

/** Runs listed per answer (the server's bound is RUNS_TABLE_MAX_RUNS). */
const LISTED_RUNS = 200;

const KIND_OPTIONS: { value: RunsTableKind | ""; label: string }[] = [
  { value: "", label: "SFT and RL" },
  { value: "sft", label: "SFT" },
  { value: "rl", label: "RL" },
  { value: "eval", label: "Evaluations" },
  { value: "all", label: "All runs" },
];

/**
 * The Training tab (issue 41 items 8 and 11): SFT and RL runs (evaluations on request) in a
 * W&B-style table, apart from the infrastructure jobs. The whole view lives in the URL.
 */
export default function TrainingPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = useMemo(() => runsViewFrom(new URLSearchParams(params.toString())), [params]);
  const runs = useQuery(
    trpc.training.runs.queryOptions({
      projectId,
      limit: LISTED_RUNS,
      ...(view.kind ? { kind: view.kind } : {}),
      ...(view.status ? { status: view.status } : {}),
    }),
  );
  const live = useLiveRuns(projectId);
  const [launching, setLaunching] = useState(false);
  // The view as last asked for, not as this render's address has it: two quick changes (kind,
  // then status) must both stay, though the router has not re-rendered between them.
  const asked = useRef(view);
  useEffect(() => {
    asked.current = view; // the address changed (a change here, or back / forward)
  }, [view]);
  const setView = (patch: Partial<RunsView>) => {
    asked.current = { ...asked.current, ...patch };
    router.replace(`${pathname}${runsViewSearch(asked.current)}`, { scroll: false });
  };

  const model = useMemo(() => {
    const now = new Date();
    const all = (runs.data?.rows ?? []).map((r) => tableRun(r, now));
    const available = availableColumns(all);
    const columns = (view.columns ?? DEFAULT_COLUMNS).flatMap((k) => columnOf(k) ?? []);
    const filter = parseFilter(view.filter);
    const shown = sortRuns(filterRuns(all, filter.terms), view.sort);
    const groupColumn = view.group ? columnOf(view.group) : null;
    const groups = groupColumn ? { column: groupColumn, groups: groupRuns(shown, groupColumn.key, columns) } : null;
    // Only runs still listed count as picked (a link may name a run since deleted or filtered
    // out by kind); they keep the order they were ticked in.
    const listed = new Set(all.filter((r) => r.overlayable).map((r) => r.row.id));
    return { all, available, columns, filter, shown, groups, picked: view.selected.filter((id) => listed.has(id)) };
  }, [runs.data, view]);

  const narrowed = Boolean(view.kind || view.status || view.filter.trim());
  return (
    <>
      <PageHeader
        title="Training"
        description="SFT and RL runs of ParaVT-nano (and evaluations on request) with their settings and figures. Every other job is under Jobs."
        actions={
          <>
            <LiveBadge status={live.status} />
            <Select
              aria-label="Filter by kind"
              value={view.kind ?? ""}
              onChange={(e) => setView({ kind: (e.target.value || undefined) as RunsTableKind | undefined })}
              className="w-40"
            >
              {KIND_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
            <RunStatusSelect value={view.status ?? ""} onChange={(s) => setView({ status: s || undefined })} />
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
      <div className="flex flex-wrap items-start gap-3">
        <FilterInput value={view.filter} problems={model.filter.problems} onChange={(filter) => setView({ filter })} />
        <GroupSelect value={view.group} configKeys={model.available.config} onChange={(group) => setView({ group })} />
        <ColumnPicker
          shown={model.columns.map((c) => c.key)}
          available={model.available}
          onToggle={(key) => {
            // From the view as last asked for, so quick ticks all stay.
            const current = asked.current.columns ?? [...DEFAULT_COLUMNS];
            setView({ columns: current.includes(key) ? current.filter((k) => k !== key) : [...current, key] });
          }}
          onReset={() => setView({ columns: null })}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <OverlayLink projectId={projectId} selected={model.picked} onClear={() => setView({ selected: [] })} />
        {runs.data && (
          <span className="text-xs text-muted" role="status">
            {model.shown.length === model.all.length
              ? `${model.all.length} ${model.all.length === 1 ? "run" : "runs"}`
              : `${model.shown.length} of ${model.all.length} runs`}
            {runs.data.more ? ` (the newest ${LISTED_RUNS}; narrow the kind or status for older ones)` : ""}
          </span>
        )}
      </div>
      <RunsTable
        projectId={projectId}
        columns={model.columns}
        runs={model.shown}
        groups={model.groups}
        sort={view.sort}
        onSort={(key) => setView({ sort: nextSort(asked.current.sort, key) })}
        selected={model.picked}
        onToggle={(id) => setView({ selected: toggleSelected(asked.current.selected, id) })}
        empty={runs.isPending ? "Loading runs…" : narrowed ? "No run matches these filters." : "No training runs yet."}
      />
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
