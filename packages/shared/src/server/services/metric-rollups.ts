// The pre-aggregated tier of metric series (issue 42 item 2; table `metric_rollups`, kept by the
// triggers of migration 20261128095754_metric_rollups on every write to `metrics`): for every
// series, the lowest and the highest point of each bucket of 2^level steps. A chart that shows a
// long series reads these bucket rows instead of every point, so its cost follows the chart's
// width, not the run's length.
import { Prisma } from "@paravt/db";

/** Bucket widths 2^level steps; the migration's triggers keep the same levels. */
export const ROLLUP_LEVELS = [4, 7, 10, 13] as const;

/**
 * The coarsest level whose buckets still resolve `buckets` display buckets over steps [lo, hi]:
 * at least two rollup buckets per display bucket, so a display bucket's extremes come from
 * buckets that lie (mostly) inside it. Null when even the finest level is too coarse: the span
 * is short, and the raw rows are few.
 */
export function rollupLevel(lo: number, hi: number, buckets: number): number | null {
  let chosen: number | null = null;
  for (const level of ROLLUP_LEVELS) if ((hi - lo + 1) / 2 ** level >= 2 * buckets) chosen = level;
  return chosen;
}

/**
 * The min/max downsampling of series `name` over steps [lo, hi] into `buckets` equal step
 * buckets, read from the rollups of `level`: the whole rollup buckets inside [lo, hi], plus the
 * raw points of the partial buckets at both ends (fewer than 2^level each). A rollup bucket falls
 * into the display bucket of its first step; its extreme points keep their own steps, so every
 * point drawn is a real point, and the extremes of the window are never lost. The statement
 * answers rows (low [value, step], high [value, -step], n), one per display bucket, like the
 * aggregate over raw rows it replaces (metrics.ts readOneSeries).
 */
export function rollupExtremesSql(
  runId: string,
  name: string,
  lo: number,
  hi: number,
  buckets: number,
  level: number,
): Prisma.Sql {
  const width = 2 ** level;
  const firstWhole = Math.ceil(lo / width); // first bucket that starts at or after lo
  const lastWhole = Math.floor((hi + 1) / width) - 1; // last bucket that ends at or before hi
  const wholeFrom = firstWhole * width;
  const wholeTo = (lastWhole + 1) * width - 1;
  const edges =
    lastWhole >= firstWhole
      ? Prisma.sql`(step >= ${lo} AND step < ${wholeFrom}) OR (step > ${wholeTo} AND step <= ${hi})`
      : Prisma.sql`step >= ${lo} AND step <= ${hi}`;
  return Prisma.sql`
    SELECT min(low) AS low, max(high) AS high, sum(n)::int AS n
    FROM (
      SELECT bucket << level AS first_step, n,
             ARRAY[min_value, min_step::float8] AS low, ARRAY[max_value, -max_step::float8] AS high
      FROM metric_rollups
      WHERE run_id = ${runId} AND name = ${name} AND level = ${level}
        AND bucket >= ${firstWhole} AND bucket <= ${lastWhole}
      UNION ALL
      SELECT step, 1, ARRAY[value, step::float8], ARRAY[value, -step::float8]
      FROM metrics WHERE run_id = ${runId} AND name = ${name} AND (${edges})
    ) parts
    GROUP BY width_bucket(first_step, ${lo}, ${hi + 1}, ${buckets})`;
}
