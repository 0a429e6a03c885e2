// The sample grid of an eval run (issue 41 item 13): one page of cards, filtered and ordered by
// the samples table's own definitions (`sampleWhere`, `SAMPLE_ORDER` of evals.ts) so that the
// grid and the table list the same episodes, with each card's crop windows and overview
// timestamps capped (contracts/sample-grid.ts) and, with a comparison run, its flip state.
import {
  capEvenly,
  GRID_OVERVIEW_CAP,
  GRID_WINDOW_CAP,
  type EvalSampleCard,
  type EvalSampleGridInput,
  type FlipState,
  type GridWindow,
} from "../../contracts/sample-grid";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { comparableBaseline, fromCursor, isRight, isWrong, SAMPLE_ORDER, sampleWhere } from "./evals";
import { cardVideo, clipText, questionLine } from "./sample-cards";

type Verdict = { status: string; correct: boolean | null };

/**
 * This episode against the comparison run's episodes on the same sample, by the `flippedAgainst`
 * filter's rule (evals.ts `flipFilter`: any baseline rollout counts; errors never flip).
 */
export function flipStateOf(episode: Verdict, baseline: readonly Verdict[]): FlipState {
  if (episode.status !== "OK") return "not_comparable";
  if (isRight(episode) && baseline.some(isWrong)) return "wrong_to_right";
  if (isWrong(episode) && baseline.some(isRight)) return "right_to_wrong";
  return baseline.some((b) => b.status === "OK") ? "unchanged" : "not_comparable";
}

/**
 * Crop windows of an episode's turns as the viewer draws them (lane-model.ts `laneGroupOf`: a
 * call without a window, or with end <= start, is left out), in turn and call order.
 */
export function windowsOf(
  turns: readonly {
    index: number;
    toolCalls: readonly { index: number; startS: number | null; endS: number | null; status: GridWindow["status"] }[];
  }[],
): GridWindow[] {
  return turns.flatMap((t) =>
    t.toolCalls.flatMap((c) =>
      c.startS !== null && c.endS !== null && c.endS > c.startS
        ? [{ turn: t.index, call: c.index, startS: c.startS, endS: c.endS, status: c.status }]
        : [],
    ),
  );
}

export async function listSampleCards(
  access: ProjectAccess,
  input: Omit<EvalSampleGridInput, "projectId">,
): Promise<{ items: EvalSampleCard[]; nextCursor: string | null }> {
  const where = await sampleWhere(access, input);
  if (input.compareWith) await comparableBaseline(access, input.runId, input.compareWith);
  const from = await fromCursor(input.runId, input.cursor);
  if (!from) return { items: [], nextCursor: null };
  const rows = await db().episode.findMany({
    where: { AND: [where, from] },
    select: {
      id: true,
      sampleId: true,
      k: true,
      rolloutIndex: true,
      status: true,
      correct: true,
      score: true,
      prediction: true,
      error: true,
      toolCallCount: true,
      overviewTimestamps: true,
      sample: {
        select: {
          key: true,
          question: true,
          questionType: true,
          answer: true,
          video: { select: { id: true, durationS: true, assets: true } },
        },
      },
      turns: {
        select: {
          index: true,
          toolCalls: { select: { index: true, startS: true, endS: true, status: true }, orderBy: { index: "asc" } },
        },
        orderBy: { index: "asc" },
      },
    },
    orderBy: SAMPLE_ORDER,
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const baseline = input.compareWith
    ? await baselineVerdicts(
        input.compareWith,
        page.map((e) => e.sampleId),
      )
    : null;
  return {
    items: page.map((e) => {
      const windows = windowsOf(e.turns);
      return {
        episodeId: e.id,
        sampleId: e.sampleId,
        key: e.sample.key,
        questionType: e.sample.questionType,
        question: questionLine(e.sample.question),
        answer: clipText(e.sample.answer),
        video: cardVideo(e.sample.video),
        k: e.k,
        rolloutIndex: e.rolloutIndex,
        status: e.status,
        correct: e.correct,
        score: e.score,
        prediction: e.prediction === null ? null : clipText(e.prediction),
        error: e.error === null ? null : clipText(e.error),
        toolCallCount: e.toolCallCount,
        windows: windows.slice(0, GRID_WINDOW_CAP),
        windowCount: windows.length,
        overviewTimestamps: capEvenly(e.overviewTimestamps, GRID_OVERVIEW_CAP),
        overviewCount: e.overviewTimestamps.length,
        flip: baseline ? flipStateOf(e, baseline.get(e.sampleId) ?? []) : null,
      };
    }),
    nextCursor: rows.length > input.limit ? rows[input.limit]!.id : null,
  };
}

/** The comparison run's verdicts on the page's samples (every rollout), by sample. */
async function baselineVerdicts(runId: string, sampleIds: readonly string[]): Promise<Map<string, Verdict[]>> {
  const rows = await db().episode.findMany({
    where: { runId, sampleId: { in: [...new Set(sampleIds)] } },
    select: { sampleId: true, status: true, correct: true },
  });
  const out = new Map<string, Verdict[]>();
  for (const r of rows) out.set(r.sampleId, [...(out.get(r.sampleId) ?? []), r]);
  return out;
}
