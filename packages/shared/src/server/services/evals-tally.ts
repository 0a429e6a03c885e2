// Tallies (issue 42 item 3): the counters a SPEC §5 summary needs, per question type and VideoMME
// duration group, so a live summary is read from a handful of rows instead of every episode of
// the run. Pure: `tallyRows` folds summary rows into tallies and `summaryFromTallies` gives the
// summary `summarize` (evals-summary.ts, the definition) gives for the same rows, up to float
// rounding (sums in another order; standard errors from sums of squares). evals-tally-store.ts
// keeps them in the database.
import type { QuestionType } from "@paravt/db";
import {
  DURATION_CATEGORIES,
  type AccuracyCount,
  type DurationCategory,
  type EvalSummary,
} from "../../contracts/evals";
import type { SummaryRow } from "./evals-summary";

/** The counters of one (question type, duration group) of a run; all but `stored` over answered (OK) rows. */
export interface TallyCounts {
  stored: number;
  answered: number;
  /** Answered rows with a verdict (`correct` not null), and those correct. */
  scored: number;
  correct: number;
  /** Sum and sum of squares of the row's figure (`tallyValue`). */
  valueSum: number;
  valueSqSum: number;
  /** Rows whose figure is >= 0.3 / 0.5 / 0.7 (grounding recall; tvg only). */
  recall03: number;
  recall05: number;
  recall07: number;
  formatJudged: number;
  formatCompliant: number;
  toolCalls: number;
  toolUsed: number;
}

export interface Tally extends TallyCounts {
  questionType: QuestionType;
  duration: DurationCategory | null;
}

export const TALLY_COUNTERS = [
  "stored",
  "answered",
  "scored",
  "correct",
  "valueSum",
  "valueSqSum",
  "recall03",
  "recall05",
  "recall07",
  "formatJudged",
  "formatCompliant",
  "toolCalls",
  "toolUsed",
] as const satisfies readonly (keyof TallyCounts)[];

/** SPEC §5 grounding recall thresholds, as in `summarize`. */
const RECALL_AT = [0.3, 0.5, 0.7] as const;

/**
 * The figure a type's mean is over: grounding's IoU clamped to [0, 1] (0 without a readable
 * range), an open-ended score (0 without one); none for multiple choice (accuracy is counted).
 */
export function tallyValue(row: Pick<SummaryRow, "questionType" | "score">): number {
  if (row.questionType === "tvg") return Math.max(0, Math.min(1, row.score ?? 0));
  if (row.questionType === "oe") return row.score ?? 0;
  return 0;
}

const zero = (): TallyCounts => Object.fromEntries(TALLY_COUNTERS.map((k) => [k, 0])) as unknown as TallyCounts;

function add(t: TallyCounts, row: SummaryRow): void {
  t.stored++;
  if (row.status !== "OK") return;
  t.answered++;
  if (row.correct !== null) t.scored++;
  if (row.correct === true) t.correct++;
  const v = tallyValue(row);
  t.valueSum += v;
  t.valueSqSum += v * v;
  if (row.questionType === "tvg") {
    if (v >= RECALL_AT[0]) t.recall03++;
    if (v >= RECALL_AT[1]) t.recall05++;
    if (v >= RECALL_AT[2]) t.recall07++;
  }
  if (row.formatCompliant !== null) t.formatJudged++;
  if (row.formatCompliant === true) t.formatCompliant++;
  t.toolCalls += row.toolCallCount;
  if (row.toolCallCount >= 1) t.toolUsed++;
}

/** Rows folded into one tally per (question type, duration group) present. */
export function tallyRows(rows: readonly SummaryRow[]): Tally[] {
  const out = new Map<string, Tally>();
  for (const r of rows) {
    const key = `${r.questionType}|${r.duration ?? ""}`;
    let t = out.get(key);
    if (!t) out.set(key, (t = { questionType: r.questionType, duration: r.duration, ...zero() }));
    add(t, r);
  }
  return [...out.values()];
}

/** Tallies of the same key added up (the pages of a build). */
export function mergeTallies(tallies: readonly Tally[]): Tally[] {
  const out = new Map<string, Tally>();
  for (const t of tallies) {
    const key = `${t.questionType}|${t.duration ?? ""}`;
    const into = out.get(key);
    if (!into) out.set(key, { ...t });
    else for (const k of TALLY_COUNTERS) into[k] += t[k];
  }
  return [...out.values()];
}

function sum(tallies: readonly Tally[]): TallyCounts {
  const s = zero();
  for (const t of tallies) for (const k of TALLY_COUNTERS) s[k] += t[k];
  return s;
}

function accuracy(s: TallyCounts): AccuracyCount {
  return { n: s.scored, correct: s.correct, accuracy: s.scored ? s.correct / s.scored : null };
}

/**
 * eval-quantities.ts `meanSE` from n, the sum and the sum of squares: the sample variance is
 * (Σv² − (Σv)²/n) / (n − 1), never below 0 (rounding can take it a hair under when every value is
 * equal).
 */
function seOfSums(n: number, valueSum: number, valueSqSum: number): number | null {
  if (n < 2) return null;
  const variance = Math.max(0, (valueSqSum - (valueSum * valueSum) / n) / (n - 1));
  return Math.sqrt(variance / n);
}

/** The summary of a run covering `samples` samples from its tallies: `summarize`'s, figure for figure. */
export function summaryFromTallies(tallies: readonly Tally[], samples: number): EvalSummary {
  const all = sum(tallies);
  const ofType = (t: QuestionType) => tallies.filter((x) => x.questionType === t);
  const mcqTallies = ofType("mcq");
  const mcq = sum(mcqTallies);
  const withDuration = mcqTallies.filter((t) => t.duration !== null);
  const byDuration = sum(withDuration).answered
    ? (Object.fromEntries(
        DURATION_CATEGORIES.map((c) => [c, accuracy(sum(withDuration.filter((t) => t.duration === c)))]),
      ) as Record<DurationCategory, AccuracyCount>)
    : null;
  const tvg = sum(ofType("tvg"));
  const oe = sum(ofType("oe"));
  return {
    samples,
    stored: all.stored,
    answered: all.answered,
    errors: all.stored - all.answered,
    mcq: mcq.stored ? accuracy(mcq) : null,
    byDuration,
    grounding: tvg.answered
      ? {
          n: tvg.answered,
          mIoU: tvg.valueSum / tvg.answered,
          se: seOfSums(tvg.answered, tvg.valueSum, tvg.valueSqSum),
          r03: tvg.recall03 / tvg.answered,
          r05: tvg.recall05 / tvg.answered,
          r07: tvg.recall07 / tvg.answered,
        }
      : null,
    openEnded: oe.answered
      ? { n: oe.answered, meanScore: oe.valueSum / oe.answered, se: seOfSums(oe.answered, oe.valueSum, oe.valueSqSum) }
      : null,
    formatCompliance: all.formatJudged
      ? { n: all.formatJudged, compliant: all.formatCompliant, rate: all.formatCompliant / all.formatJudged }
      : null,
    avgToolCalls: all.answered ? all.toolCalls / all.answered : null,
    toolUsageRate: all.answered ? all.toolUsed / all.answered : null,
  };
}
