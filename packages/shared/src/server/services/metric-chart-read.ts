// A chart's series read in Postgres in two statements, whatever the number of series (issue 42
// item 2; what `metrics.readSeriesWindow` and `readSeriesSince` answer):
//  1. the probe: per series, the window's first and last step and whether it holds more than
//     maxPoints rows (index reads that stop early);
//  2. the read: per series (LATERAL over arrays of per-series parameters), the window's rows as
//     they are when they are at most maxPoints; else the window's step range cut into
//     (maxPoints - 1)/2 equal buckets (`width_bucket`), each keeping its lowest and highest point
//     (DESIGN.md "Charts": spikes survive at any zoom). `min(ARRAY[value, step, ms])` picks a
//     bucket's lowest point with its step and wall time in one hash-aggregate pass, ties to the
//     earliest step (`max(ARRAY[value, -step, ms])` the highest), so the window is never sorted.
//     A long span of steps reads the pre-aggregated tier (metric-rollups.ts) instead of its rows,
//     plus the rows of the partial rollup buckets at both ends; a wall-time window reads its rows.
//     The window's last point is always kept (issue 42 item 1: a live chart appends after it).
//     Each series comes back as one JSON text of [step, value, ms] triples: parsed with
//     JSON.parse, a thousand points cost less than pg's array parser (measured 0.7 vs 1.7 ms).
// Both statements are named (prepared once per connection, their plans kept): their text does not
// depend on the series or the window, only on whether the window is in wall time.
// Through the pg pool, not Prisma: ~2 ms of CPU per statement saved (prisma/src/client.ts).
import type { SqlClient, SqlPool } from "@paravt/db";
import type { MetricSeries } from "../../contracts/runs";
import { rollupLevel } from "./metric-rollups";

type Queryable = SqlPool | SqlClient;

/** A zoom window in the database's terms: steps (inclusive), or wall times (inclusive). */
export type SeriesWindow = { step: { from: number; to: number } } | { time: { from: Date; to: Date } } | null;

/** One series to read: the points after `afterStep` (null: from the first) up to `untilStep`. */
export interface SeriesAsk {
  name: string;
  afterStep: number | null;
  untilStep?: number;
}

/** A series read: its points as columns (contracts/runs.ts `metricSeriesSchema`). */
export type SeriesRead = MetricSeries;

/** A run's metrics watermark and time zero (ms since the epoch; 0 before its first metric). */
export interface MetricMark {
  version: string;
  t0: number;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * The run's watermark and time zero, if the run is in the project (null: it is not). Time zero is
 * the run's first metric's wall time (startedAt moves on a resumed attempt), one probe of the
 * (run, wall_time) index.
 */
export async function metricMark(q: Queryable, projectId: string, runId: string): Promise<MetricMark | null> {
  const { rows } = await q.query<{ version: string | null; t0: number | null }>({
    name: "paravt-metric-mark",
    text: `SELECT (SELECT w.version FROM metric_watermarks w WHERE w.run_id = r.id)::text AS version,
                  (SELECT paravt_epoch_ms(m.wall_time) FROM metrics m WHERE m.run_id = r.id
                   ORDER BY m.wall_time LIMIT 1) AS t0
           FROM runs r WHERE r.id = $1 AND r.project_id = $2`,
    values: [runId, projectId],
  });
  const row = rows[0];
  return row ? { version: row.version ?? "0", t0: row.t0 ?? 0 } : null;
}

/**
 * `fn` on one connection in one read-only snapshot (REPEATABLE READ): what it reads is one state
 * of the database, however many statements it takes. Without JIT: the read's estimate of a long
 * run passes jit_above_cost, and compiling its expressions took 30 ms (EXPLAIN ANALYZE, 6 series
 * of 1M points), more than the read's own work of a few ms per series.
 */
export async function inSnapshot<T>(pool: SqlPool, fn: (c: SqlClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL jit = off");
    const out = await fn(c);
    await c.query("COMMIT");
    return out;
  } catch (e) {
    await c.query("ROLLBACK").catch(() => {}); // the error that matters is `e`
    throw e;
  } finally {
    c.release();
  }
}

/**
 * The series of a run in a window, downsampled to maxPoints each (see the file's head), in the
 * order asked. `t0`: the run's time zero (`metricMark`), the origin of each point's `t`.
 */
export async function readChartSeries(
  q: Queryable,
  runId: string,
  t0: number,
  series: SeriesAsk[],
  maxPoints: number,
  w: SeriesWindow,
): Promise<SeriesRead[]> {
  if (!series.length) return [];
  // Postgres text cannot hold NUL: a name with one matches no stored series (answered empty), and
  // sending it would fail the statement.
  if (series.some((s) => s.name.includes("\u0000"))) {
    const storable = series.flatMap((s, i) => (s.name.includes("\u0000") ? [] : [{ s, i }]));
    const inner = await readChartSeries(
      q,
      runId,
      t0,
      storable.map((x) => x.s),
      maxPoints,
      w,
    );
    const out: SeriesRead[] = series.map((s) => ({ name: s.name, total: 0, steps: [], t: [], values: [] }));
    storable.forEach(({ i }, k) => (out[i] = inner[k]!));
    return out;
  }
  // Each series' step bounds: the window's, narrowed by what a live chart already holds.
  const from = series.map((s) =>
    Math.max(w && "step" in w ? w.step.from : INT_MIN, s.afterStep === null ? INT_MIN : s.afterStep + 1),
  );
  const to = series.map((s) => Math.min(w && "step" in w ? w.step.to : INT_MAX, s.untilStep ?? INT_MAX));
  const byTime = w !== null && "time" in w;
  // As timestamps without a zone (nominal UTC, as Prisma writes them): pg would send a Date in
  // the process's local time.
  const times = byTime ? [w.time.from, w.time.to].map((d) => d.toISOString().replace("Z", "")) : [];
  const timeCond = byTime ? "AND wall_time BETWEEN $5 AND $6" : "";
  const names = series.map((s) => s.name);
  const probe = await q.query<{ lo: number | null; hi: number | null; more: number | null }>({
    name: byTime ? "paravt-chart-probe-time" : "paravt-chart-probe",
    // COALESCE-free bounds keep every condition on the (run, name, step) index.
    text: `SELECT lo.step AS lo, hi.step AS hi, more.step AS more
           FROM unnest($2::text[], $3::int[], $4::int[]) WITH ORDINALITY AS s(name, lo, hi, ord)
           LEFT JOIN LATERAL (SELECT step FROM metrics WHERE run_id = $1 AND name = s.name
             AND step BETWEEN s.lo AND s.hi ${timeCond} ORDER BY step LIMIT 1) lo ON true
           LEFT JOIN LATERAL (SELECT step FROM metrics WHERE run_id = $1 AND name = s.name
             AND step BETWEEN s.lo AND s.hi ${timeCond} ORDER BY step DESC LIMIT 1) hi ON true
           LEFT JOIN LATERAL (SELECT step FROM metrics WHERE run_id = $1 AND name = s.name
             AND step BETWEEN s.lo AND s.hi ${timeCond} ORDER BY step OFFSET $${byTime ? 7 : 5} LIMIT 1) more ON true
           ORDER BY s.ord`,
    values: [runId, names, from, to, ...times, maxPoints],
  });

  const buckets = Math.max(1, Math.floor((maxPoints - 1) / 2));
  const asks: ReadParams[] = [];
  probe.rows.forEach((p, i) => {
    if (p.lo === null || p.hi === null) return; // nothing in the window
    asks.push(readParams(i, p.lo, p.hi, p.more === null, byTime ? null : rollupLevel(p.lo, p.hi, buckets)));
  });
  const out: SeriesRead[] = series.map((s) => ({ name: s.name, total: 0, steps: [], t: [], values: [] }));
  if (!asks.length) return out;
  const col = <K extends keyof ReadParams>(k: K) => asks.map((a) => a[k]);
  const { rows } = await q.query<{ ord: number; total: number; points: string }>({
    name: byTime ? "paravt-chart-read-time" : "paravt-chart-read",
    text: readSql(byTime),
    values: [
      runId,
      buckets,
      col("name").map((i) => names[i]!),
      col("lo"),
      col("hi"),
      col("eachRow"),
      col("level"),
      col("firstWhole"),
      col("lastWhole"),
      col("aLo"),
      col("aHi"),
      col("bLo"),
      col("bHi"),
      ...times,
    ],
  });
  for (const row of rows) {
    const i = asks[row.ord - 1]!.name;
    const triples = JSON.parse(row.points) as [number, number | string, number][];
    const s: SeriesRead = { name: series[i]!.name, total: row.total, steps: [], t: [], values: [] };
    for (const [step, value, ms] of triples) {
      s.steps.push(step);
      s.t.push((ms - t0) / 1000);
      // A value Postgres writes as a JSON string is NaN or ±Infinity (never stored by our writers).
      s.values.push(Number(value));
    }
    out[i] = s;
  }
  return out;
}

/** One series' parameters of the read statement (`name`: its index in the ask). */
interface ReadParams {
  name: number;
  lo: number;
  hi: number;
  /** The window holds at most maxPoints rows: every row is its own bucket. */
  eachRow: boolean;
  /** Rollup level of the whole buckets (null: none, rows only). */
  level: number | null;
  firstWhole: number;
  lastWhole: number;
  /** The two step ranges read as rows (an empty range is [1, 0]). */
  aLo: number;
  aHi: number;
  bLo: number;
  bHi: number;
}

/**
 * Where a series' points come from: with a rollup level, the whole rollup buckets inside [lo, hi]
 * and the rows of the partial buckets at both ends (fewer than 2^level each); else its rows.
 */
function readParams(name: number, lo: number, hi: number, eachRow: boolean, level: number | null): ReadParams {
  const rows = { name, lo, hi, eachRow, level: null, firstWhole: 1, lastWhole: 0, aLo: lo, aHi: hi, bLo: 1, bHi: 0 };
  if (eachRow || level === null) return rows;
  const width = 2 ** level;
  const firstWhole = Math.ceil(lo / width); // first bucket that starts at or after lo
  const lastWhole = Math.floor((hi + 1) / width) - 1; // last bucket that ends at or before hi
  if (lastWhole < firstWhole) return rows;
  return {
    ...rows,
    level,
    firstWhole,
    lastWhole,
    aLo: lo,
    aHi: firstWhole * width - 1,
    bLo: (lastWhole + 1) * width,
    bHi: hi,
  };
}

/**
 * The read statement (see the file's head). A rollup bucket counts in the display bucket of its
 * first step; its extremes keep their own steps, so every point drawn is a real point. Each
 * bucket gives its lowest and highest point and the window's last point is added; DISTINCT
 * drops the repeats (the same step is the same point).
 */
function readSql(byTime: boolean): string {
  const timeCond = byTime ? "AND m.wall_time BETWEEN $14 AND $15" : "";
  const rows = (lo: string, hi: string) => `
          SELECT m.step, 1,
                 ARRAY[m.value, m.step, paravt_epoch_ms(m.wall_time)],
                 ARRAY[m.value, -m.step, paravt_epoch_ms(m.wall_time)]
          FROM metrics m
          WHERE m.run_id = $1 AND m.name = s.name AND m.step BETWEEN ${lo} AND ${hi} ${timeCond}`;
  return `
    SELECT s.ord::int AS ord, k.total, k.points::text AS points
    FROM unnest($3::text[], $4::int[], $5::int[], $6::bool[], $7::int[], $8::int[], $9::int[],
                $10::int[], $11::int[], $12::int[], $13::int[])
      WITH ORDINALITY AS s(name, lo, hi, each_row, lvl, first_whole, last_whole, a_lo, a_hi, b_lo, b_hi, ord)
    CROSS JOIN LATERAL (
      SELECT sum(v.n)::int AS total,
             to_json(array_agg(DISTINCT ARRAY[v.step, v.value, v.ms] ORDER BY ARRAY[v.step, v.value, v.ms])) AS points
      FROM (
        SELECT x.n, x.step, x.value, x.ms
        FROM (
          SELECT min(p.low) AS low, max(p.high) AS high, sum(p.n) AS n
          FROM (
            SELECT r.bucket << r.level AS first_step, r.n,
                   ARRAY[r.min_value, r.min_step, r.min_wall_ms] AS low,
                   ARRAY[r.max_value, -r.max_step, r.max_wall_ms] AS high
            FROM metric_rollups r
            WHERE r.run_id = $1 AND r.name = s.name AND r.level = s.lvl
              AND r.bucket BETWEEN s.first_whole AND s.last_whole
            UNION ALL ${rows("s.a_lo", "s.a_hi")}
            UNION ALL ${rows("s.b_lo", "s.b_hi")}
          ) p
          GROUP BY CASE WHEN s.each_row THEN p.first_step ELSE width_bucket(p.first_step, s.lo, s.hi + 1, $2) END
        ) g
        CROSS JOIN LATERAL (VALUES (g.n, g.low[2], g.low[1], g.low[3]),
                                   (0, -g.high[2], g.high[1], g.high[3])) x(n, step, value, ms)
        UNION ALL
        SELECT 0, m.step, m.value, paravt_epoch_ms(m.wall_time)
        FROM metrics m WHERE m.run_id = $1 AND m.name = s.name AND m.step = s.hi
      ) v
    ) k
    ORDER BY s.ord`;
}
