// Worker side of evaluation runs: the shard lifecycle on the parent's Run row, and storing one
// sample's full trajectory exactly once.
//
// Exactly once: an episode is keyed by (run, sample, rollout) (unique in the schema) and written
// with its turns and tool calls in ONE nested create, in one transaction with its counters in the
// run's tallies (evals-tally-store.ts, issue 42 item 3). A shard that resumes after a crash skips
// the samples whose row exists; if two workers ever race on the same sample (a falsely stalled
// job), the second insert hits the unique key and is dropped with its counters, so nothing is
// stored or counted twice.
//
// No single output fails a shard (issue 37): every string is made storable first (NUL and unpaired
// surrogates escaped, texts capped; storable-text.ts), and a sample whose values Postgres still
// refuses is stored as an ERROR episode that says so. A final text that is the last turn's text is
// stored once, in the turn (FINAL_TEXT_FROM_TURN).
import { Prisma, type Run } from "@paravt/db";
import { db } from "../db";
import { serverEnv } from "../env";
import { redis } from "../redis";
import { databaseRefusal } from "../db-errors";
import { capText, STORED_TEXT_MAX_CHARS, StorableText, type StorageNotes } from "../storable-text";
import { publishRunEvent } from "../events";
import { insertTallied, storedCount, type TalliedEpisode } from "./evals-tally-store";
import { recordShardWorker } from "./run-attempts";
import { publishRunState, RunCancelledError, STATUS_CHANGED, toEvent } from "./runs";

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

/** `v` is plain JSON already (StorableText.json made it so); null and undefined are SQL NULL. */
function json(v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return v === undefined || v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue);
}

/** Tool calls that were dispatched: a call refused by max_parallel (REJECTED) never ran. */
export function countedToolCalls(turns: readonly TurnRecord[]): number {
  return turns.reduce((n, t) => n + t.toolCalls.filter((c) => c.status !== "REJECTED").length, 0);
}

/**
 * `details` key of an episode whose final text is its last turn's raw text, as the episode runner
 * produces it: the text is stored once, in the turn, and the `finalText` column is NULL; readers
 * put it back (evals-episode.ts). A 20 MB completion used to be stored twice (issue 37 item 13).
 */
export const FINAL_TEXT_FROM_TURN = "finalTextFromTurn";

/** `details` with `key` added (a non-object is kept under `value`). */
function withDetail(details: unknown, key: string, value: unknown): unknown {
  if (details === null || details === undefined) return { [key]: value };
  if (typeof details === "object" && !Array.isArray(details)) return { ...details, [key]: value };
  return { value: details, [key]: value };
}

/** `details` with the storage notes added under `sanitized`. */
function withNotes(details: unknown, notes: StorageNotes | null): unknown {
  return notes ? withDetail(details, "sanitized", notes) : details;
}

/**
 * The index of the last turn when the final text is that turn's raw text. Compared as produced:
 * both would be made storable by the same escaping and cap, so the turn's stored text is exactly
 * what `finalText` would have been.
 */
function finalTextTurn(r: EpisodeRecord): number | null {
  const last = r.turns[r.turns.length - 1];
  return last !== undefined && r.finalText !== null && r.finalText === last.rawText ? last.index : null;
}

/** A JSON column's value as it reads back (SQL NULL is null). */
function stored(v: Prisma.InputJsonValue | typeof Prisma.DbNull): unknown {
  return v === Prisma.DbNull ? null : v;
}

/**
 * The create input of one episode, every string made storable (storable-text.ts): NUL and lone
 * surrogates escaped, texts capped at `maxChars`; what changed is recorded in `details.sanitized`.
 * With it, the episode as its tally reads it: the values stored, turns in index order.
 */
function episodeData(
  runId: string,
  r: EpisodeRecord,
  maxChars: number,
): { data: Prisma.EpisodeUncheckedCreateInput; tallied: TalliedEpisode } {
  const st = new StorableText(maxChars);
  const fromTurn = finalTextTurn(r);
  const turns = r.turns.map((t, ti) => {
    const at = `turns[${ti}]`;
    return {
      index: t.index,
      rawText: st.text(`${at}.rawText`, t.rawText),
      forcedPrefix: st.text(`${at}.forcedPrefix`, t.forcedPrefix),
      forcedFinal: t.forcedFinal,
      parsedCalls: json(st.json(`${at}.parsedCalls`, t.parsedCalls)),
      parseIssues: json(st.json(`${at}.parseIssues`, t.parseIssues)),
      promptTokens: t.promptTokens,
      tokenCount: t.completionTokens,
      timings: json(st.json(`${at}.timings`, t.timings)),
      toolCalls: {
        create: t.toolCalls.map((c, ci) => {
          const cat = `${at}.toolCalls[${ci}]`;
          return {
            index: c.index,
            name: st.text(`${cat}.name`, c.name),
            arguments: st.json(`${cat}.arguments`, c.arguments ?? {}) as Prisma.InputJsonValue,
            startS: c.startS,
            endS: c.endS,
            clamped: c.clamped,
            frameTimestamps: c.frameTimestamps,
            subAgentOutput: st.text(`${cat}.subAgentOutput`, c.subAgentOutput),
            status: c.status,
            error: st.text(`${cat}.error`, c.error),
            durationMs: c.durationMs === null ? null : Math.round(c.durationMs),
            details: json(st.json(`${cat}.details`, c.details)),
          };
        }),
      },
    };
  });
  const data = {
    runId,
    sampleId: r.sampleId,
    modelId: r.modelId,
    rolloutIndex: r.rolloutIndex,
    k: r.k,
    promptMode: st.text("promptMode", r.promptMode),
    status: r.status,
    error: r.error == null ? null : capText(st.text("error", r.error), 4000),
    finalText: fromTurn === null ? st.text("finalText", r.finalText) : null,
    prediction: st.text("prediction", r.prediction),
    score: r.score,
    correct: r.correct,
    toolCallCount: countedToolCalls(r.turns),
    overviewTimestamps: r.overviewTimestamps,
    timings: json(st.json("timings", r.timings)),
    tokenCounts: json(st.json("tokenCounts", r.tokenCounts)),
    ...(r.rewardTerms !== undefined ? { rewardTerms: json(st.json("rewardTerms", r.rewardTerms)) } : {}),
    ...(r.externalId ? { externalId: r.externalId } : {}),
    turns: { create: turns },
  };
  // Last, so that the notes cover every field above (details' own strings included).
  const details = st.json("details", r.details);
  const marked = fromTurn === null ? details : withDetail(details, FINAL_TEXT_FROM_TURN, fromTurn);
  const storedDetails = json(withNotes(marked, st.notes()));
  const tallied: TalliedEpisode = {
    sampleId: data.sampleId,
    status: data.status,
    correct: data.correct,
    score: data.score,
    toolCallCount: data.toolCallCount,
    details: stored(storedDetails),
    promptMode: data.promptMode,
    turns: [...turns]
      .sort((a, b) => a.index - b.index)
      .map((t) => ({
        rawText: t.rawText,
        forcedPrefix: t.forcedPrefix,
        parseIssues: stored(t.parseIssues),
        forcedFinal: t.forcedFinal,
        timings: stored(t.timings),
      })),
  };
  return { data: { ...data, details: storedDetails }, tallied };
}

/**
 * The values were refused, not the connection: by Prisma (validation, its JSON layer) or by
 * Postgres as data exceptions (class 22, e.g. a byte sequence the encoding refuses, an int4 out
 * of range) and program limits (class 54, e.g. a value too large to index).
 * Only these turn the sample into an ERROR episode; anything else (the database is down, a
 * deadlock) is thrown so the shard's retry stores the sample once the database is back.
 * (db-errors.ts tells them apart, for the API too.)
 */
function valueRefused(err: unknown): string | null {
  const refusal = databaseRefusal(err);
  if (refusal?.kind === "value") return refusal.reason;
  return refusal?.kind === "query" ? "invalid value" : null;
}

export interface StoreEpisodeOptions {
  /** Cap per stored text (storable-text.ts); STORED_TEXT_MAX_CHARS unless a test sets it. */
  maxTextChars?: number;
}

/**
 * Stores one sample's episode with its turns and tool calls; false if it was already stored.
 * Every string is made storable first. If Postgres still refuses a value, the sample is stored as
 * an ERROR episode saying so (its outputs are dropped), so one unstorable output never fails a
 * shard; a connection failure is thrown as before.
 */
export function storeEpisode(runId: string, r: EpisodeRecord, opts: StoreEpisodeOptions = {}): Promise<boolean> {
  return store(runId, r, opts.maxTextChars ?? STORED_TEXT_MAX_CHARS, true);
}

/** Long texts take a while to write on a loaded machine; Prisma's 5 s default is for short work. */
const STORE_TX = { timeout: 120_000, maxWait: 30_000 } as const;

async function store(runId: string, r: EpisodeRecord, maxChars: number, fallback: boolean): Promise<boolean> {
  try {
    const { data, tallied } = episodeData(runId, r, maxChars);
    // The episode with its turns and tool calls, and its counters in the run's tallies: one transaction.
    await db().$transaction(
      (tx) =>
        insertTallied(tx, runId, [r.sampleId], async () => {
          await tx.episode.create({ data });
          return [tallied];
        }),
      STORE_TX,
    );
    return true;
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return false;
    const refused = valueRefused(err);
    // The ERROR episode itself refused (e.g. an index out of int4 range): nothing more to drop.
    if (!refused || !fallback) throw err;
    // The driver's message is not stored: it may quote the refused value (issue 37 item 11).
    const error = `The episode could not be stored: the database refused one of its values (${refused}); its outputs were dropped`;
    return store(
      runId,
      {
        ...r,
        status: "ERROR",
        error: r.error ? `${error}. Runner error: ${r.error}` : error,
        finalText: null,
        prediction: null,
        score: null,
        correct: null,
        timings: null,
        tokenCounts: null,
        details: { storeRefused: refused },
        turns: [],
        ...(r.rewardTerms !== undefined ? { rewardTerms: null } : {}),
      },
      maxChars,
      false,
    );
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

/** Episodes stored in the run, from its tallies (evals-tally-store.ts): no count over its rows. */
export function countStored(runId: string): Promise<number> {
  return storedCount(runId);
}

/**
 * A shard starts working on its parent's run: QUEUED -> RUNNING the first time (one shard wins,
 * one event), unchanged when already RUNNING. Null when the run is gone or finished (cancelled,
 * failed): the shard is skipped. Unlike startRunAttempt it does not count an attempt: attempts
 * count the run's own (parent) deliveries.
 */
export async function startRunPart(runId: string, opts: { queue?: string } = {}): Promise<Run | null> {
  const moved = await db().run.updateMany({
    where: { id: runId, status: "QUEUED" },
    data: { status: "RUNNING", startedAt: new Date(), error: null },
  });
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run || run.status !== "RUNNING") return null;
  // The run page lists every worker process (and device) that evaluated part of the run.
  await recordShardWorker(runId, opts.queue);
  if (moved.count) await publishRunEvent(toEvent(run, STATUS_CHANGED));
  return run;
}

/** A shard attempt failed but will be retried: the run stays RUNNING; the reason is shown. */
export async function noteRunPartRetry(runId: string, message: string): Promise<void> {
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING" },
    data: { message: message.slice(0, 1000) },
  });
  if (res.count) await publishRunState(runId, {});
}

/**
 * Progress of a sharded run: stored / total samples. Several shards report at once, so the row
 * only ever moves forward (a shard that counted earlier cannot write a smaller value after one
 * that counted later). Throws RunCancelledError when the run is no longer RUNNING. `stored`: the
 * episodes this shard stored since its last report (the event's `changed.episodes`); a report
 * another shard's overtook publishes nothing, its episodes shown by that shard's event.
 */
export async function reportStoredProgress(runId: string, total: number, stored = 1): Promise<number> {
  const count = await countStored(runId);
  // The run row is written at most once per PROGRESS_WRITE_MS across all the run's shards, and for
  // the last sample: with many workers on one run, a write per stored episode made its row the
  // queue every episode waited in (docs/scale.md, bottleneck 3). The episode event goes out either
  // way, so live pages still fetch each new episode; only the progress figure moves in steps.
  if (count < total && !(await progressWriteDue(runId))) {
    await assertRunActive(runId);
    await publishRunState(runId, { episodes: { count: stored } });
    return count;
  }
  // 1 is written by the parent when the summary is stored, not by a shard.
  const fraction = Math.min(0.99, total ? count / total : 0);
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING", progress: { lt: fraction } },
    data: { progress: fraction, message: `${count}/${total} samples` },
  });
  if (res.count) await publishRunState(runId, { episodes: { count: stored } });
  else await assertRunActive(runId);
  return count;
}

/** How often a run's progress row is written while its shards store episodes. */
export const PROGRESS_WRITE_MS = 1000;

/**
 * True for the first caller per PROGRESS_WRITE_MS of a run, across processes (one Redis SET NX
 * with that expiry). Redis unreachable: true, so progress is written as before (the row is the
 * truth; the throttle only spares it).
 */
async function progressWriteDue(runId: string): Promise<boolean> {
  try {
    const key = `${serverEnv().REDIS_PREFIX}:progress-write:${runId}`;
    return (await redis().set(key, "1", "PX", PROGRESS_WRITE_MS, "NX")) === "OK";
  } catch {
    return true;
  }
}

/** Throws RunCancelledError unless the run is still RUNNING (checked between samples). */
export async function assertRunActive(runId: string): Promise<void> {
  const run = await db().run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run) throw new RunCancelledError("run deleted");
  if (run.status !== "RUNNING") throw new RunCancelledError(`run is ${run.status}`);
}
