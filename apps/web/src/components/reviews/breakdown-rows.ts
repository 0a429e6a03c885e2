// Pure data and layout of the failure breakdown chart (failure-breakdown.tsx): one row per tag,
// each run's count joined by tag id (never by position), and labels that fit the tag axis.
import type { ReviewBreakdownOutput } from "@paravt/shared";

/** One bar row: the tag and, under `countKey(i)`, the count of run i. */
export type BreakdownRow = { tagId: string; tag: string } & Record<string, string | number>;

/** The row field holding run i's count (run ids are not used as keys: any string may be an id). */
export const countKey = (runIndex: number) => `n${runIndex}`;

/** Rows in the taxonomy order of the first run; a tag a run has no count for counts 0. */
export function breakdownRows(data: ReviewBreakdownOutput): BreakdownRow[] {
  const first = data.runs[0];
  if (!first) return [];
  const byRun = data.runs.map((r) => new Map(r.counts.map((c) => [c.tagId, c.count])));
  return first.counts.map((c) => {
    const row: BreakdownRow = { tagId: c.tagId, tag: c.name };
    byRun.forEach((counts, i) => (row[countKey(i)] = counts.get(c.tagId) ?? 0));
    return row;
  });
}

/** Width of the tag axis in px, and the characters of an 11 px label that fit in it. */
export const TAG_AXIS_WIDTH = 200;
const CHAR_PX = 6.2;
export const TAG_LABEL_CHARS = Math.floor((TAG_AXIS_WIDTH - 12) / CHAR_PX);

/**
 * The chart's height: every tag gets a band tall enough for its label on one line (and both bars
 * when two runs are compared), so the axis never has to skip a label.
 */
export function breakdownHeight(rows: number, runs: number): number {
  const band = runs > 1 ? 36 : 26;
  return Math.max(160, rows * band + 48);
}

/** A label cut to `max` characters with an ellipsis; the full text goes to the tick's title. */
export function truncateLabel(text: string, max = TAG_LABEL_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}
