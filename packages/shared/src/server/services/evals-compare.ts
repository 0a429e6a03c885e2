// Side-by-side comparison of models on one sample (issue 8): the episodes of chosen runs on the
// sample, the runs on a sample's dataset to choose from, a search for samples by key, and "run
// now": one eval run per compared model restricted to that one sample, through the same queue
// as any launch. A question typed on the page becomes a sample of the project's ad-hoc dataset.
import crypto from "node:crypto";
import {
  ADHOC_DATASET_NAME,
  EPISODE_PAGE_BYTES,
  evalModelProblems,
  MAX_COMPARED_RUNS,
  type AdhocQuestion,
  type CompareSampleOutput,
  type EvalCompareOutput,
  type EvalCompareRunInput,
  type EvalRunOnOutput,
} from "../../contracts/evals";
import type { RunOutput } from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { createEvalRun, getEpisode, getEvalRun, listRunsOnDataset, newEvalGroup } from "./evals";

export async function sampleInProject(access: ProjectAccess, sampleId: string) {
  const s = await db().sample.findFirst({
    where: { id: sampleId, dataset: { projectId: access.projectId } },
    include: { dataset: { select: { id: true, name: true } }, video: true },
  });
  if (!s) throw new NotFoundError("Sample");
  return s;
}

/**
 * Each column's episode is the first page of it (evals-episode.ts) with short previews, so that the
 * comparison of MAX_COMPARED_RUNS episodes stays within one episode page's bytes (issue 37 item 13).
 */
const COLUMN_EPISODE = { maxBytes: EPISODE_PAGE_BYTES / MAX_COMPARED_RUNS, previewChars: 2 * 1024 } as const;

/** What the player and the answer column show of a sample (the compared sample, a GRPO group's prompt). */
export function compareSampleOf(s: Awaited<ReturnType<typeof sampleInProject>>): CompareSampleOutput {
  return {
    id: s.id,
    key: s.key,
    datasetId: s.dataset.id,
    datasetName: s.dataset.name,
    question: s.question,
    options: Array.isArray(s.options) ? (s.options as string[]) : null,
    answer: s.answer,
    questionType: s.questionType,
    video: s.video
      ? {
          id: s.video.id,
          name: s.video.name,
          status: s.video.status,
          durationS: s.video.durationS,
          hasThumbnail: Boolean((s.video.assets as { thumbnail?: unknown } | null)?.thumbnail),
        }
      : null,
  };
}

/** The runner's wall time of an episode (trajectory timings.totalMs), when recorded. */
function latencyOf(timings: unknown): number | null {
  if (!timings || typeof timings !== "object") return null;
  const total = (timings as Record<string, unknown>).totalMs;
  return typeof total === "number" && Number.isFinite(total) ? total : null;
}

/**
 * The sample and, per run in the order given, the run (live status) and its first rollout on the
 * sample. A run on another dataset is refused: it cannot have an episode on this sample.
 */
export async function compareSample(
  access: ProjectAccess,
  input: { sampleId: string; runIds: readonly string[] },
): Promise<EvalCompareOutput> {
  const s = await sampleInProject(access, input.sampleId);
  const runs = await Promise.all(input.runIds.map((id) => getEvalRun(access, id)));
  for (const r of runs) {
    if (r.dataset?.id !== s.datasetId) {
      throw new ValidationError(`"${r.name}" is not a run on the sample's dataset "${s.dataset.name}"`);
    }
  }
  const episodes = await db().episode.findMany({
    where: { sampleId: s.id, runId: { in: [...input.runIds] } },
    select: { id: true, runId: true },
    orderBy: [{ rolloutIndex: "asc" }, { id: "asc" }],
  });
  const firstOf = new Map<string, string>();
  for (const e of episodes) if (!firstOf.has(e.runId)) firstOf.set(e.runId, e.id);
  const columns = await Promise.all(
    runs.map(async (run) => {
      const id = firstOf.get(run.id);
      const episode = id ? await getEpisode(access, id, COLUMN_EPISODE) : null;
      return {
        run,
        episode,
        latencyMs: episode ? latencyOf(episode.timings) : null,
        toolCalls: episode ? episode.toolCallCount : null,
      };
    }),
  );
  return { sample: compareSampleOf(s), columns };
}

/** Eval runs on a dataset, or on a sample's dataset with the sample's first episode in each. */
export async function runsOn(
  access: ProjectAccess,
  input: { datasetId?: string | undefined; sampleId?: string | undefined },
): Promise<EvalRunOnOutput[]> {
  let datasetId = input.datasetId;
  if (input.sampleId) datasetId = (await sampleInProject(access, input.sampleId)).datasetId;
  const dataset = await db().dataset.findFirst({ where: { id: datasetId!, projectId: access.projectId } });
  if (!dataset) throw new NotFoundError("Dataset");
  const runs = await listRunsOnDataset(access, dataset.id);
  const episodes = input.sampleId
    ? await db().episode.findMany({
        where: { sampleId: input.sampleId, runId: { in: runs.map((r) => r.id) } },
        select: { id: true, runId: true, correct: true, status: true },
        orderBy: [{ rolloutIndex: "asc" }, { id: "asc" }],
      })
    : [];
  return runs.map((r) => {
    const e = episodes.find((x) => x.runId === r.id);
    return {
      id: r.id,
      name: r.name,
      status: r.status,
      modelName: r.model?.name ?? null,
      mode: r.mode,
      k: r.k,
      imported: r.imported,
      createdAt: r.createdAt,
      episodeId: e?.id ?? null,
      episodeStatus: e ? (e.status === "OK" ? ("OK" as const) : ("ERROR" as const)) : null,
      correct: e && e.status === "OK" ? e.correct : null,
    };
  });
}

/** Samples of the project whose key or question contains `query`, by key. */
export async function findSamples(
  access: ProjectAccess,
  input: { query: string; datasetId?: string | undefined; limit: number },
) {
  const q = input.query;
  const rows = await db().sample.findMany({
    where: {
      dataset: { projectId: access.projectId },
      ...(input.datasetId ? { datasetId: input.datasetId } : {}),
      ...(q
        ? {
            OR: [
              { key: { contains: q, mode: "insensitive" as const } },
              { question: { contains: q, mode: "insensitive" as const } },
            ],
          }
        : {}),
    },
    include: { dataset: { select: { name: true } } },
    orderBy: [{ key: "asc" }, { id: "asc" }],
    take: input.limit,
  });
  return rows.map((s) => ({
    id: s.id,
    key: s.key,
    question: s.question,
    questionType: s.questionType,
    datasetId: s.datasetId,
    datasetName: s.dataset.name,
    videoId: s.videoId,
  }));
}

/**
 * Stores a typed question as a sample of the project's ad-hoc dataset (created on first use; the
 * unique (project, name) makes concurrent first uses meet on one row).
 */
export async function createAdhocSample(access: ProjectAccess, q: AdhocQuestion): Promise<string> {
  const video = await db().video.findFirst({ where: { id: q.videoId, projectId: access.projectId } });
  if (!video) throw new NotFoundError("Video");
  if (video.status === "FAILED") throw new ValidationError(`The video "${video.name}" is unreadable: ${video.error}`);
  const dataset = await db().dataset.upsert({
    where: { projectId_name: { projectId: access.projectId, name: ADHOC_DATASET_NAME } },
    create: {
      projectId: access.projectId,
      name: ADHOC_DATASET_NAME,
      description: "Questions typed on the comparison page, one sample each.",
      source: { kind: "adhoc" },
    },
    update: {},
  });
  const sample = await db().sample.create({
    data: {
      datasetId: dataset.id,
      videoId: video.id,
      // Time-ordered and unique, so the dataset lists questions in the order they were asked.
      key: `adhoc-${new Date().toISOString().replace(/[-:.]/g, "")}-${crypto.randomBytes(3).toString("hex")}`,
      question: q.question,
      questionType: q.questionType,
      ...(q.questionType === "mcq" ? { options: q.options ?? [] } : {}),
      answer: q.answer,
      metadata: { adhoc: true, askedBy: access.principal.userId },
    },
  });
  return sample.id;
}

/**
 * "Run now": one eval run per compared model (its own mode, K and knobs) on exactly one sample,
 * all in one group, through the launch's queue path. Everything is checked before anything is
 * created, so a refused request leaves no sample and no run behind.
 */
export async function compareRun(
  access: ProjectAccess,
  input: Omit<EvalCompareRunInput, "projectId">,
): Promise<{ sampleId: string; group: { id: string; name: string }; runs: RunOutput[] }> {
  const ids = [...new Set(input.models.map((m) => m.modelId))];
  const models = await db().model.findMany({ where: { id: { in: ids }, projectId: access.projectId } });
  if (models.length !== ids.length) throw new NotFoundError("Model");
  const problems = input.models.flatMap((m) => evalModelProblems([models.find((x) => x.id === m.modelId)!], [m.mode]));
  if (problems.length) throw new ValidationError(problems.join("; "));

  const sampleId = input.sampleId
    ? (await sampleInProject(access, input.sampleId)).id
    : await createAdhocSample(access, input.adhoc!);
  const sample = await sampleInProject(access, sampleId);
  if (!sample.videoId) throw new ValidationError(`Sample "${sample.key}" has no video to run on`);

  const group = newEvalGroup(`Compare ${sample.key}`);
  const runs: RunOutput[] = [];
  for (const m of input.models) {
    runs.push(
      await createEvalRun(access, {
        group,
        model: models.find((x) => x.id === m.modelId)!,
        dataset: sample.dataset,
        mode: m.mode,
        k: m.k,
        knobs: m.knobs,
        sampleIds: [sample.id],
        shardSize: 1,
      }),
    );
  }
  return { sampleId: sample.id, group, runs };
}
