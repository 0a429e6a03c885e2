// Min/max-preserving downsampling in memory (client-safe): what the server did before the SQL
// version (services/metrics.ts readOneSeries), and how a live chart compacts the points it appended.

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
