// Evaluations (issue 7, SPEC §5): a launch is the cross product models x datasets x modes x K;
// each combination is one Run (kind `eval`) executed as a BullMQ flow of shards, and all runs of
// a launch share a group id in their config so pages show them together (and as a matrix).
// Reads (runs, summaries, per-sample rows, transcripts, matrix) come from the stored rows.
import crypto from "node:crypto";
import { Prisma, type Run } from "@paravt/db";
import {
  evalModelProblems,
  evalRunConfig,
  evalSummary,
  importedRunConfig,
  isAgentic,
  type EvalGroupOutput,
  type EvalGroupTableOutput,
  type EvalLaunchInput,
  type EvalMatrixOutput,
  type EvalRunOutput,
  type EvalSampleListInput,
  type EvalSampleRow,
  type EvalSummary,
  type FlipDirection,
} from "../../contracts/evals";
import type { RunOutput } from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { publishRunEvent } from "../events";
import type { ProjectAccess } from "./access";
import { buildMatrix } from "./evals-matrix";
import { buildGroupTable } from "./evals-table";
import { enqueueEvalFlow } from "./evals-queue";
import { writeRunSamples } from "./evals-run-samples";
import { computeRunSummary, durationCategoryOf } from "./evals-summary";
import { liveSummaries } from "./evals-tally-store";
import { getRun, STATUS_CHANGED, toEvent, toRunOutput } from "./runs";

export { buildMatrix, headline } from "./evals-matrix";
export { buildGroupTable, percent, TABLE_POLICY, tableCsv, tableMarkdown } from "./evals-table";
export { closeEvalFlows, enqueueEvalFlow, shardJobId, shardRanges } from "./evals-queue";
export { countExistingRunSamples, runSampleSlice, writeRunSamples } from "./evals-run-samples";
export { computeRunSummary, durationCategoryOf, summarize, summaryRowsOf, type SummaryRow } from "./evals-summary";
export { summaryFromTallies, tallyRows, type Tally } from "./evals-tally";
export { ensureTallied, insertTallied, liveSummaries, runTallies, type TalliedEpisode } from "./evals-tally-store";
export {
  assertRunActive,
  countedToolCalls,
  countStored,
  noteRunPartRetry,
  reportStoredProgress,
  startRunPart,
  storedSampleIds,
  storeEpisode,
  type EpisodeRecord,
  type ToolCallRecord,
  type TurnRecord,
} from "./evals-store";
export { importReference, importMessage, parseReferenceFile, type ImportReferenceResult } from "./evals-import";
export { IMPORT_BATCH_ROWS, importRowsPath, storeImportRows } from "./evals-import-rows";
export { getEpisode, getEpisodeText, getFullEpisode, previewJson, type EpisodePageOptions } from "./evals-episode";

const EVAL_KINDS = ["eval", "import"] as const;

function jsonValue(v: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue;
}

/**
 * The samples a run covers: the dataset's samples in key order, optionally only the named ones,
 * one split, first N.
 */
async function selectSamples(
  datasetId: string,
  split: string | undefined,
  limit: number | undefined,
  only: readonly string[] | undefined,
) {
  const rows = await db().sample.findMany({
    where: {
      datasetId,
      ...(only ? { id: { in: [...only] } } : {}),
      ...(split ? { metadata: { path: ["split"], equals: split } } : {}),
    },
    select: { id: true },
    orderBy: { key: "asc" },
    ...(limit ? { take: limit } : {}),
  });
  return rows.map((r) => r.id);
}

/** Refuses named samples that belong to none of the launch's datasets (another project's included). */
async function assertSamplesIn(sampleIds: readonly string[], datasetIds: readonly string[]): Promise<void> {
  const found = await db().sample.findMany({
    where: { id: { in: [...sampleIds] }, datasetId: { in: [...datasetIds] } },
    select: { id: true },
  });
  if (found.length === sampleIds.length) return;
  const known = new Set(found.map((f) => f.id));
  const missing = sampleIds.filter((s) => !known.has(s));
  throw new ValidationError(
    `${missing.length} of the named samples belong to none of the chosen datasets (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""})`,
  );
}

/** A launch's transaction: long enough to write a few hundred thousand sample ids. */
const CREATE_TX = { timeout: 120_000, maxWait: 30_000 } as const;

/**
 * Creates one eval run (a Run row with its settings in config, its sample ids in order in
 * `eval_run_samples`, in one transaction) and queues its flow. Shared by a launch (a cross
 * product) and a comparison (one sample, one run per compared model).
 */
export async function createEvalRun(
  access: ProjectAccess,
  spec: {
    group: { id: string; name: string };
    model: { id: string; name: string };
    dataset: { id: string; name: string };
    mode: EvalLaunchInput["modes"][number];
    k: number;
    knobs: EvalLaunchInput["knobs"];
    sampleIds: string[];
    shardSize: number;
    split?: string | undefined;
    sampleLimit?: number | undefined;
  },
): Promise<RunOutput> {
  const config = evalRunConfig.parse({
    group: spec.group,
    modelId: spec.model.id,
    datasetId: spec.dataset.id,
    mode: spec.mode,
    k: spec.k,
    knobs: spec.knobs,
    sampleCount: spec.sampleIds.length,
    shardSize: spec.shardSize,
    ...(spec.split ? { split: spec.split } : {}),
    ...(spec.sampleLimit ? { sampleLimit: spec.sampleLimit } : {}),
  });
  const run = await db().$transaction(async (tx) => {
    const created = await tx.run.create({
      data: {
        projectId: access.projectId,
        createdById: access.principal.userId,
        modelId: spec.model.id,
        kind: "eval",
        jobName: "eval.run",
        name: `${spec.group.name} · ${spec.model.name} · ${spec.dataset.name} · ${spec.mode} · K=${spec.k}`,
        config: jsonValue(config),
      },
    });
    await writeRunSamples(tx, created.id, spec.sampleIds);
    return created;
  }, CREATE_TX);
  // Published before enqueueing so that no subscriber can see RUNNING before QUEUED.
  await publishRunEvent(toEvent(run, STATUS_CHANGED));
  try {
    await enqueueEvalFlow(run.id, config.sampleCount, config.shardSize);
  } catch (err) {
    // The row must not claim QUEUED when nothing will ever run it.
    const failed = await db().run.update({
      where: { id: run.id },
      data: { status: "FAILED", error: `Could not enqueue: ${(err as Error).message}`, finishedAt: new Date() },
    });
    await publishRunEvent(toEvent(failed, STATUS_CHANGED)).catch(() => undefined);
    throw err;
  }
  return getRun(access, run.id);
}

export function newEvalGroup(name: string): { id: string; name: string } {
  return { id: `grp_${crypto.randomBytes(8).toString("hex")}`, name };
}

export async function launchEval(
  access: ProjectAccess,
  input: Omit<EvalLaunchInput, "projectId">,
): Promise<{ group: { id: string; name: string }; runs: RunOutput[] }> {
  const models = await db().model.findMany({ where: { id: { in: input.modelIds }, projectId: access.projectId } });
  if (models.length !== input.modelIds.length) throw new NotFoundError("Model");
  const problems = evalModelProblems(models, input.modes);
  if (problems.length) throw new ValidationError(problems.join("; "));
  const datasets = await db().dataset.findMany({
    where: { id: { in: input.datasetIds }, projectId: access.projectId },
  });
  if (datasets.length !== input.datasetIds.length) throw new NotFoundError("Dataset");
  if (input.sampleIds) await assertSamplesIn(input.sampleIds, input.datasetIds);
  const samplesOf = new Map<string, string[]>();
  for (const d of datasets) {
    const ids = await selectSamples(d.id, input.split, input.sampleLimit, input.sampleIds);
    if (!ids.length) {
      throw new ValidationError(
        `Dataset "${d.name}" has no samples${input.split ? ` in split "${input.split}"` : ""}${input.sampleIds ? " among the named ones" : ""} to evaluate`,
      );
    }
    samplesOf.set(d.id, ids);
  }

  const group = newEvalGroup(input.name);
  const out: RunOutput[] = [];
  // Models and datasets in the order the caller listed them (the matrix's rows and columns).
  for (const modelId of input.modelIds) {
    const model = models.find((m) => m.id === modelId)!;
    for (const datasetId of input.datasetIds) {
      const dataset = datasets.find((d) => d.id === datasetId)!;
      for (const mode of input.modes) {
        for (const k of input.ks) {
          out.push(
            await createEvalRun(access, {
              group,
              model,
              dataset,
              mode,
              k,
              knobs: input.knobs,
              sampleIds: samplesOf.get(datasetId)!,
              shardSize: input.shardSize,
              split: input.split,
              sampleLimit: input.sampleLimit,
            }),
          );
        }
      }
    }
  }
  return { group, runs: out };
}

// ----- reads -----------------------------------------------------------------------------------

type RunRow = Run & {
  createdBy: { email: string } | null;
  model: { id: string; name: string; kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE" | "EXTERNAL" } | null;
};

const runInclude = {
  createdBy: { select: { email: true } },
  model: { select: { id: true, name: true, kind: true } },
} as const;

/**
 * Eval and import runs with their settings. An eval run's config is a few hundred bytes whatever
 * its size (its sample ids are rows of `eval_run_samples`, its config says how many).
 */
async function findEvalRuns(args: {
  where: Prisma.RunWhereInput;
  orderBy?: Prisma.RunOrderByWithRelationInput;
  take?: number;
}): Promise<RunRow[]> {
  return db().run.findMany({
    ...args,
    where: { AND: [args.where, { kind: { in: [...EVAL_KINDS] } }] },
    include: runInclude,
  });
}

/** An eval or import run's settings, whichever of the two it is (null: not an eval run). */
function settingsOf(r: RunRow) {
  const ev = evalRunConfig.safeParse(r.config);
  if (ev.success) return { ...ev.data, imported: false as const };
  const im = importedRunConfig.safeParse(r.config);
  if (im.success) return { ...im.data, knobs: null, imported: true as const, sampleCount: im.data.imported.matched };
  return null;
}

/**
 * Run outputs with summaries: the stored one of a finished run, else the live one from the run's
 * tallies (evals-tally-store.ts: a few rows, whatever the run's size).
 */
async function toEvalOutputs(rows: readonly RunRow[]): Promise<EvalRunOutput[]> {
  const parsed = rows.map((r) => ({ r, s: settingsOf(r) })).filter((x) => x.s !== null);
  const datasetIds = [...new Set(parsed.map((x) => x.s!.datasetId))];
  const datasets = new Map(
    (await db().dataset.findMany({ where: { id: { in: datasetIds } }, select: { id: true, name: true } })).map((d) => [
      d.id,
      d,
    ]),
  );
  // A stored summary written before the summary gained a figure (e.g. format compliance) no
  // longer parses: it is recomputed from the rows, like the final one, and stored again once.
  const storedSummary = new Map<string, EvalSummary>();
  for (const { r } of parsed) {
    const ok = r.summary === null ? null : evalSummary.safeParse(r.summary);
    if (ok?.success) storedSummary.set(r.id, ok.data);
  }
  const recompute = parsed.filter((x) => !storedSummary.has(x.r.id));
  const live = await liveSummaries(
    recompute.filter((x) => x.r.summary === null).map((x) => ({ id: x.r.id, samples: x.s!.sampleCount })),
  );
  for (const [id, summary] of live) storedSummary.set(id, summary);
  for (const { r, s } of recompute.filter((x) => x.r.summary !== null)) {
    const summary = await computeRunSummary(r.id, s!.sampleCount);
    storedSummary.set(r.id, summary);
    await storeSummary(r.id, summary);
  }
  return parsed.map(({ r, s }) => {
    const settings = s!;
    const summary = storedSummary.get(r.id)!;
    return {
      ...toRunOutput(r),
      group: settings.group,
      model: r.model,
      dataset: datasets.get(settings.datasetId) ?? null,
      mode: settings.mode,
      k: settings.k,
      withTool: isAgentic(settings.mode),
      knobs: settings.knobs,
      imported: settings.imported,
      summary,
    };
  });
}

export async function getEvalRun(access: ProjectAccess, runId: string): Promise<EvalRunOutput> {
  const rows = await findEvalRuns({ where: { id: runId, projectId: access.projectId } });
  const [out] = await toEvalOutputs(rows);
  if (!out) throw new NotFoundError("Evaluation run");
  return out;
}

function groupOf(runs: EvalRunOutput[]): EvalGroupOutput {
  const first = runs.reduce((a, b) => (a.createdAt <= b.createdAt ? a : b));
  return { id: first.group.id, name: first.group.name, createdAt: first.createdAt, runs };
}

/** The project's most recent evaluation groups, newest first, each with its runs and progress. */
export async function listGroups(access: ProjectAccess, input: { limit: number }): Promise<EvalGroupOutput[]> {
  // Groups are found among recent runs: a launch is at most MAX_EVAL_RUNS_PER_LAUNCH runs.
  const rows = await findEvalRuns({
    where: { projectId: access.projectId },
    orderBy: { createdAt: "desc" },
    take: input.limit * 64,
  });
  const byGroup = new Map<string, EvalRunOutput[]>();
  for (const r of await toEvalOutputs(rows)) {
    const list = byGroup.get(r.group.id) ?? [];
    list.push(r);
    byGroup.set(r.group.id, list);
  }
  return [...byGroup.values()]
    .slice(0, input.limit)
    .map((runs) => groupOf(runs.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())));
}

async function groupRuns(access: ProjectAccess, groupId: string): Promise<EvalRunOutput[]> {
  const rows = await findEvalRuns({
    where: { projectId: access.projectId, config: { path: ["group", "id"], equals: groupId } },
    orderBy: { createdAt: "asc" },
  });
  const runs = await toEvalOutputs(rows);
  if (!runs.length) throw new NotFoundError("Evaluation group");
  return runs;
}

export async function getGroup(access: ProjectAccess, groupId: string): Promise<EvalGroupOutput> {
  return groupOf(await groupRuns(access, groupId));
}

/** The group as the paper's main table, with its CSV and Markdown (evals-table.ts). */
export async function groupTable(access: ProjectAccess, groupId: string): Promise<EvalGroupTableOutput> {
  const group = groupOf(await groupRuns(access, groupId));
  return buildGroupTable({ id: group.id, name: group.name }, group.runs);
}

export async function matrix(
  access: ProjectAccess,
  input: { groupId?: string; runIds?: string[] },
): Promise<EvalMatrixOutput> {
  let runs: EvalRunOutput[] = [];
  if (input.groupId) runs = await groupRuns(access, input.groupId);
  if (input.runIds) {
    const rows = await findEvalRuns({ where: { id: { in: input.runIds }, projectId: access.projectId } });
    if (rows.length !== new Set(input.runIds).size) throw new NotFoundError("Evaluation run");
    const seen = new Set(runs.map((r) => r.id));
    runs = [...runs, ...(await toEvalOutputs(rows)).filter((r) => !seen.has(r.id))];
  }
  return buildMatrix(runs);
}

export const RIGHT: Prisma.EpisodeWhereInput = { status: "OK", correct: true };
export const WRONG: Prisma.EpisodeWhereInput = { status: "OK", OR: [{ correct: false }, { correct: null }] };

/** RIGHT and WRONG above, for an episode already read (the grid's flip state). */
export const isRight = (e: { status: string; correct: boolean | null }) => e.status === "OK" && e.correct === true;
export const isWrong = (e: { status: string; correct: boolean | null }) => e.status === "OK" && e.correct !== true;

/**
 * The run to compare `runId` with, checked: another eval run of the project on the same dataset
 * (flips are between runs on the same samples).
 */
export async function comparableBaseline(access: ProjectAccess, runId: string, baselineId: string): Promise<void> {
  if (baselineId === runId) throw new ValidationError("Pick another run to compare with");
  const [run, baseline] = await Promise.all([getEvalRun(access, runId), getEvalRun(access, baselineId)]);
  if (run.dataset?.id !== baseline.dataset?.id) {
    throw new ValidationError(`"${baseline.name}" is on another dataset; flips are between runs on the same samples`);
  }
}

/**
 * Episodes of `runId` whose sample's correctness differs in `baselineId` (issue 8 "flipped"):
 * right_to_wrong = right in the baseline, wrong here. Right/wrong as the outcome filter (an
 * unscored open-ended answer counts as not right); errors are neither, so they never flip. With
 * several rollouts, any baseline rollout on the sample counts.
 */
export async function flipFilter(
  access: ProjectAccess,
  runId: string,
  baselineId: string,
  direction: FlipDirection = "any",
): Promise<Prisma.EpisodeWhereInput> {
  await comparableBaseline(access, runId, baselineId);
  const inBaseline = (w: Prisma.EpisodeWhereInput): Prisma.EpisodeWhereInput => ({
    sample: { episodes: { some: { runId: baselineId, ...w } } },
  });
  const rightToWrong = { AND: [WRONG, inBaseline(RIGHT)] };
  const wrongToRight = { AND: [RIGHT, inBaseline(WRONG)] };
  if (direction === "right_to_wrong") return rightToWrong;
  if (direction === "wrong_to_right") return wrongToRight;
  return { OR: [rightToWrong, wrongToRight] };
}

/** Eval and import runs on a dataset, newest first (the pickers of the comparison page). */
export async function listRunsOnDataset(access: ProjectAccess, datasetId: string): Promise<EvalRunOutput[]> {
  const rows = await findEvalRuns({
    where: { projectId: access.projectId, config: { path: ["datasetId"], equals: datasetId } },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return toEvalOutputs(rows);
}

type SampleFilterInput = Omit<EvalSampleListInput, "projectId" | "cursor" | "limit">;

/**
 * The episodes of a run that the samples filters select (outcome, question type, tool calls, K,
 * duration group, flipped against another run): one definition for the samples table and the
 * sample grid, so both views list the same episodes. Checks the run is the project's.
 */
export async function sampleWhere(access: ProjectAccess, input: SampleFilterInput): Promise<Prisma.EpisodeWhereInput> {
  await getEvalRun(access, input.runId);
  const outcome: Prisma.EpisodeWhereInput =
    input.outcome === "correct"
      ? RIGHT
      : input.outcome === "wrong"
        ? WRONG
        : input.outcome === "error"
          ? { status: "ERROR" }
          : {};
  const duration: Prisma.EpisodeWhereInput = input.duration
    ? {
        OR: [
          { sample: { metadata: { path: ["duration"], equals: input.duration } } },
          { sample: { metadata: { path: ["durationCategory"], equals: input.duration } } },
          { details: { path: ["duration"], equals: input.duration } },
        ],
      }
    : {};
  const flipped = input.flippedAgainst
    ? await flipFilter(access, input.runId, input.flippedAgainst, input.flipDirection)
    : {};
  return {
    runId: input.runId,
    AND: [
      outcome,
      duration,
      flipped,
      input.minToolCalls !== undefined ? { toolCallCount: { gte: input.minToolCalls } } : {},
      input.maxToolCalls !== undefined ? { toolCallCount: { lte: input.maxToolCalls } } : {},
      input.k !== undefined ? { k: input.k } : {},
      input.questionType ? { sample: { questionType: input.questionType } } : {},
    ],
  };
}

/**
 * The order of a run's samples in the table and the grid: sample key, rollout, then id (the
 * cursor). The key is the episode's copy of its sample's (`sampleKey`), so a page is one range of
 * the (run, sample key, rollout, id) index, not a join with every sample of the run and a sort.
 */
export const SAMPLE_ORDER: Prisma.EpisodeOrderByWithRelationInput[] = [
  { sampleKey: "asc" },
  { rolloutIndex: "asc" },
  { id: "asc" },
];

/**
 * The run's episodes from the cursor episode on, in SAMPLE_ORDER (the cursor names the first
 * episode of the page), as a range of that index; null when the cursor names no episode of the
 * run (an empty page). Prisma's own `cursor` compares through per-row subqueries and reads the
 * rest of the run.
 */
export async function fromCursor(runId: string, cursor: string | undefined): Promise<Prisma.EpisodeWhereInput | null> {
  if (cursor === undefined) return {};
  const at = await db().episode.findFirst({
    where: { id: cursor, runId },
    select: { id: true, sampleKey: true, rolloutIndex: true },
  });
  if (!at || at.sampleKey === null) return null;
  const key = at.sampleKey;
  return {
    sampleKey: { gte: key },
    OR: [
      { sampleKey: { gt: key } },
      { sampleKey: key, rolloutIndex: { gt: at.rolloutIndex } },
      { sampleKey: key, rolloutIndex: at.rolloutIndex, id: { gte: at.id } },
    ],
  };
}

/** Per-sample rows of a run with the review filters; each row names its episode. */
export async function listSamples(
  access: ProjectAccess,
  input: Omit<EvalSampleListInput, "projectId">,
): Promise<{ items: EvalSampleRow[]; nextCursor: string | null }> {
  const where = await sampleWhere(access, input);
  const from = await fromCursor(input.runId, input.cursor);
  if (!from) return { items: [], nextCursor: null };
  const rows = await db().episode.findMany({
    where: { AND: [where, from] },
    include: {
      sample: {
        select: { key: true, question: true, questionType: true, answer: true, metadata: true, videoId: true },
      },
    },
    orderBy: SAMPLE_ORDER,
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((e) => ({
      episodeId: e.id,
      sampleId: e.sampleId,
      key: e.sample.key,
      question: e.sample.question,
      questionType: e.sample.questionType,
      answer: e.sample.answer,
      prediction: e.prediction,
      correct: e.correct,
      score: e.score,
      status: e.status,
      error: e.error,
      toolCallCount: e.toolCallCount,
      k: e.k,
      rolloutIndex: e.rolloutIndex,
      duration: durationCategoryOf(e.sample.metadata, e.details),
      videoId: e.sample.videoId,
    })),
    nextCursor: rows.length > input.limit ? rows[input.limit]!.id : null,
  };
}

/** Worker side, parent job: the run's settings, validated (null: not an evaluation run). */
export function evalSettings(run: Run) {
  const parsed = evalRunConfig.safeParse(run.config);
  return parsed.success ? parsed.data : null;
}

/** Writes the final summary on the run (from its stored rows). */
export async function storeSummary(runId: string, summary: EvalSummary): Promise<void> {
  await db().run.update({ where: { id: runId }, data: { summary: jsonValue(summary) } });
}
