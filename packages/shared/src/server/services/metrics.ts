import { Prisma } from "@paravt/db";
import { flattenConfig, RUN_CHANGE_MAX_NAMES, type MetricsChange } from "../../contracts/runs";
import { NotFoundError } from "../../errors";
import { csvRow } from "../csv";
import { db } from "../db";
import { downsampleMinMax, type SeriesPoint } from "../../metrics-downsample";
import type {
  ConfigDiffOutput,
  MetricExportInput,
  MetricExportOutput,
  MetricPoint,
  MetricX,
} from "../../contracts/runs";
import type { ProjectAccess } from "./access";
import { rollupExtremesSql, rollupLevel } from "./metric-rollups";

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

/**
 * Time zero of a run's time axis: its first metric (startedAt moves on a resumed attempt). One
 * probe of the (run, wall_time) index, whatever the run's length.
 */
async function timeZero(runId: string): Promise<number> {
  const first = await db().metric.findFirst({
    where: { runId },
    orderBy: { wallTime: "asc" },
    select: { wallTime: true },
  });
  return first?.wallTime.getTime() ?? 0;
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

type SeriesWindow = { step: { from: number; to: number } } | { time: { from: Date; to: Date } } | null;

/** The SQL condition of a zoom window (steps inclusive, or wall times inclusive). */
function windowSql(w: SeriesWindow): Prisma.Sql {
  if (!w) return Prisma.empty;
  if ("step" in w) return Prisma.sql`AND step BETWEEN ${w.step.from} AND ${w.step.to}`;
  return Prisma.sql`AND wall_time BETWEEN ${w.time.from} AND ${w.time.to}`;
}

/**
 * One series in a window, downsampled IN THE DATABASE (issue 42 item 2): the rows never leave
 * Postgres. Its probe (`probeSeries`, one statement for all the series of a read) has the window's
 * first and last step and whether it holds more than maxPoints rows (an index read that stops at
 * row maxPoints + 1). A window of up to maxPoints rows
 * comes back as it is. Above that, the window's step range is cut into (maxPoints - 1)/2 equal
 * buckets (`width_bucket`) and each keeps its lowest and highest point (DESIGN.md "Charts": spikes
 * survive at any zoom): `min(ARRAY[value, step])` picks a bucket's lowest value with its step in
 * one hash-aggregate pass, ties to the earliest step (`max(ARRAY[value, -step])` the same for the
 * highest), so the window is never sorted. A long span of steps reads the pre-aggregated tier
 * instead of the rows (metric-rollups.ts); a wall-time window always reads its rows. The kept
 * points' times are joined in the same statement, and every answer is one row of arrays (a
 * thousand rows through the driver cost more than the query). The window's last point is always
 * kept (issue 42 item 1): a live chart appends the points after it, and a chart's "value @ step N"
 * is the latest step's.
 * `live`: only the points after `afterStep` and up to `untilStep` (a live chart's new points,
 * `readSeriesSince`).
 */
async function readOneSeries(
  runId: string,
  name: string,
  t0: number,
  maxPoints: number,
  w: SeriesWindow,
  live: { afterStep: number | null; untilStep?: number },
  probe: SeriesProbe | undefined,
): Promise<{ total: number; points: MetricPoint[] }> {
  const after = live.afterStep === null ? Prisma.empty : Prisma.sql`AND step > ${live.afterStep}`;
  const until = live.untilStep === undefined ? Prisma.empty : Prisma.sql`AND step <= ${live.untilStep}`;
  const where = Prisma.sql`run_id = ${runId} AND name = ${name} ${windowSql(w)} ${after} ${until}`;
  if (probe?.lo == null || probe.hi == null) return { total: 0, points: [] };
  const toPoints = (r: SeriesArrays | undefined) => {
    const vals = r?.vals ?? [];
    const ms = r?.ms ?? [];
    return (r?.steps ?? []).map((step, i) => ({ step, value: vals[i]!, t: (ms[i]! - t0) / 1000 }));
  };
  if (probe.more === null) {
    const [all] = await db().$queryRaw<SeriesArrays[]>`
      SELECT array_agg(step ORDER BY step) AS steps, array_agg(value ORDER BY step) AS vals,
             array_agg(extract(epoch FROM wall_time) * 1000 ORDER BY step)::float8[] AS ms
      FROM metrics WHERE ${where}`;
    const points = toPoints(all);
    return { total: points.length, points };
  }
  const { lo, hi } = probe;
  const buckets = Math.max(1, Math.floor((maxPoints - 1) / 2));
  // Every condition of a step window is a step range, so [lo, hi] is the window: long spans read
  // the pre-aggregated tier. A wall-time window scans its rows.
  const level = w && "time" in w ? null : rollupLevel(lo, hi, buckets);
  const extremes =
    level !== null
      ? rollupExtremesSql(runId, name, lo, hi, buckets, level)
      : Prisma.sql`
        SELECT min(ARRAY[value, step::float8]) AS low, max(ARRAY[value, -step::float8]) AS high, count(*)::int AS n
        FROM metrics WHERE ${where}
        GROUP BY width_bucket(step, ${lo}, ${hi + 1}, ${buckets})`;
  const [kept] = await db().$queryRaw<(SeriesArrays & { total: number })[]>`
    WITH ext AS (${extremes}),
    kept AS (
      SELECT (low[2])::int AS step FROM ext
      UNION SELECT (-high[2])::int FROM ext
      UNION SELECT ${hi}::int
    )
    SELECT array_agg(m.step ORDER BY m.step) AS steps, array_agg(m.value ORDER BY m.step) AS vals,
           array_agg(extract(epoch FROM m.wall_time) * 1000 ORDER BY m.step)::float8[] AS ms,
           (SELECT sum(n) FROM ext)::int AS total
    FROM kept JOIN metrics m ON m.run_id = ${runId} AND m.name = ${name} AND m.step = kept.step`;
  return { total: kept?.total ?? 0, points: toPoints(kept) };
}

/** A series' window: its first and last step, and a step past maxPoints rows when it has more. */
interface SeriesProbe {
  lo: number | null;
  hi: number | null;
  more: number | null;
}

/**
 * The probes of every series of a read in one statement (a chart asks for six): per series three
 * index reads that stop early, the step bounds as index conditions (COALESCE, not OR, so the
 * planner keeps them on the index).
 */
async function probeSeries(
  runId: string,
  series: { name: string; afterStep: number | null; untilStep?: number }[],
  maxPoints: number,
  w: SeriesWindow,
): Promise<Map<string, SeriesProbe>> {
  const names = series.map((s) => s.name);
  const afters = series.map((s) => s.afterStep);
  const untils = series.map((s) => s.untilStep ?? null);
  const where = Prisma.sql`run_id = ${runId} AND name = s.name ${windowSql(w)}
    AND step > COALESCE(s.after, -2147483648) AND step <= COALESCE(s.until, 2147483647)`;
  const rows = await db().$queryRaw<(SeriesProbe & { name: string })[]>`
    SELECT s.name,
           (SELECT step FROM metrics WHERE ${where} ORDER BY step LIMIT 1) AS lo,
           (SELECT step FROM metrics WHERE ${where} ORDER BY step DESC LIMIT 1) AS hi,
           (SELECT step FROM metrics WHERE ${where} ORDER BY step OFFSET ${maxPoints} LIMIT 1) AS more
    FROM unnest(${names}::text[], ${afters}::int[], ${untils}::int[]) AS s(name, after, until)`;
  return new Map(rows.map((r) => [r.name, r]));
}

/** A series' points as one row of parallel arrays (steps ascending, values, wall times in ms). */
interface SeriesArrays {
  steps: number[] | null;
  vals: number[] | null;
  ms: number[] | null;
}

/**
 * Series of a run for a chart: optionally only a zoom window (in steps or in seconds since the
 * first metric), each downsampled to maxPoints with min/max kept (DESIGN.md "Charts"), so a zoom
 * re-fetch shows the window's full detail again.
 */
export async function readSeriesWindow(
  access: ProjectAccess,
  input: { runId: string; names: string[]; maxPoints: number; x: MetricX; range?: { from: number; to: number } },
): Promise<{ name: string; total: number; points: MetricPoint[] }[]> {
  const run = await runInProject(access, input.runId);
  const t0 = await timeZero(run.id);
  const w = seriesWindow(t0, input.x, input.range);
  const probes = await probeSeries(
    run.id,
    input.names.map((name) => ({ name, afterStep: null })),
    input.maxPoints,
    w,
  );
  return Promise.all(
    input.names.map(async (name) => ({
      name,
      ...(await readOneSeries(run.id, name, t0, input.maxPoints, w, { afterStep: null }, probes.get(name))),
    })),
  );
}

/**
 * A live chart's new points (issue 42 item 1): per series, the window's points after the step the
 * chart already holds (up to `untilStep`, the event's last), read through the (run, name, step)
 * index from that step on, so the cost follows the new points, not the run's length. Same window,
 * x axis, time zero and downsampling as `readSeriesWindow`; `total` counts the new points.
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
): Promise<{ name: string; total: number; points: MetricPoint[] }[]> {
  const run = await runInProject(access, input.runId);
  const t0 = await timeZero(run.id);
  const w = seriesWindow(t0, input.x, input.range);
  const live = (s: { afterStep: number | null }) => ({
    afterStep: s.afterStep,
    ...(input.untilStep !== undefined ? { untilStep: input.untilStep } : {}),
  });
  const probes = await probeSeries(
    run.id,
    input.series.map((s) => ({ name: s.name, ...live(s) })),
    input.maxPoints,
    w,
  );
  return Promise.all(
    input.series.map(async (s) => ({
      name: s.name,
      ...(await readOneSeries(run.id, s.name, t0, input.maxPoints, w, live(s), probes.get(s.name))),
    })),
  );
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
  const run = await runInProject(access, input.runId);
  const t0 = await timeZero(run.id);
  const names = [...new Set(input.names)];
  const where = { runId: run.id, name: { in: names } };
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
