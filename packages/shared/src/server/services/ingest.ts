// Ingestion of external runs (issue 11): runs trained or evaluated elsewhere (the reference
// trainer on 8B models) are created here and fed metrics and rollouts in batches. Exactly once:
// a metric is unique per (run, name, step) and a rollout per (run, client id), so a retried batch
// stores nothing twice; every item gets its own status.
import { Prisma, type Run } from "@paravt/db";
import type {
  ExternalRunCreateInput,
  IngestBatchOutput,
  IngestItemResult,
  MetricItem,
  RolloutItem,
} from "../../contracts/ingest";
import { episodesChange, RUN_CHANGE_MAX_IDS, type RunChange, type RunOutput } from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { isUniqueViolation } from "../db-errors";
import { serverEnv } from "../env";
import { publishRunEvent } from "../events";
import { confineToMediaRoots } from "../media-paths";
import { assertCan, type ProjectAccess } from "./access";
import { getFullEpisode } from "./evals";
import { escapeUnstorable, StorableText } from "../storable-text";
import { storeEpisode } from "./evals-store";
import { metricWallTime, withNotes, type IngestNote } from "./ingest-clock";
import { lastSteps, metricsChange } from "./metrics";
import { announceRunChange, STATUS_CHANGED, toEvent, toRunOutput } from "./runs";

/** The job name of runs that no worker executes: their status comes from the API. */
export const EXTERNAL_JOB = "external";
/** rolloutIndex = step * stride + index, as train.rl stores its rollouts (the dashboard's step link). */
const ROLLOUT_STRIDE = 1000;

const creator = { createdBy: { select: { email: true } } } as const;

async function externalRun(access: ProjectAccess, runId: string): Promise<Run> {
  const run = await db().run.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!run) throw new NotFoundError("Run");
  if (run.jobName !== EXTERNAL_JOB) {
    throw new ValidationError("Only external runs take ingested data; this run is executed by the workbench");
  }
  return run;
}

function datasetOf(run: Run): string {
  const d = (run.config as { external?: { datasetId?: unknown } }).external?.datasetId;
  if (typeof d !== "string") throw new ValidationError("The run has no dataset for its rollouts");
  return d;
}

/**
 * The name of a new run's own dataset: "<name> (ingested)", or "(ingested 2)", "(ingested 3)", ...
 * when another trainer's run of the same name has it (dataset names are unique per project, and
 * run names are not).
 */
async function freeDatasetName(tx: Prisma.TransactionClient, projectId: string, name: string): Promise<string> {
  const base = name.slice(0, 180);
  const taken = new Set(
    (
      await tx.dataset.findMany({
        where: { projectId, name: { startsWith: `${base} (ingested` } },
        select: { name: true },
      })
    ).map((d) => d.name),
  );
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base} (ingested)` : `${base} (ingested ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Creates an external run (RUNNING, no job), or answers the one created before with the same
 * client id. The check and the insert hold a transaction-scoped advisory lock on (project,
 * client id), so two concurrent retries of the same create make one run.
 */
export async function createExternalRun(
  access: ProjectAccess,
  input: Omit<ExternalRunCreateInput, "projectId">,
): Promise<{ run: RunOutput; datasetId: string; created: boolean }> {
  assertCan(access, "runs.ingest");
  if (input.datasetId) {
    const ds = await db().dataset.findFirst({ where: { id: input.datasetId, projectId: access.projectId } });
    if (!ds) throw new NotFoundError("Dataset");
  }
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`ingest:${access.projectId}:${input.clientId}`}))`;
    const existing = await tx.run.findFirst({
      where: {
        projectId: access.projectId,
        jobName: EXTERNAL_JOB,
        config: { path: ["external", "clientId"], equals: input.clientId },
      },
      include: creator,
    });
    if (existing) return { run: toRunOutput(existing), datasetId: datasetOf(existing), created: false };
    const datasetId =
      input.datasetId ??
      (
        await tx.dataset.create({
          data: {
            projectId: access.projectId,
            name: await freeDatasetName(tx, access.projectId, input.name),
            source: { kind: "ingested", clientId: input.clientId },
          },
        })
      ).id;
    const run = await tx.run.create({
      data: {
        projectId: access.projectId,
        createdById: access.principal.userId,
        kind: input.kind,
        jobName: EXTERNAL_JOB,
        name: input.name,
        status: "RUNNING",
        startedAt: new Date(),
        message: "External run: data arrives through the ingestion API",
        config: {
          // The trainer's own configuration, verbatim except what JSONB cannot hold (NUL, lone
          // surrogates: escaped; very long strings: capped), so an odd config never fails the create.
          ...(new StorableText().json("config", input.config) as Prisma.InputJsonObject),
          external: { clientId: input.clientId, datasetId },
        },
      },
      include: creator,
    });
    await publishRunEvent(toEvent(run, STATUS_CHANGED));
    return { run: toRunOutput(run), datasetId, created: true };
  });
}

/** The external trainer reports where its run stands (a finished run is final). */
export async function setExternalRunStatus(
  access: ProjectAccess,
  input: {
    runId: string;
    status: "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
    message?: string;
    error?: string;
    progress?: number;
  },
): Promise<RunOutput> {
  assertCan(access, "runs.ingest");
  const run = await externalRun(access, input.runId);
  const terminal = input.status !== "RUNNING";
  if (run.status !== "RUNNING" && run.status !== input.status) {
    throw new ValidationError(`The run is already ${run.status.toLowerCase()}`);
  }
  const updated = await db().run.update({
    where: { id: run.id },
    data: {
      status: input.status,
      ...(input.message !== undefined ? { message: escapeUnstorable(input.message).text } : {}),
      ...(input.error !== undefined ? { error: escapeUnstorable(input.error).text } : {}),
      ...(input.progress !== undefined
        ? { progress: input.progress }
        : input.status === "SUCCEEDED"
          ? { progress: 1 }
          : {}),
      ...(terminal && !run.finishedAt ? { finishedAt: new Date() } : {}),
    },
    include: creator,
  });
  await publishRunEvent(toEvent(updated, updated.status !== run.status ? STATUS_CHANGED : {}));
  return toRunOutput(updated);
}

function summarize(items: IngestItemResult[]): IngestBatchOutput {
  const counts = { stored: 0, duplicate: 0, conflict: 0, invalid: 0 };
  for (const i of items) counts[i.status]++;
  return { counts, items };
}

/** Refuses data for a run that is over (a late retry of a finished trainer is still answered). */
function assertOpen(run: Run): void {
  if (run.status === "CANCELLED") throw new ValidationError("The run was cancelled; it takes no more data");
}

/**
 * One item = one step's values. An item whose (name, step) pairs all exist with the same values is
 * a duplicate (a retried batch); a different stored value is a conflict and is kept as it was. An
 * `at` ahead of the server's clock is stored at the server's time, one long before the run was
 * created as given, each answered with the reason (ingest-clock.ts).
 */
export async function ingestMetrics(
  access: ProjectAccess,
  input: { runId: string; items: MetricItem[] },
): Promise<IngestBatchOutput> {
  assertCan(access, "runs.ingest");
  const run = await externalRun(access, input.runId);
  assertOpen(run);
  const now = new Date();
  const steps = [...new Set(input.items.map((i) => i.step))];
  // Each series' last step before this batch: a point at or before it is written out of order.
  const before = await lastSteps(
    run.id,
    input.items.flatMap((i) => Object.keys(i.values)),
  );
  const existing = await db().metric.findMany({
    where: { runId: run.id, step: { in: steps } },
    select: { step: true, name: true, value: true },
  });
  const stored = new Map(existing.map((m) => [`${m.step}\u0000${m.name}`, m.value]));
  const results: IngestItemResult[] = [];
  const rows: Prisma.MetricCreateManyInput[] = [];
  const seenIds = new Set<string>();
  for (const item of input.items) {
    if (seenIds.has(item.id)) {
      results.push({
        id: item.id,
        status: "duplicate",
        reason: "the same id appears earlier in this batch",
        code: "repeated_id",
      });
      continue;
    }
    seenIds.add(item.id);
    const entries = Object.entries(item.values);
    const bad = entries.find(([, v]) => !Number.isFinite(v));
    if (entries.length === 0 || bad) {
      results.push(
        bad
          ? { id: item.id, status: "invalid", reason: `${bad[0]} is not a finite number`, code: "not_finite" }
          : { id: item.id, status: "invalid", reason: "no values", code: "no_values" },
      );
      continue;
    }
    const fresh = entries.filter(([name]) => !stored.has(`${item.step}\u0000${name}`));
    const differing = entries.filter(([name, v]) => {
      const s = stored.get(`${item.step}\u0000${name}`);
      return s !== undefined && !sameStoredValue(s, v);
    });
    const { wallTime, note } = metricWallTime(item.at, now, run.createdAt);
    for (const [name, value] of fresh) {
      stored.set(`${item.step}\u0000${name}`, value);
      rows.push({ runId: run.id, step: item.step, name, value, ...(wallTime ? { wallTime } : {}) });
    }
    if (fresh.length > 0) {
      const notes: IngestNote[] = [];
      if (differing.length)
        notes.push({
          code: "kept_stored_values",
          text: `kept the stored values of ${differing.map(([n]) => n).join(", ")} at step ${item.step}`,
        });
      if (note) notes.push(note);
      results.push(withNotes({ id: item.id, status: "stored" as const }, notes));
    } else if (differing.length > 0)
      results.push({
        id: item.id,
        status: "conflict",
        reason: `step ${item.step} already has other values for ${differing.map(([n]) => n).join(", ")}`,
        code: "other_values_stored",
      });
    else results.push({ id: item.id, status: "duplicate" });
  }
  // skipDuplicates: a concurrent batch with the same rows loses nothing and doubles nothing.
  if (rows.length) {
    await db().metric.createMany({ data: rows, skipDuplicates: true });
    await announceNewData(run, { metrics: metricsChange(rows, before) });
  }
  return summarize(results);
}

/**
 * Tells the project's live pages that an external run has new points or rollouts, as a worker's
 * progress does for the workbench's own runs, saying which (`changed`: the series and steps, the
 * episodes), so a run page appends the new points and refetches "rollouts of step N" only for
 * rollouts. Only for batches that stored something: a retried batch of duplicates is silent. The
 * row is not written: its status and message stay the trainer's.
 */
async function announceNewData(run: Run, changed: RunChange): Promise<void> {
  await announceRunChange(run, changed);
}

/**
 * Whether a sent value is the one stored. The metric column gives back 16 significant digits of a
 * double that needed 17 (0.1 + 0.2 comes back as 0.3000000000000000), so a resent batch compared
 * exactly would answer `conflict` for about a quarter of random values; a relative difference
 * below 1e-15 is that rounding, never a trainer's other value.
 */
function sameStoredValue(stored: number, sent: number): boolean {
  return stored === sent || Math.abs(stored - sent) <= 1e-15 * Math.max(Math.abs(stored), Math.abs(sent));
}

/**
 * The project's video registered at a trainer's path (issue 40 item 4: "match by path under
 * MEDIA_ROOTS"): the path is confined to the media roots and resolved to its real path, as
 * registering a video by path stores it. Null with the reason when there is none.
 */
async function videoAtPath(projectId: string, videoPath: string): Promise<{ id: string } | { reason: string }> {
  let real: string;
  try {
    real = await confineToMediaRoots(videoPath, serverEnv().MEDIA_ROOTS);
  } catch (err) {
    return { reason: `video not linked: ${err instanceof Error ? err.message : String(err)}` };
  }
  const video = await db().video.findFirst({
    where: { projectId, path: real },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return (
    video ?? { reason: `video not linked: no video of this project is registered at ${real} (register it by path)` }
  );
}

async function sampleFor(
  projectId: string,
  datasetId: string,
  s: RolloutItem["sample"],
): Promise<{ id: string; note?: IngestNote } | { reason: string }> {
  if (s.videoId) {
    const video = await db().video.findFirst({ where: { id: s.videoId, projectId }, select: { id: true } });
    if (!video) return { reason: `video ${s.videoId} is not in this project` };
  }
  // A path that matches no registered video stores the rollout without a timeline, and says so.
  let videoId = s.videoId;
  let note: IngestNote | undefined;
  if (!videoId && s.videoPath) {
    const found = await videoAtPath(projectId, s.videoPath);
    if ("id" in found) videoId = found.id;
    else note = { code: "video_not_linked", text: found.reason };
  }
  // A trainer's texts may hold NUL or lone surrogates: escaped like episode texts (storable-text.ts),
  // the same way every time, so a retried batch finds the same sample.
  const text = (v: string) => escapeUnstorable(v).text;
  const key = text(s.key);
  const upsert = () =>
    db().sample.upsert({
      where: { datasetId_key: { datasetId, key } },
      create: {
        datasetId,
        key,
        question: text(s.question),
        answer: text(s.answer),
        questionType: s.questionType,
        ...(s.options ? { options: s.options.map(text) } : {}),
        ...(videoId ? { videoId } : {}),
      },
      // A sample first stored without its video gets it once a rollout names one.
      update: videoId ? { videoId } : {},
      select: { id: true },
    });
  // Two trainer processes logging the same new sample at once: the second insert loses the race,
  // and its second try finds the row and updates it (no 409 for a batch that did nothing wrong).
  const sample = await upsert().catch((err: unknown) => {
    if (isUniqueViolation(err)) return upsert();
    throw err;
  });
  return { id: sample.id, ...(note ? { note } : {}) };
}

/** Turn indices, and call indices within a turn, must be unique (they key the stored rows). */
function duplicateIndex(item: RolloutItem): string | null {
  const turns = new Set<number>();
  for (const t of item.turns) {
    if (turns.has(t.index)) return `two turns have index ${t.index}`;
    turns.add(t.index);
    const calls = new Set<number>();
    for (const c of t.toolCalls) {
      if (calls.has(c.index)) return `turn ${t.index} has two tool calls with index ${c.index}`;
      calls.add(c.index);
    }
  }
  return null;
}

/** Rollouts with their full trajectories, stored like the workbench's own episodes. */
export async function ingestRollouts(
  access: ProjectAccess,
  input: { runId: string; items: RolloutItem[] },
): Promise<IngestBatchOutput> {
  assertCan(access, "runs.ingest");
  const run = await externalRun(access, input.runId);
  assertOpen(run);
  const datasetId = datasetOf(run);
  const known = new Set(
    (
      await db().episode.findMany({
        where: { runId: run.id, externalId: { in: input.items.map((i) => i.id) } },
        select: { externalId: true },
      })
    ).map((e) => e.externalId),
  );
  const results: IngestItemResult[] = [];
  const storedIds: string[] = [];
  for (const item of input.items) {
    if (known.has(item.id)) {
      results.push({ id: item.id, status: "duplicate" });
      continue;
    }
    const clash = duplicateIndex(item);
    if (clash) {
      results.push({ id: item.id, status: "invalid", reason: clash, code: "index_clash" });
      continue;
    }
    const sample = await sampleFor(access.projectId, datasetId, item.sample);
    if ("reason" in sample) {
      results.push({ id: item.id, status: "invalid", reason: sample.reason, code: "video_not_in_project" });
      continue;
    }
    const stored = await storeEpisode(run.id, {
      sampleId: sample.id,
      rolloutIndex: item.step * ROLLOUT_STRIDE + item.index,
      modelId: run.modelId,
      k: item.k,
      promptMode: item.promptMode,
      status: item.status,
      error: item.error,
      finalText: item.finalText,
      prediction: item.prediction,
      score: item.score,
      correct: item.correct,
      overviewTimestamps: item.overviewTimestamps,
      timings: null,
      tokenCounts: null,
      details: { ingested: true, step: item.step },
      rewardTerms: item.rewardTerms ? { ...item.rewardTerms, step: item.step } : undefined,
      externalId: item.id,
      turns: item.turns.map((t) => ({
        index: t.index,
        rawText: t.rawText,
        forcedPrefix: t.forcedPrefix,
        forcedFinal: t.forcedFinal,
        parsedCalls: null,
        parseIssues: t.parseIssues,
        promptTokens: t.promptTokens,
        completionTokens: t.completionTokens,
        timings: null,
        toolCalls: t.toolCalls.map((c) => ({ ...c, durationMs: null, details: null })),
      })),
    });
    known.add(item.id);
    if (stored) {
      results.push(withNotes({ id: item.id, status: "stored" as const }, sample.note ? [sample.note] : []));
      storedIds.push(item.id);
    } else {
      // The unique (run, client id) or (run, sample, index) refused it: which one decides the status.
      const same = await db().episode.findFirst({
        where: { runId: run.id, externalId: item.id },
        select: { id: true },
      });
      results.push(
        same
          ? { id: item.id, status: "duplicate" }
          : {
              id: item.id,
              status: "conflict",
              reason: `another rollout is stored for sample ${item.sample.key} at step ${item.step}, index ${item.index}`,
              code: "slot_taken",
            },
      );
    }
  }
  if (storedIds.length) {
    // Our ids of what was stored, when few enough to name (one indexed read of this batch's).
    const ids =
      storedIds.length <= RUN_CHANGE_MAX_IDS
        ? (
            await db().episode.findMany({
              where: { runId: run.id, externalId: { in: storedIds } },
              select: { id: true },
            })
          ).map((e) => e.id)
        : undefined;
    await announceNewData(run, { episodes: ids ? episodesChange(ids) : { count: storedIds.length } });
  }
  return summarize(results);
}

/** A page of a run's episodes with full trajectories, in storage order (bulk export for scripts). */
export async function exportEpisodes(
  access: ProjectAccess,
  input: { runId: string; cursor?: string; limit: number },
): Promise<{ items: Awaited<ReturnType<typeof getFullEpisode>>[]; nextCursor: string | null }> {
  const run = await db().run.findFirst({
    where: { id: input.runId, projectId: access.projectId },
    select: { id: true },
  });
  if (!run) throw new NotFoundError("Run");
  const rows = await db().episode.findMany({
    where: { runId: run.id },
    orderBy: { id: "asc" },
    select: { id: true },
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor } } : {}),
  });
  const page = rows.slice(0, input.limit);
  const items = [];
  // Whole texts, not the episode API's previews: an export is the full trajectory.
  for (const r of page) items.push(await getFullEpisode(access, r.id));
  return { items, nextCursor: rows.length > input.limit ? rows[input.limit]!.id : null };
}
