// Which reads a run event touches (issue 42 item 1): a live page refetches only those, updates the
// run's row in place from the event, and asks a chart only for the points after its last step
// (live/metric-append.ts). Pure: the web's useLiveRuns applies it, bench/live measures it.
import type { MetricsChange, RunEvent } from "../contracts/runs";

/** The query families (tRPC procedure paths) that live pages refresh from run events. */
export const LIVE_QUERY_FAMILIES = [
  "runs.list",
  "runs.byId",
  "runs.config",
  "runs.metricNames",
  "runs.metrics",
  "runs.stepRollouts",
  "runs.stepGroup",
  "runs.tokenCap",
  "training.runs",
  "projects.byId",
  "models.list",
  "videos.list",
  "datasets.list",
  "datasets.byId",
  "datasets.samples",
  "evals.groups",
  "evals.group",
  "evals.byId",
  "evals.matrix",
  "evals.samples",
  "evals.runsOn",
  "evals.compare",
] as const;
export type LiveQueryFamily = (typeof LIVE_QUERY_FAMILIES)[number];

/** Families whose input names one run (`runId`, or `runIds` holding it): narrowed to the event's. */
const RUN_SCOPED = new Set<LiveQueryFamily>([
  "runs.byId",
  "runs.config",
  "runs.metricNames",
  "runs.metrics",
  "runs.stepRollouts",
  "runs.stepGroup",
  "runs.tokenCap",
  "evals.byId",
  "evals.samples",
  "evals.compare",
]);

/** Refetch the family's queries; with runId, only those whose input names that run. */
export interface LiveRefresh {
  family: LiveQueryFamily;
  runId?: string;
}

export interface LiveRunPlan {
  refresh: LiveRefresh[];
  /**
   * Update the cached rows of the run (runs.byId, runs.list, training.runs) from the event's own
   * fields (`patchRunRow`), without a request.
   */
  patchRows: boolean;
  /**
   * New points of the run: its charts (runs.metrics) append the points after their last step
   * (`metricsAppendRequest`); its series list (runs.metricNames) is refetched only where it lacks
   * one of the named series.
   */
  metrics: (MetricsChange & { runId: string }) | null;
}

/** The products of infrastructure jobs (videos, suites, imports, probes), refreshed as they go. */
const JOB_PRODUCTS: LiveQueryFamily[] = [
  "projects.byId",
  "models.list",
  "videos.list",
  "datasets.list",
  "datasets.byId",
  "datasets.samples",
];
/** An evaluation's progress shows in these (progress bars, counts). */
const EVAL_PROGRESS: LiveQueryFamily[] = ["evals.groups", "evals.group", "evals.byId"];
/** An evaluation's stored samples show in these. */
const EVAL_RESULTS: LiveQueryFamily[] = [
  ...EVAL_PROGRESS,
  "evals.matrix",
  "evals.samples",
  "evals.runsOn",
  "evals.compare",
];
/** Any run's stored episodes (an RL run's rollouts are reviewed like an evaluation's samples). */
const EPISODES: LiveQueryFamily[] = [
  "runs.stepRollouts",
  "runs.stepGroup",
  "runs.tokenCap",
  "evals.byId",
  "evals.samples",
];
const RUN_LISTS: LiveQueryFamily[] = ["runs.list", "runs.byId", "training.runs", "projects.byId"];
/** A status change starts or ends an attempt: the run page's attempt table (runs.config). */
const RUN_ATTEMPTS: LiveQueryFamily[] = ["runs.config"];

/** Every family: what a (re)subscription refetches, since events before it were not seen. */
export function subscribedPlan(): LiveRefresh[] {
  return LIVE_QUERY_FAMILIES.map((family) => ({ family }));
}

/**
 * The reads `event` touches. Every event carries the run's progress and message (patched in
 * place); a status change refetches the run lists and what a finished run made; new metric points
 * go to that run's charts; new episodes to the run's rollout and sample views. An event that does
 * not say what changed (`changed` absent) refetches everything of the run, as before.
 */
export function liveRunPlan(event: RunEvent): LiveRunPlan {
  const { runId, kind, changed } = event;
  const families = new Set<LiveQueryFamily>();
  const add = (list: readonly LiveQueryFamily[]) => list.forEach((f) => families.add(f));
  const evaluation = kind === "eval" || kind === "import";
  let metrics: LiveRunPlan["metrics"] = null;
  if (!changed) {
    add(LIVE_QUERY_FAMILIES);
  } else {
    if (changed.status) {
      add(RUN_LISTS);
      add(RUN_ATTEMPTS);
      if (kind === "sft" || kind === "rl") add(["models.list"]);
      if (evaluation) add(EVAL_RESULTS);
    }
    // A job's products appear while it runs (a suite's samples, a video's assets).
    if (kind === "job") add(JOB_PRODUCTS);
    if (evaluation) add(EVAL_PROGRESS);
    if (changed.episodes) {
      add(EPISODES);
      if (evaluation) add(EVAL_RESULTS);
    }
    if (changed.metrics) metrics = { ...changed.metrics, runId };
  }
  return {
    refresh: [...families].map((family) => (RUN_SCOPED.has(family) ? { family, runId } : { family })),
    patchRows: changed !== undefined,
    metrics,
  };
}

/** Whether a query's input names the run (`runId`, or `runIds` holding it). */
export function inputNamesRun(input: unknown, runId: string): boolean {
  if (input === null || typeof input !== "object") return false;
  const i = input as { runId?: unknown; runIds?: unknown };
  return i.runId === runId || (Array.isArray(i.runIds) && i.runIds.includes(runId));
}

/**
 * A cached run row (runs.byId, an item of runs.list or training.runs rows) with the event's
 * fields; other rows as they are. A training table row's last step follows new points.
 */
export function patchRunRow<R extends { id: string }>(row: R, event: RunEvent): R {
  if (row.id !== event.runId) return row;
  const next: Record<string, unknown> = {
    ...row,
    status: event.status,
    progress: event.progress,
    message: event.message,
    error: event.error,
  };
  const to = event.changed?.metrics?.toStep;
  if (to !== undefined && "lastStep" in next) {
    next.lastStep = typeof next.lastStep === "number" ? Math.max(next.lastStep, to) : to;
  }
  return next as R;
}

/** Whether a cached series list lacks a series the change names (absent names: any may be new). */
export function metricNamesLack(cached: readonly { name: string }[] | undefined, change: MetricsChange): boolean {
  if (!cached || !change.names) return true;
  const known = new Set(cached.map((n) => n.name));
  return change.names.some((n) => !known.has(n));
}
