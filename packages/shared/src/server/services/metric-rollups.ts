// The pre-aggregated tier of metric series (issue 42 item 2; table `metric_rollups`, kept by the
// triggers of migrations 20261128095754_metric_rollups and 20261128153248_metric_chart_reads on
// every write to `metrics`): for every series, the lowest and the highest point of each bucket of
// 2^level steps, with their steps and wall times. A chart that shows a long series reads these
// bucket rows instead of every point (metric-chart-read.ts), so its cost follows the chart's
// width, not the run's length.

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
