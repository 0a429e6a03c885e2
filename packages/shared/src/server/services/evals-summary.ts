// SPEC §5 summaries, computed from stored episode rows (never from a worker's memory), so a
// resumed, sharded or imported run is summarized exactly like a run that went through in one go.
import type { Prisma, QuestionType } from "@paravt/db";
import {
  DURATION_CATEGORIES,
  type AccuracyCount,
  type DurationCategory,
  type EvalSummary,
} from "../../contracts/evals";
import { meanSE } from "../../contracts/eval-quantities";
import { db } from "../db";
import { FORMAT_TURN_SELECT, storedFormatVerdict, type StoredTurn } from "./episode-format";

/** What a summary needs of one episode row. */
export interface SummaryRow {
  status: "OK" | "ERROR";
  correct: boolean | null;
  score: number | null;
  toolCallCount: number;
  questionType: QuestionType;
  duration: DurationCategory | null;
  /** The one format-compliance verdict (episode-format.ts); null when the row has no stored turns. */
  formatCompliant: boolean | null;
}

/** SPEC §5 grounding recall thresholds: R@0.3, R@0.5, R@0.7. */
const RECALL_AT = [0.3, 0.5, 0.7] as const;

/** Accuracy over the rows that carry a verdict (the reference skips `correct` None as well). */
function accuracy(rows: readonly SummaryRow[]): AccuracyCount {
  const scored = rows.filter((r) => r.correct !== null);
  const correct = scored.filter((r) => r.correct === true).length;
  return { n: scored.length, correct, accuracy: scored.length ? correct / scored.length : null };
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * The summary of a run covering `samples` samples from the rows stored so far. Every figure is over
 * answered rows (status OK): an ERROR episode is counted in `errors` only, never as a wrong answer,
 * a zero IoU or a sample without tool calls (SPEC §5 lists silently-wrong dropped connections as a
 * flaw not to inherit; contracts/evals.ts `evalSummary` states how the reference differs).
 * Grounding IoU is the row's score: intersection / hull span (SPEC §5, the reference's
 * `temporal_iou`), 0 for an answer without a readable range, like the reference's. Standard errors
 * of the means (mIoU, open-ended score) are eval-quantities.ts `meanSE`, MCQ accuracy's is derived
 * from n and p (`binomialSE`, `figuresOf`).
 */
export function summarize(rows: readonly SummaryRow[], samples: number): EvalSummary {
  const answered = rows.filter((r) => r.status === "OK");
  const byType = (t: QuestionType) => answered.filter((r) => r.questionType === t);
  const stored = (t: QuestionType) => rows.some((r) => r.questionType === t);

  const mcq = byType("mcq");
  const withDuration = mcq.filter((r) => r.duration !== null);
  const byDuration = withDuration.length
    ? (Object.fromEntries(
        DURATION_CATEGORIES.map((c) => [c, accuracy(withDuration.filter((r) => r.duration === c))]),
      ) as Record<DurationCategory, AccuracyCount>)
    : null;

  const tvg = byType("tvg");
  const ious = tvg.map((r) => Math.max(0, Math.min(1, r.score ?? 0)));
  const recall = (x: number) => ious.filter((v) => v >= x).length / ious.length;
  const grounding = ious.length
    ? {
        n: ious.length,
        mIoU: mean(ious),
        se: meanSE(ious),
        r03: recall(RECALL_AT[0]),
        r05: recall(RECALL_AT[1]),
        r07: recall(RECALL_AT[2]),
      }
    : null;

  const oe = byType("oe");
  const oeScores = oe.map((r) => r.score ?? 0);
  const judged = answered.filter((r) => r.formatCompliant !== null);
  const compliant = judged.filter((r) => r.formatCompliant === true).length;
  return {
    samples,
    stored: rows.length,
    answered: answered.length,
    errors: rows.length - answered.length,
    mcq: stored("mcq") ? accuracy(mcq) : null,
    byDuration,
    grounding,
    openEnded: oe.length ? { n: oe.length, meanScore: mean(oeScores), se: meanSE(oeScores) } : null,
    formatCompliance: judged.length ? { n: judged.length, compliant, rate: compliant / judged.length } : null,
    avgToolCalls: answered.length ? mean(answered.map((r) => r.toolCallCount)) : null,
    toolUsageRate: answered.length ? answered.filter((r) => r.toolCallCount >= 1).length / answered.length : null,
  };
}

function asCategory(v: unknown): DurationCategory | null {
  const s = typeof v === "string" ? v.trim().toLowerCase() : null;
  return (DURATION_CATEGORIES as readonly string[]).includes(s ?? "") ? (s as DurationCategory) : null;
}

/**
 * VideoMME's duration group of a sample: `duration` ("short" / "medium" / "long", the benchmark's
 * own field) or `durationCategory` in the sample's metadata, else the `duration` of an imported
 * reference row (episode details). A numeric duration is a length, not a group: ignored.
 */
export function durationCategoryOf(sampleMetadata: unknown, episodeDetails?: unknown): DurationCategory | null {
  const m = (sampleMetadata ?? {}) as Record<string, unknown>;
  const d = (episodeDetails ?? {}) as Record<string, unknown>;
  return asCategory(m.duration) ?? asCategory(m.durationCategory) ?? asCategory(d.duration);
}

/** One stored episode as summary input. */
export function toSummaryRow(r: {
  status: "OK" | "ERROR";
  correct: boolean | null;
  score: number | null;
  toolCallCount: number;
  details: unknown;
  promptMode: string;
  sample: { questionType: QuestionType; metadata: unknown };
  turns: readonly StoredTurn[];
}): SummaryRow {
  return {
    status: r.status,
    correct: r.correct,
    score: r.score,
    toolCallCount: r.toolCallCount,
    questionType: r.sample.questionType,
    duration: durationCategoryOf(r.sample.metadata, r.details),
    formatCompliant: storedFormatVerdict(r.turns, r.promptMode)?.compliant ?? null,
  };
}

/** The episode columns `toSummaryRow` reads (Prisma select). */
export const SUMMARY_ROW_SELECT = {
  status: true,
  correct: true,
  score: true,
  toolCallCount: true,
  details: true,
  promptMode: true,
  sample: { select: { questionType: true, metadata: true } },
  turns: FORMAT_TURN_SELECT,
} as const;

/**
 * Episodes read per query. Prisma loads a page's samples and turns with one bound parameter per
 * episode, and Postgres takes at most 65,535: a 100,000-episode run read in one query failed.
 */
export const SUMMARY_PAGE = 2000;

/**
 * The stored rows of `runIds` as summary input, in pages of SUMMARY_PAGE (bounded memory too), one
 * run after another in (sample, rollout) order: each page is one range of the run's unique index.
 */
export async function* summaryRowPages(
  runIds: readonly string[],
  client: Pick<Prisma.TransactionClient, "episode"> = db(),
): AsyncGenerator<{ runId: string; row: SummaryRow }[]> {
  for (const runId of runIds) {
    let after: { sampleId: string; rolloutIndex: number } | null = null;
    for (;;) {
      const where: Prisma.EpisodeWhereInput = {
        runId,
        ...(after
          ? {
              sampleId: { gte: after.sampleId },
              OR: [{ sampleId: { gt: after.sampleId } }, { rolloutIndex: { gt: after.rolloutIndex } }],
            }
          : {}),
      };
      const page = await client.episode.findMany({
        where,
        select: { sampleId: true, rolloutIndex: true, ...SUMMARY_ROW_SELECT },
        orderBy: [{ sampleId: "asc" }, { rolloutIndex: "asc" }],
        take: SUMMARY_PAGE,
      });
      if (page.length) yield page.map((r) => ({ runId, row: toSummaryRow(r) }));
      if (page.length < SUMMARY_PAGE) break;
      const last = page[page.length - 1]!;
      after = { sampleId: last.sampleId, rolloutIndex: last.rolloutIndex };
    }
  }
}

/** The stored rows of many runs, as summary input, keyed by run id. */
export async function summaryRowsOf(runIds: readonly string[]): Promise<Map<string, SummaryRow[]>> {
  const out = new Map<string, SummaryRow[]>(runIds.map((id) => [id, []]));
  if (!runIds.length) return out;
  for await (const page of summaryRowPages(runIds)) for (const { runId, row } of page) out.get(runId)!.push(row);
  return out;
}

/** The summary of one run from its rows in the database. */
export async function computeRunSummary(runId: string, samples: number): Promise<EvalSummary> {
  return summarize((await summaryRowsOf([runId])).get(runId) ?? [], samples);
}
