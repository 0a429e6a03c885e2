"use client";
import { seriesPoints } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";
import { RunAttempts } from "./run-attempts";
import {
  attemptRows,
  formatDuration,
  relaunchHref,
  resolvedRows,
  runDurationS,
  SUMMARY_METRIC_NAMES,
  trainingSummary,
} from "./run-config";

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toPrecision(4));

/** Final and best of a training run's loss / reward / format compliance (with the best's step). */
function TrainingSummary({ projectId, runId }: { projectId: string; runId: string }) {
  const trpc = useTRPC();
  const names = useQuery(trpc.runs.metricNames.queryOptions({ projectId, runId }));
  const present = (names.data ?? []).map((n) => n.name).filter((n) => SUMMARY_METRIC_NAMES.includes(n));
  const series = useQuery({
    // Downsampling keeps each bucket's min and max, so the best value and the last point survive.
    ...trpc.runs.metrics.queryOptions({ projectId, runId, names: present, maxPoints: 5000 }),
    enabled: present.length > 0,
  });
  const rows = trainingSummary((series.data ?? []).map((s) => ({ name: s.name, points: seriesPoints(s) })));
  if (rows.length === 0) return null;
  return (
    <Table label="Run summary">
      <thead>
        <tr>
          <Th>metric</Th>
          <Th>final</Th>
          <Th>best</Th>
          <Th>best at step</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} data-testid={`summary-${r.name}`}>
            <Td className="font-mono text-xs">
              {r.name} <span className="text-muted">({r.goal === "min" ? "lower" : "higher"} is better)</span>
            </Td>
            <Td className="font-mono text-xs">
              {fmt(r.last.value)} <span className="text-muted">@ {r.last.step}</span>
            </Td>
            <Td className="font-mono text-xs">{fmt(r.best.value)}</Td>
            <Td className="font-mono text-xs">{r.best.step}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * A run's resolved config (every knob with its default filled in), what it ran on and how long,
 * a training run's summary, and "Relaunch with changes" (the launch form pre-filled from it).
 */
export function RunConfigPanel({
  projectId,
  runId,
  canLaunch,
}: {
  projectId: string;
  runId: string;
  canLaunch: boolean;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.runs.config.queryOptions({ projectId, runId }));
  if (q.error) return <Alert>{errorMessage(q.error)}</Alert>;
  const r = q.data;
  if (!r) return null;
  const rows = resolvedRows(r.kind, r.config);
  const duration = runDurationS(r.startedAt, r.finishedAt);
  const c = r.config as { preset?: unknown; seed?: unknown };
  const href = canLaunch ? relaunchHref(projectId, r) : null;
  const training = r.kind === "sft" || r.kind === "rl";
  const lastQueue = r.attempts.findLast((a) => a.attempt !== undefined)?.queue;
  return (
    <section className="flex flex-col gap-3" aria-label="Run config" data-testid="run-config">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Config and summary</h2>
        {href && (
          <Link
            href={href}
            className="rounded-md border border-border px-3 py-1 text-sm hover:bg-muted/10"
            data-testid="relaunch"
          >
            Relaunch with changes
          </Link>
        )}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        {typeof c.preset === "string" && (
          <>
            <dt className="text-muted">preset</dt>
            <dd data-testid="run-config-preset">{c.preset}</dd>
          </>
        )}
        <dt className="text-muted">dataset</dt>
        <dd>
          {r.dataset ? (
            <Link className="underline" href={`/projects/${projectId}/datasets/${r.dataset.id}`}>
              {r.dataset.name}
            </Link>
          ) : (
            "—"
          )}
          {r.sampleCount !== null && <span className="text-muted"> · {r.sampleCount} samples</span>}
        </dd>
        <dt className="text-muted">{training ? "starting model" : "model"}</dt>
        <dd data-testid="run-config-model">
          {r.model ? (
            <Link className="underline" href={`/projects/${projectId}/models`}>
              {r.model.name}
            </Link>
          ) : r.kind === "rl" ? (
            "the committed default checkpoint"
          ) : r.kind === "sft" ? (
            "from scratch"
          ) : (
            "—"
          )}
        </dd>
        {typeof c.seed === "number" && (
          <>
            <dt className="text-muted">seed</dt>
            <dd>{c.seed}</dd>
          </>
        )}
        <dt className="text-muted">duration</dt>
        <dd>{duration === null ? "not started" : formatDuration(duration)}</dd>
        <dt className="text-muted">worker</dt>
        <dd className="font-mono text-xs" data-testid="run-config-worker">
          {r.worker
            ? [
                `${r.worker.host} · pid ${r.worker.pid}`,
                r.worker.backend && `${r.worker.backend} core${r.worker.device ? ` (${r.worker.device})` : ""}`,
                r.worker.attempt !== undefined && `attempt ${r.worker.attempt}`,
                lastQueue && `${lastQueue} queue`,
              ]
                .filter(Boolean)
                .join(" · ")
            : "not recorded"}
        </dd>
      </dl>
      {/* One attempt is the worker line above; more (retries, takeovers, shard workers) get a table. */}
      {r.attempts.length > 1 && (
        <RunAttempts rows={attemptRows(r.attempts, r.status !== "QUEUED" && r.status !== "RUNNING")} />
      )}
      {training && <TrainingSummary projectId={projectId} runId={runId} />}
      <details>
        <summary className="cursor-pointer text-sm text-muted">
          Resolved config ({rows.length} keys, defaults filled in)
        </summary>
        <Table label="Resolved config">
          <thead>
            <tr>
              <Th>key</Th>
              <Th>value</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <Td className="font-mono text-xs">{row.key}</Td>
                <Td className="font-mono text-xs">{row.value}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </details>
    </section>
  );
}
