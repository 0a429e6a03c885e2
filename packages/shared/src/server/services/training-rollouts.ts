// The rollouts train.rl keeps per step (issue 9: a chart point opens that step's rollouts). They
// are ordinary Episode rows of the run, addressed by rolloutIndex = step * stride + i, so a step
// is an index range and its neighbours are the nearest indices outside it, all served by the
// unique (run, sample, rollout) index without a scan of the run's episodes.
import { NotFoundError, ValidationError } from "../../errors";
import {
  TRAINING_ROLLOUT_STRIDE as STRIDE,
  type EpisodeStepOutput,
  type RewardTerms,
  type StepRolloutsInput,
  type StepRolloutsOutput,
} from "../../contracts/runs";
import { db } from "../db";
import type { ProjectAccess } from "./access";

/** The scalar entries of a stored rewardTerms object (SPEC §2 terms and flags); null if none. */
export function rewardTermsOf(json: unknown): RewardTerms | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const out: RewardTerms = {};
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") out[k] = v;
  }
  return out;
}

/** The step of an index-range neighbour; null when there is none. */
const stepOf = (rolloutIndex: number | null | undefined) =>
  rolloutIndex == null ? null : Math.floor(rolloutIndex / STRIDE);

export async function stepRollouts(access: ProjectAccess, input: StepRolloutsInput): Promise<StepRolloutsOutput> {
  const run = await db().run.findFirst({
    where: { id: input.runId, projectId: access.projectId },
    select: { id: true, name: true, kind: true },
  });
  if (!run) throw new NotFoundError("Run");
  // Only train.rl numbers its episodes by step; an eval's rollout 0 is not "step 0".
  if (run.kind !== "rl") {
    throw new ValidationError(`"${run.name}" is a ${run.kind} run: only RL training runs keep rollouts per step`);
  }
  const first = input.step * STRIDE;
  const last = first + STRIDE - 1;
  const [rows, before, after] = await Promise.all([
    db().episode.findMany({
      where: { runId: run.id, rolloutIndex: { gte: first, lte: last } },
      orderBy: [{ rolloutIndex: "asc" }, { sampleId: "asc" }],
      include: { sample: { select: { id: true, key: true, answer: true } } },
    }),
    // Steps start at 1: indices below one stride are not training rollouts.
    db().episode.aggregate({
      where: { runId: run.id, rolloutIndex: { gte: STRIDE, lt: first } },
      _max: { rolloutIndex: true },
    }),
    db().episode.aggregate({ where: { runId: run.id, rolloutIndex: { gt: last } }, _min: { rolloutIndex: true } }),
  ]);
  const prev = stepOf(before._max.rolloutIndex);
  const next = stepOf(after._min.rolloutIndex);
  let nearest: number | null = null;
  if (rows.length === 0) {
    if (prev !== null && (next === null || input.step - prev <= next - input.step)) nearest = prev;
    else nearest = next;
  }
  return {
    step: input.step,
    items: rows.map((e) => ({
      episodeId: e.id,
      rollout: e.rolloutIndex - first,
      rolloutIndex: e.rolloutIndex,
      sample: e.sample,
      k: e.k,
      promptMode: e.promptMode,
      status: e.status,
      error: e.error,
      prediction: e.prediction,
      correct: e.correct,
      score: e.score,
      toolCallCount: e.toolCallCount,
      rewardTerms: rewardTermsOf(e.rewardTerms),
    })),
    prev,
    next,
    nearest,
  };
}

/** Step and rollout of an episode of an RL training run (the episode page's way back); else null. */
export async function episodeStep(access: ProjectAccess, episodeId: string): Promise<EpisodeStepOutput> {
  const e = await db().episode.findFirst({
    where: { id: episodeId, run: { projectId: access.projectId } },
    select: { rolloutIndex: true, rewardTerms: true, run: { select: { id: true, name: true, kind: true } } },
  });
  if (!e) throw new NotFoundError("Episode");
  if (e.run.kind !== "rl" || e.rolloutIndex < STRIDE) return null;
  return {
    run: { id: e.run.id, name: e.run.name },
    step: Math.floor(e.rolloutIndex / STRIDE),
    rollout: e.rolloutIndex % STRIDE,
    rewardTerms: rewardTermsOf(e.rewardTerms),
  };
}
