// Coalescing of run events (issue 42 item 1): a burst of one run's events (a trainer's steps, an
// evaluation's samples) becomes one event that says everything the burst changed. Pure, so the
// server's coalescer (server/events.ts) and its tests share it.
import {
  RUN_CHANGE_MAX_IDS,
  RUN_CHANGE_MAX_NAMES,
  type MetricsChange,
  type RunChange,
  type RunEvent,
} from "../contracts/runs";

function mergeMetrics(a: MetricsChange | undefined, b: MetricsChange | undefined): MetricsChange | undefined {
  if (!a || !b) return a ?? b;
  // Either side without names means any series; a union past the cap is named by none.
  const names = a.names && b.names ? [...new Set([...a.names, ...b.names])].sort() : undefined;
  return {
    ...(names && names.length <= RUN_CHANGE_MAX_NAMES ? { names } : {}),
    fromStep: Math.min(a.fromStep, b.fromStep),
    toStep: Math.max(a.toStep, b.toStep),
    ...(a.backfill || b.backfill ? { backfill: true as const } : {}),
  };
}

function mergeEpisodes(a: RunChange["episodes"], b: RunChange["episodes"]): RunChange["episodes"] {
  if (!a || !b) return a ?? b;
  // Ids only when both sides listed all of theirs and the union still fits.
  const ids = a.ids && b.ids ? [...new Set([...a.ids, ...b.ids])] : undefined;
  return { count: a.count + b.count, ...(ids && ids.length <= RUN_CHANGE_MAX_IDS ? { ids } : {}) };
}

/** What two changes of one run say together; an unsaid change (undefined) stays unsaid. */
export function mergeRunChanges(a: RunChange | undefined, b: RunChange | undefined): RunChange | undefined {
  if (!a || !b) return undefined;
  const metrics = mergeMetrics(a.metrics, b.metrics);
  const episodes = mergeEpisodes(a.episodes, b.episodes);
  return {
    ...(a.status || b.status ? { status: true as const } : {}),
    ...(metrics ? { metrics } : {}),
    ...(episodes ? { episodes } : {}),
  };
}

/**
 * One event for `earlier` then `later` of the same run: the row as `later` has it (status,
 * progress, message, error, time), the changes of both.
 */
export function mergeRunEvents(earlier: RunEvent, later: RunEvent): RunEvent {
  const { changed: _changed, ...row } = later;
  const changed = mergeRunChanges(earlier.changed, later.changed);
  return { ...row, ...(changed ? { changed } : {}) };
}
