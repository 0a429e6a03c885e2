// The rollouts train.rl keeps per step (issue 9: a chart point opens that step's rollouts). They
// are ordinary Episode rows of the run, addressed by rolloutIndex = step * stride + i, so a step
// is an index range and its neighbours are the nearest indices outside it, all served by the
// unique (run, sample, rollout) index without a scan of the run's episodes.
import { EPISODE_PAGE_BYTES, MAX_COMPARED_RUNS } from "../../contracts/evals";
import type { StepGroupInput, StepGroupOutput, StepGroupSummary } from "../../contracts/rl-groups";
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
import { compareSampleOf, sampleInProject } from "./evals-compare";
import { getEpisode } from "./evals-episode";

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

/** The closest steps before and after `step` with stored rollouts (null at either end). */
async function neighbourSteps(runId: string, step: number): Promise<{ prev: number | null; next: number | null }> {
  const first = step * STRIDE;
  const [before, after] = await Promise.all([
    // Steps start at 1: indices below one stride are not training rollouts.
    db().episode.aggregate({
      where: { runId, rolloutIndex: { gte: STRIDE, lt: first } },
      _max: { rolloutIndex: true },
    }),
    db().episode.aggregate({
      where: { runId, rolloutIndex: { gt: first + STRIDE - 1 } },
      _min: { rolloutIndex: true },
    }),
  ]);
  return { prev: stepOf(before._max.rolloutIndex), next: stepOf(after._min.rolloutIndex) };
}

/** An RL run of the project, or the reason it has no training steps. */
async function rlRun(access: ProjectAccess, runId: string) {
  const run = await db().run.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: { id: true, name: true, kind: true },
  });
  if (!run) throw new NotFoundError("Run");
  // Only train.rl numbers its episodes by step; an eval's rollout 0 is not "step 0".
  if (run.kind !== "rl") {
    throw new ValidationError(`"${run.name}" is a ${run.kind} run: only RL training runs keep rollouts per step`);
  }
  return run;
}

export async function stepRollouts(access: ProjectAccess, input: StepRolloutsInput): Promise<StepRolloutsOutput> {
  const run = await rlRun(access, input.runId);
  const first = input.step * STRIDE;
  const [rows, { prev, next }] = await Promise.all([
    db().episode.findMany({
      where: { runId: run.id, rolloutIndex: { gte: first, lte: first + STRIDE - 1 } },
      orderBy: [{ rolloutIndex: "asc" }, { sampleId: "asc" }],
      include: { sample: { select: { id: true, key: true, answer: true } } },
    }),
    neighbourSteps(run.id, input.step),
  ]);
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

const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);
const finite = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The rows of a step sorted into GRPO groups: by the recorded `group`, else (older runs) by sample. */
export function groupStepRows<R extends { sampleId: string; rewardTerms: unknown }>(
  rows: readonly R[],
): { recorded: boolean; groups: Map<number, R[]> } {
  const recorded = rows.length > 0 && rows.every((r) => int(rewardTermsOf(r.rewardTerms)?.group) !== null);
  const bySample = new Map<string, number>();
  const groups = new Map<number, R[]>();
  for (const r of rows) {
    let g = recorded ? int(rewardTermsOf(r.rewardTerms)!.group)! : bySample.get(r.sampleId);
    if (g === undefined) {
      g = bySample.size;
      bySample.set(r.sampleId, g);
    }
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  return { recorded, groups };
}

/** Each rollout of an open group is a first page with short previews, like a comparison column. */
const GROUP_EPISODE = { previewChars: 2 * 1024 } as const;

/**
 * The GRPO group inspector (issue 41 item 14): the groups of one step (prompt, K, stored count,
 * reward mean and std) and one group's rollouts side by side, each with its episode (a first page
 * with short previews, so the group stays within one episode page's bytes), reward terms and the
 * advantage the update used.
 */
export async function stepGroup(access: ProjectAccess, input: StepGroupInput): Promise<StepGroupOutput> {
  const run = await rlRun(access, input.runId);
  const first = input.step * STRIDE;
  const [rows, { prev, next }] = await Promise.all([
    db().episode.findMany({
      where: { runId: run.id, rolloutIndex: { gte: first, lte: first + STRIDE - 1 } },
      orderBy: [{ rolloutIndex: "asc" }, { sampleId: "asc" }],
      select: {
        id: true,
        sampleId: true,
        rolloutIndex: true,
        k: true,
        rewardTerms: true,
        sample: { select: { key: true } },
      },
    }),
    neighbourSteps(run.id, input.step),
  ]);
  const { recorded, groups } = groupStepRows(rows);
  const summaries: StepGroupSummary[] = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([group, members]) => {
      const rewards = members.map((m) => finite(rewardTermsOf(m.rewardTerms)?.reward)).filter((r) => r !== null);
      return {
        group,
        sampleKey: members[0]!.sample.key,
        k: members[0]!.k,
        stored: members.length,
        groupSize: recorded ? int(rewardTermsOf(members[0]!.rewardTerms)?.groupSize) : null,
        rewardMean: rewards.length ? mean(rewards) : null,
        rewardStd: rewards.length ? std(rewards) : null,
      };
    });
  const open = summaries.find((g) => g.group === (input.group ?? summaries[0]?.group)) ?? null;
  if (input.group !== undefined && !open && summaries.length > 0) {
    throw new NotFoundError(`Group ${input.group} of step ${input.step}`);
  }
  const members = open ? groups.get(open.group)! : [];
  const pageBytes = Math.floor(EPISODE_PAGE_BYTES / Math.max(members.length, MAX_COMPARED_RUNS));
  const rollouts = await Promise.all(
    members.map(async (m) => {
      const terms = rewardTermsOf(m.rewardTerms);
      return {
        rollout: m.rolloutIndex - first,
        groupIndex: int(terms?.groupIndex),
        advantage: finite(terms?.advantage),
        rewardTerms: terms,
        episode: await getEpisode(access, m.id, { ...GROUP_EPISODE, maxBytes: pageBytes }),
      };
    }),
  );
  const sample = members[0] ? compareSampleOf(await sampleInProject(access, members[0].sampleId)) : null;
  return { step: input.step, groups: summaries, group: open, sample, rollouts, recorded, prev, next };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const std = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};
