"use client";
import type { EvalRunOutput } from "@paravt/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { LiveBadge } from "../live-badge";
import { ResumeRunButton } from "@/components/runs/resume-run-button";
import { EvalTokenCapBanner } from "@/components/runs/token-cap-banner";
import { Alert } from "../ui/alert";
import { Badge, StatusBadge } from "../ui/badge";
import { Button } from "../ui/button";
import { Progress } from "../ui/progress";
import { BuildQueueForm } from "../reviews/build-queue-form";
import { RunConfigPanel } from "../runs/run-config-panel";
import { EvalSummaryPanel } from "./eval-summary";
import { MODE_LABEL } from "./format";
import { SampleFiltersBar } from "./sample-filters-bar";
import { CompareWithBar } from "./compare-with-bar";
import { EvalSampleGrid } from "./eval-sample-grid";
import {
  clearedSearch,
  comparisonFromParams,
  filtersFromParams,
  sampleQueryFilters,
  searchWith,
  searchWithComparison,
  searchWithView,
  viewFromParams,
} from "./sample-filters";
import { SamplesTable } from "./samples-table";
import { ViewToggle } from "./view-toggle";

function compareLink(projectId: string, sampleId: string, runId: string, vs: string): string {
  return `/projects/${projectId}/compare?sample=${encodeURIComponent(sampleId)}&runs=${runId},${vs}`;
}

function Settings({ run }: { run: EvalRunOutput }) {
  const k = run.knobs;
  const items = k
    ? [
        k.requestStyle === "reference"
          ? `request: reference evaluator (driver.py, ${k.videoChannel})`
          : "request: workbench",
        `temperature ${k.temperature}`,
        `max tokens ${k.maxTokens}`,
        `max turns ${k.maxTurns}`,
        `max parallel ${k.maxParallel}`,
        `dispatch ${k.dispatch}`,
        `think prefix ${k.thinkPrefix ? "on" : "off"}`,
        ...(k.subtitles ? ["subtitles"] : []),
        ...(k.promptPreset ? [`prompts ${k.promptPreset}`] : []),
        ...(k.prompts ? ["custom prompt texts"] : []),
      ]
    : ["imported from the reference evaluator"];
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
      {items.map((i) => (
        <span key={i}>{i}</span>
      ))}
    </p>
  );
}

/**
 * The page of an eval (or imported) run: its settings, SPEC §5 summary and per-sample rows (a
 * table, or a grid of cards) with filters in the URL, cursor pages and keyboard navigation to each
 * episode.
 */
export function EvalRunView({
  projectId,
  runId,
  liveStatus,
  canCancel,
  canReview = false,
  canLaunch = false,
}: {
  projectId: string;
  runId: string;
  liveStatus: string;
  canCancel: boolean;
  /** EDITOR and up: the "build a review queue" form. */
  canReview?: boolean;
  /** EDITOR and up: "Relaunch with changes" (an imported run has nothing to relaunch). */
  canLaunch?: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const filters = filtersFromParams(new URLSearchParams(params.toString()));
  const comparison = comparisonFromParams(new URLSearchParams(params.toString()));
  const view = viewFromParams(new URLSearchParams(params.toString()));
  const run = useQuery(trpc.evals.byId.queryOptions({ projectId, runId }));
  const samples = useInfiniteQuery(
    trpc.evals.samples.infiniteQueryOptions(
      { projectId, runId, limit: 50, ...sampleQueryFilters(filters, comparison) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined, enabled: view === "table" },
    ),
  );
  const cancel = useMutation(
    trpc.runs.cancel.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.evals.pathKey() }),
    }),
  );

  if (run.error) return <Alert>{errorMessage(run.error)}</Alert>;
  const r = run.data;
  if (!r) return null;
  const active = r.status === "QUEUED" || r.status === "RUNNING";
  const rows = samples.data?.pages.flatMap((p) => p.items) ?? [];
  const navigate = (search: string) => router.replace(search, { scroll: false });
  const scope = `${runId}${searchWith(new URLSearchParams(params.toString()), {})}`;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Link href={`/projects/${projectId}/evals`} className="text-muted hover:text-fg">
              Evaluations /
            </Link>
            <Link href={`/projects/${projectId}/evals/${r.group.id}`} className="text-muted hover:text-fg">
              {r.group.name} /
            </Link>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-lg font-semibold" data-testid="run-name">
              {r.model?.name ?? "deleted model"} · {r.dataset?.name ?? "deleted dataset"}
            </h1>
            <Badge tone={r.withTool ? "accent" : "neutral"}>{MODE_LABEL[r.mode]}</Badge>
            <Badge>K = {r.k}</Badge>
            {r.imported && <Badge>imported</Badge>}
            <StatusBadge status={r.status} />
          </div>
          <Settings run={r} />
        </div>
        <div className="flex items-center gap-3">
          <LiveBadge status={liveStatus} />
          <Progress value={r.progress} label={`Progress of ${r.name}`} />
          {canCancel && active && (
            <Button size="sm" variant="secondary" onClick={() => cancel.mutate({ projectId, runId })}>
              Cancel
            </Button>
          )}
          {canCancel && <ResumeRunButton projectId={projectId} run={r} />}
        </div>
      </div>
      <p className="text-xs text-muted">
        {[
          r.message,
          `started by ${r.createdBy ?? "system"}`,
          `created ${timeAgo(r.createdAt)}`,
          r.attempts > 1 ? `attempt ${r.attempts}` : null,
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
      {r.error && <Alert>{r.error}</Alert>}
      {cancel.error && <Alert>{errorMessage(cancel.error)}</Alert>}
      <EvalTokenCapBanner projectId={projectId} runId={runId} active={active} />
      <EvalSummaryPanel summary={r.summary} />
      <RunConfigPanel projectId={projectId} runId={runId} canLaunch={canLaunch && !r.imported} />
      {canReview && !active && r.summary.stored > 0 && (
        <BuildQueueForm projectId={projectId} runId={runId} datasetId={r.dataset?.id ?? null} />
      )}
      <section className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold">Samples</h2>
          <ViewToggle
            view={view}
            onChange={(v) => navigate(searchWithView(new URLSearchParams(params.toString()), v))}
          />
        </div>
        <SampleFiltersBar
          filters={filters}
          onChange={(patch) => navigate(searchWith(new URLSearchParams(params.toString()), patch))}
          onClear={() => navigate(clearedSearch(new URLSearchParams(params.toString())))}
        />
        {r.dataset && (
          <CompareWithBar
            projectId={projectId}
            runId={runId}
            datasetId={r.dataset.id}
            vs={comparison.vs}
            flipped={comparison.flipped}
            onChange={(patch) => navigate(searchWithComparison(new URLSearchParams(params.toString()), patch))}
          />
        )}
        {view === "grid" && (
          <EvalSampleGrid projectId={projectId} runId={runId} filters={filters} comparison={comparison} scope={scope} />
        )}
        {view === "table" && samples.error && <Alert>{errorMessage(samples.error)}</Alert>}
        {view === "table" && (
          <SamplesTable
            key={scope}
            projectId={projectId}
            rows={rows}
            scope={scope}
            {...(comparison.vs
              ? { compareHref: (sampleId: string) => compareLink(projectId, sampleId, runId, comparison.vs!) }
              : {})}
            loading={samples.isPending}
            {...(samples.hasNextPage ? { onPastEnd: () => void samples.fetchNextPage() } : {})}
          />
        )}
        {view === "table" && samples.hasNextPage && (
          <div>
            <Button
              variant="secondary"
              onClick={() => void samples.fetchNextPage()}
              disabled={samples.isFetchingNextPage}
            >
              Load more
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}
