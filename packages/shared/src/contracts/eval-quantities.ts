// THE glossary of evaluation quantities: one word per quantity on every page, table and export
// ("score" is the open-ended score and nothing else; a grounding row's number is its IoU), with
// the one definition of each figure's standard error and of a run's headline figure. Client-safe
// and pure: the summary and matrix services compute with it, the web prints its words.
import type { QUESTION_TYPES } from "./datasets";

type QuestionType = (typeof QUESTION_TYPES)[number];

/** The per-question-type figures of a run, in the order they are listed. */
export const EVAL_QUANTITY_KEYS = ["accuracy", "score", "mIoU"] as const;
export type EvalQuantity = (typeof EVAL_QUANTITY_KEYS)[number];

export interface QuantityWords {
  /** Its name in headings and labels. */
  label: string;
  /** Its name beside a number in a dense table. */
  short: string;
  /** The question type it is computed over. */
  questionType: QuestionType;
  /** What it is, in one sentence (a tooltip, a table's footnote). */
  definition: string;
}

export const EVAL_QUANTITIES: Record<EvalQuantity, QuantityWords> = {
  accuracy: {
    label: "Accuracy",
    short: "acc",
    questionType: "mcq",
    definition:
      "Multiple choice: correct / n over answered samples with a verdict, in %; standard error sqrt(p(1-p)/n).",
  },
  score: {
    label: "Score",
    short: "score",
    questionType: "oe",
    definition:
      "Open-ended: mean score (0..1, shown × 100) over answered samples; standard error = sample SD / sqrt(n).",
  },
  mIoU: {
    label: "mIoU",
    short: "mIoU",
    questionType: "tvg",
    definition:
      "Temporal grounding: mean IoU (intersection / hull span, × 100) over answered samples; standard error = sample SD / sqrt(n).",
  },
};

/** Words of the figures that are not per question type. */
export const EVAL_TERMS = {
  /** One grounding sample's number (its mean over a run is mIoU). */
  iou: "IoU",
  formatCompliance: "Format compliance",
  toolUsage: "Tool usage rate",
  avgToolCalls: "Avg tool calls",
  /** Samples a figure is computed over. */
  n: "n",
  /** Standard error, printed as "±". */
  se: "standard error",
} as const;

/**
 * The word for one sample's stored number (`score` of an episode row): IoU for grounding, the
 * score for open-ended; a multiple choice row has a verdict, not a number.
 */
export function sampleNumberWord(questionType: QuestionType | null | undefined): string {
  if (questionType === "tvg") return EVAL_TERMS.iou;
  if (questionType === "mcq") return "no verdict";
  return EVAL_QUANTITIES.score.short;
}

/**
 * Standard error of a proportion p over n samples, Agresti-Coull ("plus four"): p~ = (np + 2) /
 * (n + 4), sqrt(p~(1 - p~) / (n + 4)). The Wald form sqrt(p(1-p)/n) is 0 at 0 % and 100 %, which
 * reads as "certain" for 0 of 5 as much as for 0 of 5000; this one stays honest there and is
 * within a few percent of Wald in the middle at the sizes benchmarks have. Null without samples.
 */
export function binomialSE(p: number | null, n: number): number | null {
  if (p === null || n <= 0) return null;
  const adjusted = (n * p + 2) / (n + 4);
  return Math.sqrt((adjusted * (1 - adjusted)) / (n + 4));
}

/** Standard error of a mean: sample SD (n - 1) / sqrt(n); null below 2 samples. */
export function meanSE(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance / n);
}

/** One figure of a run: its value (0..1), the samples it is over and its standard error. */
export interface QuantityFigure {
  quantity: EvalQuantity;
  value: number | null;
  n: number;
  se: number | null;
}

/**
 * What the figures are read from: the fields of an evaluation summary (contracts/evals.ts
 * `evalSummary`, which builds on this module, so its shape is restated here, not imported).
 */
interface FigureSource {
  mcq: { accuracy: number | null; n: number } | null;
  openEnded: { meanScore: number; n: number; se: number | null } | null;
  grounding: { mIoU: number; n: number; se: number | null } | null;
}

/** A run's figures, one per question type it has, in EVAL_QUANTITY_KEYS order. */
export function figuresOf(summary: FigureSource): QuantityFigure[] {
  const out: QuantityFigure[] = [];
  const { mcq, openEnded, grounding } = summary;
  if (mcq) out.push({ quantity: "accuracy", value: mcq.accuracy, n: mcq.n, se: binomialSE(mcq.accuracy, mcq.n) });
  if (openEnded) out.push({ quantity: "score", value: openEnded.meanScore, n: openEnded.n, se: openEnded.se });
  if (grounding) out.push({ quantity: "mIoU", value: grounding.mIoU, n: grounding.n, se: grounding.se });
  return out;
}

/**
 * A run's headline figure (SPEC §5 tables, the matrix's average and "best"): MCQ accuracy when it
 * has multiple choice samples, else grounding mIoU, else the open-ended score; accuracy with no
 * value when it has none of them.
 */
export function headlineOf(summary: FigureSource): QuantityFigure {
  const figures = figuresOf(summary);
  const pick = (q: EvalQuantity) => figures.find((f) => f.quantity === q);
  return pick("accuracy") ?? pick("mIoU") ?? pick("score") ?? { quantity: "accuracy", value: null, n: 0, se: null };
}
