"use client";
import type { CompareSampleOutput } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { LiveBadge } from "../live-badge";
import { useLiveRuns } from "../live-runs";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { cn } from "../ui/cn";
import { compareRefetchMs, comparisonLayout, nextPickers, pickersStartOpen } from "./compare-layout";
import { compareHref, compareParamsFrom, toggleRun, type CompareParams } from "./compare-params";
import { ComparePlayer } from "./compare-player";
import { CompareTable } from "./compare-table";
import { ExistingRunsPicker } from "./run-pickers";
import { RunNowForm } from "./run-now-form";
import { SamplePicker } from "./sample-picker";

const LETTERS = "ABCDEFGHIJ";

/**
 * Side-by-side comparison of models on one sample (issue 8). The URL holds the state
 * (`?sample=<id>&runs=a,b`): pick a sample (search, or arrive from a run's "compare" link), pick
 * existing runs or run 2–4 models now; then one player, every model's lanes on one timeline,
 * and a table of answers, correctness, latency and tool calls. Run events (SSE) refresh the
 * comparison and the run picker, so a "run now" fills in model by model; while a compared run is
 * queued or running the comparison is also polled (compareRefetchMs), so no status is left stale.
 * Once runs are chosen the pickers fold into one line and the comparison sits above the fold:
 * the table beside the player for two models, above it for three or four (comparisonLayout).
 */
export function CompareView({ projectId, canLaunch }: { projectId: string; canLaunch: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const state = compareParamsFrom(new URLSearchParams(params.toString()));
  const go = (next: CompareParams) => router.replace(compareHref(projectId, next), { scroll: false });

  // The compared runs' status and episodes, and the runs on the sample, refresh through
  // useLiveRuns: evals.compare where its runIds hold the event's run, evals.runsOn.
  const live = useLiveRuns(projectId);
  const compare = useQuery({
    ...trpc.evals.compare.queryOptions({ projectId, sampleId: state.sampleId ?? "", runIds: state.runIds }),
    enabled: state.sampleId !== null,
    refetchInterval: (q) => compareRefetchMs(q.state.data?.columns),
  });
  // The pickers: unfolded while nothing is compared, folded on arrival with runs and after "Run now".
  const [pickers, setPickers] = useState(() => ({ open: pickersStartOpen(state.runIds), foldPending: false }));
  const nextP = nextPickers(pickers, state.runIds.length);
  if (nextP.open !== pickers.open || nextP.foldPending !== pickers.foldPending) setPickers(nextP);
  const pickersOpen = nextP.open;
  const setPickersOpen = (open: boolean) => setPickers((p) => ({ ...p, open }));
  const launched = (sampleId: string, runIds: string[]) => {
    setPickers((p) => ({ ...p, foldPending: true }));
    go({ sampleId, runIds });
  };
  const columns = compare.data?.columns ?? [];

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Link href={`/projects/${projectId}/evals`} className="text-muted hover:text-fg">
            Evaluations /
          </Link>
          <h1 className="text-lg font-semibold">Compare models on one sample</h1>
        </div>
        <LiveBadge status={live.status} />
      </div>

      {state.sampleId === null ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <Card className="flex min-w-0 flex-col gap-3">
            <h2 className="text-base font-semibold">Pick a sample</h2>
            <SamplePicker projectId={projectId} onPick={(id) => go({ sampleId: id, runIds: [] })} />
          </Card>
          {canLaunch && (
            <Card className="flex min-w-0 flex-col gap-3">
              <h2 className="text-base font-semibold">Run now</h2>
              <RunNowForm projectId={projectId} sampleId={null} onLaunched={launched} />
            </Card>
          )}
        </div>
      ) : (
        <>
          <SampleHeader
            sampleId={state.sampleId}
            sample={compare.data?.sample ?? null}
            onChange={() => go({ sampleId: null, runIds: [] })}
          />
          <details
            open={pickersOpen}
            onToggle={(e) => setPickersOpen(e.currentTarget.open)}
            className="group rounded-lg border border-line bg-surface"
            data-testid="compare-pickers"
          >
            <summary className="cursor-pointer px-4 py-2 text-sm font-medium">
              {state.runIds.length > 0
                ? `${state.runIds.length} run${state.runIds.length === 1 ? "" : "s"} compared: pick others${canLaunch ? " or run models now" : ""}`
                : `Pick runs to compare${canLaunch ? " or run models now" : ""}`}
            </summary>
            <div className="grid gap-4 border-t border-line p-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
              <Card className="flex min-w-0 flex-col gap-3">
                <h2 className="text-base font-semibold">Use existing episodes</h2>
                <ExistingRunsPicker
                  projectId={projectId}
                  sampleId={state.sampleId}
                  chosen={state.runIds}
                  onToggle={(runId) => go({ sampleId: state.sampleId, runIds: toggleRun(state.runIds, runId) })}
                />
              </Card>
              {canLaunch && (
                <Card className="flex min-w-0 flex-col gap-3">
                  <h2 className="text-base font-semibold">Run now</h2>
                  <RunNowForm projectId={projectId} sampleId={state.sampleId} onLaunched={launched} />
                </Card>
              )}
            </div>
          </details>
          {compare.error && <Alert>{errorMessage(compare.error)}</Alert>}
          {compare.data && columns.length > 0 && (
            <div
              data-testid="comparison"
              data-layout={comparisonLayout(columns.length)}
              className={
                comparisonLayout(columns.length) === "side"
                  ? "grid items-start gap-4 xl:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]"
                  : "flex min-w-0 flex-col gap-4"
              }
            >
              {comparisonLayout(columns.length) === "side" ? (
                <>
                  <ComparePlayer sample={compare.data.sample} columns={columns} />
                  <CompareTable projectId={projectId} columns={columns} />
                </>
              ) : (
                <>
                  <CompareTable projectId={projectId} columns={columns} />
                  <ComparePlayer sample={compare.data.sample} columns={columns} />
                </>
              )}
            </div>
          )}
          {state.runIds.length === 0 && (
            <p className="rounded-lg border border-dashed border-line p-6 text-center text-sm text-muted">
              Pick existing runs or run models now to compare them on this sample.
            </p>
          )}
        </>
      )}
    </div>
  );
}

/**
 * The sample's question, options and answer, compact (a long question is clamped to two lines,
 * long names and options truncated, each with its full text in a title) so the comparison under
 * it stays above the fold.
 */
function SampleHeader({
  sampleId,
  sample: s,
  onChange,
}: {
  sampleId: string;
  sample: CompareSampleOutput | null;
  onChange: () => void;
}) {
  return (
    <section className="flex min-w-0 flex-col gap-1.5 rounded-lg border border-line bg-surface p-4">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h2 className="min-w-0 max-w-full truncate text-base font-semibold" data-testid="compare-sample">
          Sample{" "}
          <span className="font-mono" title={s?.key ?? sampleId}>
            {s?.key ?? sampleId}
          </span>
        </h2>
        {s && (
          <Badge>
            <span className="max-w-[16rem] truncate" title={s.datasetName}>
              {s.datasetName}
            </span>
          </Badge>
        )}
        {s && <Badge>{s.questionType}</Badge>}
        {s && (
          <span className="min-w-0 truncate text-sm" title={s.answer}>
            <span className="text-muted">Answer</span> <span className="font-mono">{s.answer || "—"}</span>
          </span>
        )}
        <span className="ml-auto">
          <Button type="button" size="sm" variant="secondary" onClick={onChange}>
            Change sample
          </Button>
        </span>
      </div>
      {s && (
        <>
          <p className="line-clamp-2 whitespace-pre-line text-sm [overflow-wrap:anywhere]" title={s.question}>
            {s.question}
          </p>
          {s.options && s.options.length > 0 && (
            <ol className="flex min-w-0 flex-wrap gap-x-4 gap-y-0.5 text-sm">
              {s.options.map((o, i) => (
                <li
                  key={i}
                  title={o}
                  className={cn("min-w-0 max-w-full truncate", s.answer === LETTERS[i] && "text-success")}
                >
                  <span className="font-mono">{LETTERS[i]}.</span> {o}
                  {s.answer === LETTERS[i] && <span className="ml-2 text-xs">(answer)</span>}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
