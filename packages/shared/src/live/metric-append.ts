// A live chart's incremental update (issue 42 item 1): after a run event with new points, a cached
// series read (runs.metrics) asks only for the points after the last step it holds
// (runs.metricsSince) and appends them, instead of reading the whole series again. Pure, so the
// web's useLiveRuns and bench/live share it.
import {
  lastStepOf,
  seriesColumns,
  seriesPoints,
  type MetricQueryOutput,
  type MetricsChange,
  type MetricX,
} from "../contracts/runs";
import { downsampleMinMax } from "../metrics-downsample";

/** The part of a runs.metrics input that decides what a change means to it. */
export interface ChartRead {
  names: string[];
  maxPoints: number;
  x: MetricX;
  range?: { from: number; to: number };
}

export type AppendRequest =
  /** Nothing this read shows changed. */
  | { action: "skip" }
  /** The read must be done again (no data yet, or points landed before steps it holds). */
  | { action: "refetch" }
  /**
   * Ask for these series' points after these steps and up to untilStep (runs.metricsSince), then
   * `appendSince`.
   */
  | { action: "since"; series: { name: string; afterStep: number | null }[]; untilStep: number };

/**
 * What a cached read does about new points at steps fromStep..toStep of `change.names`. The server
 * keeps each window's last point, so the last step a read holds of a series is the series' last
 * when it was read, and the read holds every point up to it. New points after it are appended
 * (asked for up to toStep only, so the read never gets ahead of the events); points up to it were
 * written before the read (a series is written in step order) and are shown already. A write out
 * of step order says so (`backfill`): the read is done again.
 */
export function metricsAppendRequest(
  read: ChartRead,
  data: MetricQueryOutput | undefined,
  change: MetricsChange,
): AppendRequest {
  const touched = change.names ? read.names.filter((n) => change.names!.includes(n)) : read.names;
  if (touched.length === 0) return { action: "skip" };
  if (read.x === "step" && read.range && (change.toStep < read.range.from || change.fromStep > read.range.to)) {
    return { action: "skip" };
  }
  if (!data || change.backfill) return { action: "refetch" };
  // A step window ends where it ends: a series holding its end has nothing more to show.
  const last = read.x === "step" && read.range ? Math.min(change.toStep, Math.floor(read.range.to)) : change.toStep;
  const series: { name: string; afterStep: number | null }[] = [];
  for (const name of touched) {
    const held = data.find((s) => s.name === name);
    if (!held) return { action: "refetch" };
    const afterStep = lastStepOf(held);
    if (afterStep === null || afterStep < last) series.push({ name, afterStep });
  }
  return series.length ? { action: "since", series, untilStep: change.toStep } : { action: "skip" };
}

/**
 * The cached read with the new points appended (`since` answers `asked`). Null when the cache
 * moved on meanwhile (its last step is no longer the one asked after): the caller reads again.
 * A series past 2 x maxPoints is compacted the server's way (min/max per bucket, last point kept),
 * so a long live run stays as light as a fresh read.
 */
export function appendSince(
  data: MetricQueryOutput,
  since: MetricQueryOutput,
  asked: readonly { name: string; afterStep: number | null }[],
  maxPoints: number,
): MetricQueryOutput | null {
  const out: MetricQueryOutput = [];
  for (const held of data) {
    const a = asked.find((s) => s.name === held.name);
    if (!a) {
      out.push(held);
      continue;
    }
    if (lastStepOf(held) !== a.afterStep) return null;
    const fresh = since.find((s) => s.name === held.name);
    if (!fresh || fresh.steps.length === 0) {
      out.push(held);
      continue;
    }
    const total = held.total + fresh.total;
    if (held.steps.length + fresh.steps.length <= 2 * maxPoints) {
      out.push({
        name: held.name,
        total,
        steps: [...held.steps, ...fresh.steps],
        t: [...held.t, ...fresh.t],
        values: [...held.values, ...fresh.values],
      });
      continue;
    }
    const points = [...seriesPoints(held), ...seriesPoints(fresh)];
    const last = points.at(-1)!;
    out.push({
      name: held.name,
      total,
      ...seriesColumns([...downsampleMinMax(points.slice(0, -1), maxPoints - 1), last]),
    });
  }
  return out;
}
