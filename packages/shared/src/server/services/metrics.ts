import { NotFoundError } from "../../errors";
import { db } from "../db";
import type { ProjectAccess } from "./access";

export interface SeriesPoint {
  step: number;
  value: number;
}

/**
 * Min/max-preserving downsampling: each of maxPoints/2 buckets keeps its lowest and highest
 * point, so spikes (a loss blow-up) survive at any zoom level (DESIGN.md "Charts").
 */
export function downsampleMinMax(points: SeriesPoint[], maxPoints: number): SeriesPoint[] {
  if (points.length <= maxPoints) return points;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = points.length / buckets;
  const out: SeriesPoint[] = [];
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
export async function recordStep(runId: string, step: number, values: Record<string, number>): Promise<void> {
  const data = Object.entries(values)
    .filter(([, v]) => Number.isFinite(v))
    .map(([name, value]) => ({ runId, step, name, value }));
  if (data.length) await db().metric.createMany({ data, skipDuplicates: true });
}
