// Worker side of evaluation runs: the shard lifecycle on the parent's Run row, and storing one
// sample's full trajectory exactly once.
//
// Exactly once: an episode is keyed by (run, sample, rollout) (unique in the schema) and written
// with its turns and tool calls in ONE nested create, which Prisma runs as one transaction. A
// shard that resumes after a crash skips the samples whose row exists; if two workers ever race
// on the same sample (a falsely stalled job), the second insert hits the unique key and is
// dropped, so nothing is stored or counted twice.
import { Prisma, type Run } from "@paravt/db";
import { db } from "../db";
import { publishRunEvent } from "../events";
import { RunCancelledError, toEvent } from "./runs";

export interface ToolCallRecord {
  index: number;
  name: string;
  arguments: unknown;
  startS: number | null;
  endS: number | null;
  clamped: boolean;
  frameTimestamps: number[];
  subAgentOutput: string | null;
  status: "OK" | "ERROR" | "REJECTED";
  error: string | null;
  durationMs: number | null;
  /** Whatever else the runner recorded about the call (kept verbatim as JSON). */
  details: unknown;
}

export interface TurnRecord {
  index: number;
  rawText: string;
  forcedPrefix: string | null;
  forcedFinal: boolean;
  parsedCalls: unknown;
  parseIssues: unknown;
  promptTokens: number | null;
  completionTokens: number | null;
  timings: unknown;
  toolCalls: ToolCallRecord[];
}

/** One evaluated sample: what the episode runner produced, scored; or an error with its reason. */
export interface EpisodeRecord {
  sampleId: string;
  rolloutIndex: number;
  modelId: string | null;
  k: number;
  promptMode: string;
  status: "OK" | "ERROR";
  error: string | null;
  finalText: string | null;
  prediction: string | null;
  score: number | null;
  correct: boolean | null;
  overviewTimestamps: number[];
  timings: unknown;
  tokenCounts: unknown;
  details: unknown;
  turns: TurnRecord[];
  /** SPEC §2 reward terms of a training rollout (an ingested one, issue 11). */
  rewardTerms?: unknown;
  /** Client-supplied id of an ingested rollout; unique per run. */
  externalId?: string | null;
}

function json(v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return v === undefined || v === null ? Prisma.DbNull : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue);
}

/** Tool calls that were dispatched: a call refused by max_parallel (REJECTED) never ran. */
export function countedToolCalls(turns: readonly TurnRecord[]): number {
  return turns.reduce((n, t) => n + t.toolCalls.filter((c) => c.status !== "REJECTED").length, 0);
}

/** Stores one sample's episode with its turns and tool calls; false if it was already stored. */
export async function storeEpisode(runId: string, r: EpisodeRecord): Promise<boolean> {
  try {
    await db().episode.create({
      data: {
        runId,
        sampleId: r.sampleId,
        modelId: r.modelId,
        rolloutIndex: r.rolloutIndex,
        k: r.k,
        promptMode: r.promptMode,
        status: r.status,
        error: r.error?.slice(0, 4000) ?? null,
        finalText: r.finalText,
        prediction: r.prediction,
        score: r.score,
        correct: r.correct,
        toolCallCount: countedToolCalls(r.turns),
        overviewTimestamps: r.overviewTimestamps,
        timings: json(r.timings),
        tokenCounts: json(r.tokenCounts),
        details: json(r.details),
        ...(r.rewardTerms !== undefined ? { rewardTerms: json(r.rewardTerms) } : {}),
        ...(r.externalId ? { externalId: r.externalId } : {}),
        turns: {
          create: r.turns.map((t) => ({
            index: t.index,
            rawText: t.rawText,
            forcedPrefix: t.forcedPrefix,
            forcedFinal: t.forcedFinal,
            parsedCalls: json(t.parsedCalls),
            parseIssues: json(t.parseIssues),
            promptTokens: t.promptTokens,
            tokenCount: t.completionTokens,
            timings: json(t.timings),
            toolCalls: {
              create: t.toolCalls.map((c) => ({
                index: c.index,
                name: c.name,
                arguments: JSON.parse(JSON.stringify(c.arguments ?? {})) as Prisma.InputJsonValue,
                startS: c.startS,
                endS: c.endS,
                clamped: c.clamped,
                frameTimestamps: c.frameTimestamps,
                subAgentOutput: c.subAgentOutput,
                status: c.status,
                error: c.error,
                durationMs: c.durationMs === null ? null : Math.round(c.durationMs),
                details: json(c.details),
              })),
            },
          })),
        },
      },
    });
    return true;
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return false;
    throw err;
  }
}

/** Which of `sampleIds` already have an episode (rollout 0) in the run. */
export async function storedSampleIds(runId: string, sampleIds: readonly string[]): Promise<Set<string>> {
  const rows = await db().episode.findMany({
    where: { runId, rolloutIndex: 0, sampleId: { in: [...sampleIds] } },
    select: { sampleId: true },
  });
  return new Set(rows.map((r) => r.sampleId));
}

export function countStored(runId: string): Promise<number> {
  return db().episode.count({ where: { runId } });
}

/**
 * A shard starts working on its parent's run: QUEUED -> RUNNING the first time (one shard wins,
 * one event), unchanged when already RUNNING. Null when the run is gone or finished (cancelled,
 * failed): the shard is skipped. Unlike startRunAttempt it does not count an attempt: attempts
 * count the run's own (parent) deliveries.
 */
export async function startRunPart(runId: string): Promise<Run | null> {
  const moved = await db().run.updateMany({
    where: { id: runId, status: "QUEUED" },
    data: { status: "RUNNING", startedAt: new Date(), error: null },
  });
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run || run.status !== "RUNNING") return null;
  if (moved.count) await publishRunEvent(toEvent(run));
  return run;
}

/** A shard attempt failed but will be retried: the run stays RUNNING; the reason is shown. */
export async function noteRunPartRetry(runId: string, message: string): Promise<void> {
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING" },
    data: { message: message.slice(0, 1000) },
  });
  if (res.count) await publishRunEvent(toEvent(await db().run.findUniqueOrThrow({ where: { id: runId } })));
}

/**
 * Progress of a sharded run: stored / total samples. Several shards report at once, so the row
 * only ever moves forward (a shard that counted earlier cannot write a smaller value after one
 * that counted later). Throws RunCancelledError when the run is no longer RUNNING.
 */
export async function reportStoredProgress(runId: string, total: number): Promise<number> {
  const stored = await countStored(runId);
  // 1 is written by the parent when the summary is stored, not by a shard.
  const fraction = Math.min(0.99, total ? stored / total : 0);
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING", progress: { lt: fraction } },
    data: { progress: fraction, message: `${stored}/${total} samples` },
  });
  if (res.count) await publishRunEvent(toEvent(await db().run.findUniqueOrThrow({ where: { id: runId } })));
  else await assertRunActive(runId);
  return stored;
}

/** Throws RunCancelledError unless the run is still RUNNING (checked between samples). */
export async function assertRunActive(runId: string): Promise<void> {
  const run = await db().run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run) throw new RunCancelledError("run deleted");
  if (run.status !== "RUNNING") throw new RunCancelledError(`run is ${run.status}`);
}
