// A nano checkpoint's provenance (models.list `nano`: trained Ks, quality, lineage, read from its
// config.json) in words, for the Models row and the eval launch form. Pure, so both and the unit
// tests read the same text.
import type { CheckpointQuality, LineageStage, QualityMeasurement } from "@paravt/shared";

const count = (n: number) => n.toLocaleString("en-US");
/** Compliance and scores as the records state them: three decimals. */
export const fixed3 = (v: number) => v.toFixed(3);

/** "K = 4, 8, 16" */
export const kText = (ks: readonly number[]) => `K = ${ks.join(", ")}`;

/** "18 stages, 48,640 steps; last: o1 (research/torch/train_sft.py, 3,343 steps, 2-core VM CPU)" */
export function lineageSummary(lineage: readonly LineageStage[]): string {
  const steps = lineage.reduce((sum, s) => sum + s.steps, 0);
  const last = lineage.at(-1);
  const head = `${lineage.length} stage${lineage.length === 1 ? "" : "s"}, ${count(steps)} steps`;
  return last ? `${head}; last: ${last.name} (${last.trainer}, ${count(last.steps)} steps, ${last.hardware})` : head;
}

/**
 * The measurements quoted next to a model: those on its first suite (the one its quality leads
 * with), with tools where recorded, one per K, ascending.
 */
export function headlineMeasurements(q: CheckpointQuality): QualityMeasurement[] {
  const suite = q.suites[0]?.name ?? q.measurements[0]?.suite;
  const rows = q.measurements.filter((m) => m.suite === suite && m.tools !== false);
  const byK = new Map<number, QualityMeasurement>();
  for (const m of rows) if (!byK.has(m.k)) byK.set(m.k, m);
  return [...byK.values()].sort((a, b) => a.k - b.k);
}

/** "K = 8: compliance 1.000, score 0.314" */
export const measurementText = (m: QualityMeasurement) =>
  `K = ${m.k}: compliance ${fixed3(m.formatCompliance)}, score ${fixed3(m.score)}`;

/** Where and when: "heldout120tf (2026-11-27, with tools)" ("undated" when the record gives no date). */
export function qualitySource(q: CheckpointQuality): string {
  const first = headlineMeasurements(q)[0];
  const tools = first?.tools === true ? ", with tools" : "";
  return `${first?.suite ?? q.suites[0]?.name ?? "?"} (${q.date ?? "undated"}${tools})`;
}

/** "heldout120tf (2026-11-27, with tools): K = 4: compliance 1.000, score 0.323; K = 8: …" */
export function qualitySummary(q: CheckpointQuality): string {
  return `${qualitySource(q)}: ${headlineMeasurements(q).map(measurementText).join("; ")}`;
}
