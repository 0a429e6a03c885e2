// What a live page does with a run event (issue 42 item 1): the pure plan of @paravt/shared
// (`liveRunPlan`: which query families the event touches) applied to TanStack Query's cache.
// Run rows are patched from the event, charts append only their new points, and the families the
// event touches are refetched (narrowed to the event's run where their input names one).
import {
  appendSince,
  inputNamesRun,
  liveRunPlan,
  metricNamesLack,
  metricQueryInput,
  metricsAppendRequest,
  patchRunRow,
  subscribedPlan,
  type LiveQueryFamily,
  type LiveRefresh,
  type MetricNamesOutput,
  type MetricQueryOutput,
  type MetricsChange,
  type RunEvent,
  type RunOutput,
  type RunsTableOutput,
} from "@paravt/shared";
import type { Query, QueryClient, QueryFilters, QueryKey } from "@tanstack/react-query";
import type { useTRPC } from "@/trpc/client";
import { refreshQueryFilters } from "./refresh-queries";

type Trpc = ReturnType<typeof useTRPC>;

/** Each family's key (typed through the router, so a renamed procedure fails the build). */
function familyKeys(trpc: Trpc): Record<LiveQueryFamily, QueryKey> {
  return {
    "runs.list": trpc.runs.list.queryKey(),
    "runs.byId": trpc.runs.byId.queryKey(),
    "runs.config": trpc.runs.config.queryKey(),
    "runs.metricNames": trpc.runs.metricNames.queryKey(),
    "runs.metrics": trpc.runs.metrics.queryKey(),
    "runs.stepRollouts": trpc.runs.stepRollouts.queryKey(),
    "runs.stepGroup": trpc.runs.stepGroup.queryKey(),
    "runs.tokenCap": trpc.runs.tokenCap.queryKey(),
    "training.runs": trpc.training.runs.queryKey(),
    "projects.byId": trpc.projects.byId.queryKey(),
    "models.list": trpc.models.list.queryKey(),
    "videos.list": trpc.videos.list.queryKey(),
    "datasets.list": trpc.datasets.list.queryKey(),
    "datasets.byId": trpc.datasets.byId.queryKey(),
    "datasets.samples": trpc.datasets.samples.queryKey(),
    "evals.groups": trpc.evals.groups.queryKey(),
    "evals.group": trpc.evals.group.queryKey(),
    "evals.byId": trpc.evals.byId.queryKey(),
    "evals.matrix": trpc.evals.matrix.queryKey(),
    "evals.samples": trpc.evals.samples.queryKey(),
    "evals.runsOn": trpc.evals.runsOn.queryKey(),
    "evals.compare": trpc.evals.compare.queryKey(),
  };
}

/** A tRPC query's input (its key is `[path, { input, type }]`). */
const inputOf = (q: Query): unknown => (q.queryKey[1] as { input?: unknown } | undefined)?.input;

function filterOf(keys: Record<LiveQueryFamily, QueryKey>, r: LiveRefresh): QueryFilters {
  const queryKey = keys[r.family];
  const runId = r.runId;
  return runId === undefined ? { queryKey } : { queryKey, predicate: (q) => inputNamesRun(inputOf(q), runId) };
}

/** On (re)subscription: everything, since events before it were not seen. */
export function refreshAllLive(queryClient: QueryClient, trpc: Trpc): Promise<void> {
  const keys = familyKeys(trpc);
  return refreshQueryFilters(
    queryClient,
    subscribedPlan().map((r) => filterOf(keys, r)),
  );
}

export async function applyRunEvent(queryClient: QueryClient, trpc: Trpc, event: RunEvent): Promise<void> {
  const keys = familyKeys(trpc);
  const plan = liveRunPlan(event);
  if (plan.patchRows) patchRows(queryClient, keys, event);
  await Promise.all([
    refreshQueryFilters(
      queryClient,
      plan.refresh.map((r) => filterOf(keys, r)),
    ),
    plan.metrics ? appendMetrics(queryClient, trpc, keys, plan.metrics) : undefined,
  ]);
}

/** The run's cached rows take the event's status, progress, message and error: no request. */
function patchRows(queryClient: QueryClient, keys: Record<LiveQueryFamily, QueryKey>, event: RunEvent): void {
  const holds = (rows: readonly { id: string }[]) => rows.some((r) => r.id === event.runId);
  queryClient.setQueriesData<RunOutput>({ queryKey: keys["runs.byId"] }, (old) =>
    old ? patchRunRow(old, event) : old,
  );
  queryClient.setQueriesData<RunOutput[]>({ queryKey: keys["runs.list"] }, (old) =>
    old && holds(old) ? old.map((r) => patchRunRow(r, event)) : old,
  );
  queryClient.setQueriesData<RunsTableOutput>({ queryKey: keys["training.runs"] }, (old) =>
    old && holds(old.rows) ? { ...old, rows: old.rows.map((r) => patchRunRow(r, event)) } : old,
  );
}

/** One append at a time per chart query, so each starts from the points the last one left. */
const appending = new Map<string, Promise<void>>();

function serially(hash: string, work: () => Promise<void>): Promise<void> {
  const next = (appending.get(hash) ?? Promise.resolve()).then(work, work);
  appending.set(hash, next);
  void next.finally(() => {
    if (appending.get(hash) === next) appending.delete(hash);
  });
  return next;
}

async function appendMetrics(
  queryClient: QueryClient,
  trpc: Trpc,
  keys: Record<LiveQueryFamily, QueryKey>,
  change: MetricsChange & { runId: string },
): Promise<void> {
  const cache = queryClient.getQueryCache();
  const about = (q: Query) => inputNamesRun(inputOf(q), change.runId);
  const work: Promise<void>[] = [];
  // A run's series list is read again only when it lacks a series the event names.
  const lacking = cache.findAll({
    queryKey: keys["runs.metricNames"],
    predicate: (q) => about(q) && metricNamesLack(q.state.data as MetricNamesOutput | undefined, change),
  });
  if (lacking.length) {
    work.push(
      refreshQueryFilters(
        queryClient,
        lacking.map((q) => ({ queryKey: q.queryKey, exact: true })),
      ),
    );
  }
  for (const q of cache.findAll({ queryKey: keys["runs.metrics"], predicate: about })) {
    // A chart not on screen is only marked stale: its next mount reads it whole.
    if (!q.isActive()) {
      work.push(queryClient.invalidateQueries({ queryKey: q.queryKey, exact: true, refetchType: "none" }));
      continue;
    }
    const queryKey = q.queryKey;
    work.push(serially(q.queryHash, () => appendNewPoints(queryClient, trpc, queryKey, change)));
  }
  await Promise.all(work);
}

/** Appends a chart's points after its last step (runs.metricsSince), else reads it again. */
async function appendNewPoints(
  queryClient: QueryClient,
  trpc: Trpc,
  queryKey: QueryKey,
  change: MetricsChange,
): Promise<void> {
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  if (!query) return;
  const again = () => refreshQueryFilters(queryClient, [{ queryKey, exact: true }]);
  // A read in flight may or may not hold the new points: append after it, from its last step. Never
  // restart it: with a slow read and a steady stream of events it would never land.
  for (let p = query.promise; query.state.fetchStatus === "fetching" && p; p = query.promise) {
    await p.catch(() => undefined);
  }
  // Parsed: the defaults a page may leave out (x, maxPoints) are the ones the server applied.
  const input = metricQueryInput.parse(inputOf(query));
  const held = queryClient.getQueryData<MetricQueryOutput>(queryKey);
  const request = metricsAppendRequest(input, held, change);
  if (request.action === "skip") return;
  if (request.action === "refetch") return again();
  const { names: _names, ...read } = input;
  let since: MetricQueryOutput;
  try {
    since = await queryClient.fetchQuery({
      ...trpc.runs.metricsSince.queryOptions({ ...read, series: request.series, untilStep: request.untilStep }),
      staleTime: 0,
      gcTime: 0,
    });
  } catch {
    return again();
  }
  const current = queryClient.getQueryData<MetricQueryOutput>(queryKey);
  const merged = current ? appendSince(current, since, request.series, input.maxPoints) : null;
  if (!merged) return again();
  queryClient.setQueryData(queryKey, merged);
}
