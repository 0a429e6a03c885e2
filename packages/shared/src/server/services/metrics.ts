import { flattenConfig, RUN_CHANGE_MAX_NAMES, type MetricsChange } from "../../contracts/runs";
import { NotFoundError } from "../../errors";
import { csvRow } from "../csv";
import { db, dbPool } from "../db";
import { downsampleMinMax, type SeriesPoint } from "../../metrics-downsample";
import type { ConfigDiffOutput, MetricExportInput, MetricExportOutput, MetricX } from "../../contracts/runs";
import type { ProjectAccess } from "./access";
import { CHART_CACHE_MAX_POINTS, ChartCache, type ChartCacheStats } from "./metric-chart-cache";
import { inSnapshot, metricMark, readChartSeries, type SeriesRead, type SeriesWindow } from "./metric-chart-read";

// The in-memory downsampler moved to the client-safe entry (a live chart compacts with it too).
export { downsampleMinMax, type SeriesPoint } from "../../metrics-downsample";

export async function readSeries(
  access: ProjectAccess,
  input: { runId: string; names: string[]; maxPoints: number },
): Promise<{ name: string; total: number; points: SeriesPoint[] }[]> {
  const run = await db().run.findFirst({
    where: { id: input.runId, projectId: access.projectId },
    select: { id: true },
  });
  if (!run) throw new NotFoundError("Run");
  return Promise.all(
    input.names.map(async (name) => {
      // The unique (run, name, step) index serves this read in step order.
      const rows = await db().metric.findMany({
        where: { runId: run.id, name },
        orderBy: { step: "asc" },
        select: { step: true, value: true },
      });
      return { name, total: rows.length, points: downsampleMinMax(rows, input.maxPoints) };
    }),
  );
}

/**
 * Writes one step's metrics; a retried step writes nothing twice (unique run + name + step).
 * Returns what a run event says of it (`changed.metrics`), null when nothing was finite to write.
 */
export async function recordStep(
  runId: string,
  step: number,
  values: Record<string, number>,
  /** When the step happened; defaults to the database's now() (seeders and imports pass it). */
  at?: Date,
): Promise<MetricsChange | null> {
  const data = Object.entries(values)
    .filter(([, v]) => Number.isFinite(v))
    .map(([name, value]) => ({ runId, step, name, value, ...(at ? { wallTime: at } : {}) }));
  if (!data.length) return null;
  const before = await lastSteps(
    runId,
    data.map((d) => d.name),
  );
  // A retried step (a resumed run) writes nothing and announces nothing.
  const { count } = await db().metric.createMany({ data, skipDuplicates: true });
  if (count === 0) return null;
  return metricsChange(
    data.map((d) => ({ name: d.name, step })),
    before,
  );
}

/**
 * The last stored step of each named series of a run (absent: none yet), one index probe each:
 * what tells a write out of step order (`changed.metrics.backfill`).
 */
export async function lastSteps(runId: string, names: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map();
  const rows = await db().$queryRaw<{ name: string; last: number | null }[]>`
    SELECT n.name, (SELECT max(step) FROM metrics m WHERE m.run_id = ${runId} AND m.name = n.name) AS last
    FROM unnest(${unique}::text[]) AS n(name)`;
  return new Map(rows.filter((r) => r.last !== null).map((r) => [r.name, r.last!]));
}

/**
 * `changed.metrics` of written points: their step range, the names unless too many to list, and
 * `backfill` when one lands at or before its series' last step before the write (`before`).
 */
export function metricsChange(
  written: readonly { name: string; step: number }[],
  before: ReadonlyMap<string, number>,
): MetricsChange {
  const unique = [...new Set(written.map((w) => w.name))].sort();
  const steps = written.map((w) => w.step);
  const backfill = written.some((w) => w.step <= (before.get(w.name) ?? -Infinity));
  return {
    ...(unique.length <= RUN_CHANGE_MAX_NAMES ? { names: unique } : {}),
    fromStep: Math.min(...steps),
    toStep: Math.max(...steps),
    ...(backfill ? { backfill: true as const } : {}),
  };
}

/** The highest step with a stored metric (null before the first): how far a run is recorded. */
export async function lastStoredStep(runId: string): Promise<number | null> {
  const agg = await db().metric.aggregate({ where: { runId }, _max: { step: true } });
  return agg._max.step;
}

async function runInProject(access: ProjectAccess, runId: string) {
  const run = await db().run.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { id: true, name: true, config: true },
  });
  if (!run) throw new NotFoundError("Run");
  return run;
}

/** The series a run has, with their extent, in name order (what the dashboard draws). */
export async function listMetricNames(
  access: ProjectAccess,
  runId: string,
): Promise<{ name: string; count: number; firstStep: number; lastStep: number }[]> {
  const run = await runInProject(access, runId);
  const groups = await db().metric.groupBy({
    by: ["name"],
    where: { runId: run.id },
    _count: { _all: true },
    _min: { step: true },
    _max: { step: true },
    orderBy: { name: "asc" },
  });
  return groups.map((g) => ({
    name: g.name,
    count: g._count._all,
    firstStep: g._min.step ?? 0,
    lastStep: g._max.step ?? 0,
  }));
}

/**
 * Chart reads answered so far, keyed by the run's metrics watermark (metric-chart-cache.ts): a
 * read of the same chart at the same version is answered from here.
 */
const chartCache = new ChartCache<SeriesRead[]>(CHART_CACHE_MAX_POINTS, (series) =>
  series.reduce((n, s) => n + s.steps.length, 0),
);

/** The chart cache's counts (hits, misses, entries, points) and a way to empty it (benchmarks). */
export const chartCacheStats = (): ChartCacheStats => chartCache.stats();
export const clearChartCache = (): void => chartCache.clear();

/**
 * Series of a run for a chart: optionally only a zoom window (in steps or in seconds since the
 * first metric), each downsampled to maxPoints with min/max kept (DESIGN.md "Charts"), so a zoom
 * re-fetch shows the window's full detail again. Downsampled in Postgres, from the rollup tier
 * when the span is long (metric-chart-read.ts): two statements for all the series. Answered from
 * the chart cache while the run's metrics watermark has not moved: one statement, which also
 * checks the run is in the project. The answer is frozen: callers share it.
 */
export async function readSeriesWindow(
  access: ProjectAccess,
  input: { runId: string; names: string[]; maxPoints: number; x: MetricX; range?: { from: number; to: number } },
): Promise<SeriesRead[]> {
  const pool = dbPool();
  const mark = await metricMark(pool, access.projectId, input.runId);
  if (!mark) throw new NotFoundError("Run");
  const key = (version: string) =>
    JSON.stringify([
      input.runId,
      version,
      input.x,
      input.range?.from ?? null,
      input.range?.to ?? null,
      input.maxPoints,
      input.names,
    ]);
  return chartCache.read(key(mark.version), async () => {
    // The watermark and the rows from one snapshot: the entry is kept under the version its rows
    // have (a write since `mark` gives a newer one), never under an older one.
    const { version, series } = await inSnapshot(pool, async (c) => {
      const seen = await metricMark(c, access.projectId, input.runId);
      if (!seen) throw new NotFoundError("Run");
      const w = seriesWindow(seen.t0, input.x, input.range);
      const asks = input.names.map((name) => ({ name, afterStep: null }));
      return {
        version: seen.version,
        series: await readChartSeries(c, input.runId, seen.t0, asks, input.maxPoints, w),
      };
    });
    return { key: key(version), value: frozen(series) };
  });
}

/**
 * The answer, its series and their columns frozen. V8 keeps a frozen array's fractional numbers
 * boxed (measured 12.8 -> 36.9 bytes a number), which the cache's bound counts; through tRPC a
 * hit still cost less CPU frozen than not (bench/metrics/trpc-hit.ts, alternating: 4.7-4.8 vs
 * 5.4-5.9 ms a chart with 50 clients).
 */
function frozen(series: SeriesRead[]): SeriesRead[] {
  for (const s of series) {
    Object.freeze(s.steps);
    Object.freeze(s.t);
    Object.freeze(s.values);
    Object.freeze(s);
  }
  return Object.freeze(series) as SeriesRead[];
}

/**
 * A live chart's new points (issue 42 item 1): per series, the window's points after the step the
 * chart already holds (up to `untilStep`, the event's last), read through the (run, name, step)
 * index from that step on, so the cost follows the new points, not the run's length. Same window,
 * x axis, time zero and downsampling as `readSeriesWindow` (not cached: each asks for other
 * steps); `total` counts the new points.
 */
export async function readSeriesSince(
  access: ProjectAccess,
  input: {
    runId: string;
    series: { name: string; afterStep: number | null }[];
    untilStep?: number;
    maxPoints: number;
    x: MetricX;
    range?: { from: number; to: number };
  },
): Promise<SeriesRead[]> {
  const asks = input.series.map((s) => ({
    name: s.name,
    afterStep: s.afterStep,
    ...(input.untilStep !== undefined ? { untilStep: input.untilStep } : {}),
  }));
  return inSnapshot(dbPool(), async (c) => {
    const mark = await metricMark(c, access.projectId, input.runId);
    if (!mark) throw new NotFoundError("Run");
    const w = seriesWindow(mark.t0, input.x, input.range);
    return readChartSeries(c, input.runId, mark.t0, asks, input.maxPoints, w);
  });
}

/** The zoom window of a read in the database's terms (steps, or wall times from t0). */
function seriesWindow(t0: number, x: MetricX, range?: { from: number; to: number }): SeriesWindow {
  if (!range) return null;
  return x === "step"
    ? { step: { from: Math.ceil(range.from), to: Math.floor(range.to) } }
    : { time: { from: new Date(t0 + range.from * 1000), to: new Date(t0 + range.to * 1000) } };
}

/**
 * One page of an export of all points (never downsampled), paginated by step so a long run never
 * builds one huge response: the client asks again with afterStep = nextAfterStep until null.
 */
export async function exportSeries(
  access: ProjectAccess,
  input: Omit<MetricExportInput, "projectId">,
): Promise<MetricExportOutput> {
  const mark = await metricMark(dbPool(), access.projectId, input.runId);
  if (!mark) throw new NotFoundError("Run");
  const t0 = mark.t0;
  const names = [...new Set(input.names)];
  const where = { runId: input.runId, name: { in: names } };
  const steps = await db().metric.findMany({
    where: { ...where, ...(input.afterStep !== undefined ? { step: { gt: input.afterStep } } : {}) },
    distinct: ["step"],
    orderBy: { step: "asc" },
    take: input.limitSteps + 1,
    select: { step: true },
  });
  const page = steps.slice(0, input.limitSteps);
  const more = steps.length > input.limitSteps;
  const rows = page.length
    ? await db().metric.findMany({
        where: { ...where, step: { gte: page[0]!.step, lte: page.at(-1)!.step } },
        orderBy: [{ step: "asc" }, { name: "asc" }],
        select: { step: true, name: true, value: true, wallTime: true },
      })
    : [];
  // Wide rows: one per step; time_s is the step's earliest write (its series are written together).
  const byStep = new Map<number, { step: number; time_s: number; values: Record<string, number> }>();
  for (const r of rows) {
    const t = (r.wallTime.getTime() - t0) / 1000;
    const row = byStep.get(r.step) ?? { step: r.step, time_s: t, values: {} };
    row.time_s = Math.min(row.time_s, t);
    row.values[r.name] = r.value;
    byStep.set(r.step, row);
  }
  const wide = [...byStep.values()];
  const nextAfterStep = more ? page.at(-1)!.step : null;
  if (input.format === "json") {
    const content = JSON.stringify(wide.map((w) => ({ step: w.step, time_s: w.time_s, ...w.values })));
    return { format: "json", content, rows: wide.length, nextAfterStep };
  }
  const lines: string[] = [];
  if (input.afterStep === undefined) lines.push(csvRow(["step", "time_s", ...names]));
  for (const w of wide) {
    // A series not written at this step is an empty cell (e.g. validation every N steps).
    lines.push(
      [String(w.step), String(w.time_s), ...names.map((n) => (n in w.values ? String(w.values[n]) : ""))].join(","),
    );
  }
  return { format: "csv", content: lines.length ? `${lines.join("\n")}\n` : "", rows: wide.length, nextAfterStep };
}

/** Two or more runs' configs side by side, only the keys whose values differ (a missing key differs). */
export async function configDiff(access: ProjectAccess, runIds: string[]): Promise<ConfigDiffOutput> {
  const runs = [];
  for (const id of runIds) runs.push(await runInProject(access, id));
  const flat = runs.map((r) => flattenConfig(r.config));
  const keys = [...new Set(flat.flatMap((f) => Object.keys(f)))].sort();
  const rows: ConfigDiffOutput["rows"] = [];
  let same = 0;
  for (const key of keys) {
    const values = flat.map((f) => f[key] ?? null);
    if (values.every((v) => v === values[0])) same++;
    else rows.push({ key, values });
  }
  return { runs: runs.map((r) => ({ id: r.id, name: r.name })), rows, same };
}
