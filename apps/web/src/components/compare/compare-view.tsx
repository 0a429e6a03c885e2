"use client";
import type { CompareSampleOutput } from "@paravt/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useRef } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { LiveBadge } from "../live-badge";
import { useLiveRuns } from "../live-runs";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { compareHref, compareParamsFrom, toggleRun, type CompareParams } from "./compare-params";
import { ComparePlayer } from "./compare-player";
import { CompareTable } from "./compare-table";
import { ExistingRunsPicker } from "./run-pickers";
import { RunNowForm } from "./run-now-form";
import { SamplePicker } from "./sample-picker";
import { refreshQueries } from "@/lib/refresh-queries";

const LETTERS = "ABCDEFGHIJ";

/**
 * Side-by-side comparison of models on one sample (issue 8). The URL holds the state
 * (`?sample=<id>&runs=a,b`): pick a sample (search, or arrive from a run's "compare" link), pick
 * existing runs or run 2–4 models now; then one player, every model's lanes on one timeline,
 * and a table of answers, correctness, latency and tool calls. Run events (SSE) refresh the
 * comparison, so a "run now" fills in model by model.
 */
export function CompareView({ projectId, canLaunch }: { projectId: string; canLaunch: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const state = compareParamsFrom(new URLSearchParams(params.toString()));
  const go = (next: CompareParams) => router.replace(compareHref(projectId, next), { scroll: false });

  const watched = useRef(state.runIds);
  watched.current = state.runIds;
  const live = useLiveRuns(projectId, (e) => {
    if (watched.current.includes(e.runId)) {
      void refreshQueries(queryClient, [trpc.evals.compare.queryKey()]);
    }
  });
  const compare = useQuery({
    ...trpc.evals.compare.queryOptions({ projectId, sampleId: state.sampleId ?? "", runIds: state.runIds }),
    enabled: state.sampleId !== null,
  });

  return (
    <div className="flex flex-col gap-6">
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
        <div className="grid gap-6 lg:grid-cols-2">
          <Card className="flex flex-col gap-3">
            <h2 className="text-base font-semibold">Pick a sample</h2>
            <SamplePicker projectId={projectId} onPick={(id) => go({ sampleId: id, runIds: [] })} />
          </Card>
          {canLaunch && (
            <Card className="flex flex-col gap-3">
              <h2 className="text-base font-semibold">Run now</h2>
              <RunNowForm
                projectId={projectId}
                sampleId={null}
                onLaunched={(sampleId, runIds) => go({ sampleId, runIds })}
              />
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
          <div className="grid gap-6 lg:grid-cols-2">
            <Card className="flex flex-col gap-3">
              <h2 className="text-base font-semibold">Use existing episodes</h2>
              <ExistingRunsPicker
                projectId={projectId}
                sampleId={state.sampleId}
                chosen={state.runIds}
                onToggle={(runId) => go({ sampleId: state.sampleId, runIds: toggleRun(state.runIds, runId) })}
              />
            </Card>
            {canLaunch && (
              <Card className="flex flex-col gap-3">
                <h2 className="text-base font-semibold">Run now</h2>
                <RunNowForm
                  projectId={projectId}
                  sampleId={state.sampleId}
                  onLaunched={(sampleId, runIds) => go({ sampleId, runIds })}
                />
              </Card>
            )}
          </div>
          {compare.error && <Alert>{errorMessage(compare.error)}</Alert>}
          {compare.data && compare.data.columns.length > 0 && (
            <>
              <ComparePlayer sample={compare.data.sample} columns={compare.data.columns} />
              <CompareTable projectId={projectId} columns={compare.data.columns} />
            </>
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

/** The sample's question, options and answer. */
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
    <Card className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold" data-testid="compare-sample">
          Sample <span className="font-mono">{s?.key ?? sampleId}</span>
        </h2>
        {s && <Badge>{s.datasetName}</Badge>}
        {s && <Badge>{s.questionType}</Badge>}
        <Button type="button" size="sm" variant="secondary" onClick={onChange}>
          Change sample
        </Button>
      </div>
      {s && (
        <>
          <p className="whitespace-pre-line text-sm">{s.question}</p>
          {s.options && s.options.length > 0 && (
            <ol className="flex flex-col gap-0.5 text-sm">
              {s.options.map((o, i) => (
                <li key={i} className={s.answer === LETTERS[i] ? "text-success" : undefined}>
                  <span className="font-mono">{LETTERS[i]}.</span> {o}
                  {s.answer === LETTERS[i] && <span className="ml-2 text-xs">(answer)</span>}
                </li>
              ))}
            </ol>
          )}
          <p className="text-sm">
            <span className="text-muted">Answer</span> <span className="font-mono">{s.answer || "—"}</span>
          </p>
        </>
      )}
    </Card>
  );
}
