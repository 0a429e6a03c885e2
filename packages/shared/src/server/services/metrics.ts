import { Prisma } from "@paravt/db";
import { flattenConfig } from "../../contracts/runs";
import { NotFoundError } from "../../errors";
import { csvRow } from "../csv";
import { db } from "../db";
import type {
  ConfigDiffOutput,
  MetricExportInput,
  MetricExportOutput,
  MetricPoint,
  MetricX,
} from "../../contracts/runs";
import type { ProjectAccess } from "./access";

export interface SeriesPoint {
  step: number;
  value: number;
}

/**
 * Min/max-preserving downsampling: each of maxPoints/2 buckets keeps its lowest and highest
 * point, so spikes (a loss blow-up) survive at any zoom level (DESIGN.md "Charts").
 */
export function downsampleMinMax<P extends SeriesPoint>(points: P[], maxPoints: number): P[] {
  if (points.length <= maxPoints) return points;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = points.length / buckets;
  const out: P[] = [];
  for (let b = 0; b < buckets; b++) {
    const slice = points.slice(Math.floor(b * size), Math.floor((b + 1) * size));
    if (slice.length === 0) continue;
    let lo = slice[0]!;
    let hi = slice[0]!;
    for (const p of slice) {
      if (p.value < lo.value) lo = p;
      if (p.value > hi.value) hi = p;
    }
    if (lo === hi) out.push(lo);
    else out.push(...(lo.step < hi.step ? [lo, hi] : [hi, lo]));
  }
  return out;
}

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

/** Writes one step's metrics; a retried step writes nothing twice (unique run + name + step). */
export async function recordStep(
  runId: string,
  step: number,
  values: Record<string, number>,
  /** When the step happened; defaults to the database's now() (seeders and imports pass it). */
  at?: Date,
): Promise<void> {
  const data = Object.entries(values)
    .filter(([, v]) => Number.isFinite(v))
    .map(([name, value]) => ({ runId, step, name, value, ...(at ? { wallTime: at } : {}) }));
  if (data.length) await db().metric.createMany({ data, skipDuplicates: true });
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
 * Postgres. A window of up to maxPoints rows comes back as it is (one index range read of at most
 * maxPoints + 1 rows tells). Above that, the window's step range is cut into maxPoints/2 equal
 * buckets (`width_bucket`) and each keeps its lowest and highest point (DESIGN.md "Charts": spikes
 * survive at any zoom): `min(ARRAY[value, step])` picks a bucket's lowest value with its step in
 * one hash-aggregate pass, ties to the earliest step (`max(ARRAY[value, -step])` the same for the
 * highest), so the window is never sorted; then the kept points' times are read by step.
 */
async function readOneSeries(
  runId: string,
  name: string,
  t0: number,
  maxPoints: number,
  w: SeriesWindow,
): Promise<{ total: number; points: MetricPoint[] }> {
  const where = Prisma.sql`run_id = ${runId} AND name = ${name} ${windowSql(w)}`;
  const at = (wallTime: Date) => (wallTime.getTime() - t0) / 1000;
  const head = await db().$queryRaw<{ step: number; value: number; wall_time: Date }[]>`
    SELECT step, value, wall_time FROM metrics WHERE ${where} ORDER BY step LIMIT ${maxPoints + 1}`;
  if (head.length <= maxPoints) {
    return { total: head.length, points: head.map((r) => ({ step: r.step, value: r.value, t: at(r.wall_time) })) };
  }
  const [last] = await db().$queryRaw<{ step: number }[]>`
    SELECT step FROM metrics WHERE ${where} ORDER BY step DESC LIMIT 1`;
  const lo = head[0]!.step;
  const hi = last!.step;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const extremes = await db().$queryRaw<{ low: number[]; high: number[]; n: number }[]>`
    SELECT min(ARRAY[value, step::float8]) AS low, max(ARRAY[value, -step::float8]) AS high, count(*)::int AS n
    FROM metrics WHERE ${where}
    GROUP BY width_bucket(step, ${lo}, ${hi + 1}, ${buckets})`;
  const kept = new Map<number, number>();
  let total = 0;
  for (const e of extremes) {
    total += e.n;
    kept.set(e.low[1]!, e.low[0]!);
    kept.set(-e.high[1]!, e.high[0]!);
  }
  const steps = [...kept.keys()];
  const times = await db().$queryRaw<{ step: number; wall_time: Date }[]>`
    SELECT step, wall_time FROM metrics WHERE run_id = ${runId} AND name = ${name} AND step = ANY(${steps}::int[])`;
  const timeOf = new Map(times.map((r) => [r.step, r.wall_time]));
  const points = steps
    .map((step) => ({ step, value: kept.get(step)!, t: at(timeOf.get(step)!) }))
    .sort((a, b) => a.step - b.step);
  return { total, points };
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
  const w: SeriesWindow = !input.range
    ? null
    : input.x === "step"
      ? { step: { from: Math.ceil(input.range.from), to: Math.floor(input.range.to) } }
      : { time: { from: new Date(t0 + input.range.from * 1000), to: new Date(t0 + input.range.to * 1000) } };
  return Promise.all(
    input.names.map(async (name) => ({ name, ...(await readOneSeries(run.id, name, t0, input.maxPoints, w)) })),
  );
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
