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

/** Time zero of a run's time axis: its first metric (startedAt moves on a resumed attempt). */
async function timeZero(runId: string): Promise<number> {
  const agg = await db().metric.aggregate({ where: { runId }, _min: { wallTime: true } });
  return agg._min.wallTime?.getTime() ?? 0;
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
  const window = !input.range
    ? {}
    : input.x === "step"
      ? { step: { gte: Math.ceil(input.range.from), lte: Math.floor(input.range.to) } }
      : { wallTime: { gte: new Date(t0 + input.range.from * 1000), lte: new Date(t0 + input.range.to * 1000) } };
  return Promise.all(
    input.names.map(async (name) => {
      // The unique (run, name, step) index serves this read in step order.
      const rows = await db().metric.findMany({
        where: { runId: run.id, name, ...window },
        orderBy: { step: "asc" },
        select: { step: true, value: true, wallTime: true },
      });
      const points = rows.map((r) => ({ step: r.step, value: r.value, t: (r.wallTime.getTime() - t0) / 1000 }));
      return { name, total: rows.length, points: downsampleMinMax(points, input.maxPoints) };
    }),
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
