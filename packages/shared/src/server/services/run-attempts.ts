// A run's attempt log (issue 39 item 6): which worker process, backend, device and queue ran each
// attempt, when it started and how it ended, kept in the run's own `config.workerAttempts`
// (contracts/runs.ts `runAttemptSchema`) rather than a table: a run has a handful of attempts, and
// the row stays the one record of the run. Jobs read their settings with schemas that ignore the
// key; settings views leave it out (RUN_CONFIG_RECORD_KEYS). Each write is one UPDATE done in SQL,
// so an evaluation's config (every sample id, megabytes) is never read into Node for it.
import { hostname } from "node:os";
import { MAX_RUN_ATTEMPT_ENTRIES, type RUN_ATTEMPT_OUTCOMES } from "../../contracts/runs";
import type { Prisma } from "@paravt/db";
import { db } from "../db";
import { workerIdentity } from "../worker-registry";

type Outcome = (typeof RUN_ATTEMPT_OUTCOMES)[number];

/** Reasons are the run's error texts, which can be long; the log keeps their start. */
const REASON_CHARS = 500;

/**
 * Appends `entry` (a JSON object) to the run's log, keeping the newest MAX_RUN_ATTEMPT_ENTRIES.
 * `closeOpen`: earlier attempts still without an outcome get it (a new attempt means they ended
 * without writing their end).
 */
async function append(
  runId: string,
  entry: { attempt: boolean; shards: boolean; queue: string | undefined },
  closeOpen: { outcome: Outcome; reason: string } | null,
): Promise<void> {
  const me = workerIdentity();
  const now = new Date().toISOString();
  // jsonb_strip_nulls: an in-process worker (tests) announced no backend or device.
  await db().$executeRaw`WITH cur AS (
      SELECT id, attempts, CASE WHEN jsonb_typeof(config) = 'object' THEN config ELSE '{}'::jsonb END AS base
      FROM runs WHERE id = ${runId}
    ), log AS (
      SELECT CASE WHEN jsonb_typeof(base->'workerAttempts') = 'array' THEN base->'workerAttempts' ELSE '[]'::jsonb END AS arr
      FROM cur
    ), kept AS (
      SELECT coalesce(jsonb_agg(
        CASE WHEN ${closeOpen !== null}::boolean AND e->'attempt' IS NOT NULL AND e->'outcome' IS NULL
          THEN e || jsonb_build_object('outcome', ${closeOpen?.outcome ?? null}::text, 'endedAt', ${now}::text,
                                       'reason', ${closeOpen?.reason ?? null}::text)
          ELSE e END ORDER BY i), '[]'::jsonb) AS arr
      FROM log, jsonb_array_elements(log.arr) WITH ORDINALITY AS t(e, i)
      WHERE i > jsonb_array_length(log.arr) - ${MAX_RUN_ATTEMPT_ENTRIES - 1}::int
    )
    UPDATE runs SET config = cur.base || jsonb_build_object('workerAttempts', kept.arr || jsonb_build_array(
      jsonb_strip_nulls(jsonb_build_object(
        'attempt', CASE WHEN ${entry.attempt}::boolean THEN cur.attempts END,
        'shards', CASE WHEN ${entry.shards}::boolean THEN true END,
        'host', ${hostname()}::text, 'pid', ${process.pid}::int,
        'backend', ${me?.backend ?? null}::text, 'device', ${me?.device ?? null}::text,
        'queue', ${entry.queue ?? null}::text, 'startedAt', ${now}::text))))
    FROM cur, kept WHERE runs.id = cur.id`;
}

/**
 * The delivery that just moved the run to RUNNING (services/runs.ts `startRunAttempt`, which set
 * `attempts`) records itself as that attempt. `queue`: the queue it came from.
 */
export function recordAttemptStart(runId: string, queue: string | undefined): Promise<void> {
  return append(
    runId,
    { attempt: true, shards: false, queue },
    {
      outcome: "interrupted",
      reason: "another delivery started it again (its worker stopped or lost the job's lock)",
    },
  );
}

/** Runs this process has listed itself under as a shard worker (bounded: one entry per run). */
const shardRuns = new Set<string>();

/**
 * A worker process starts a shard of an evaluation: it lists itself once per run (the first
 * shard it runs), so the log names every worker and device that evaluated samples of the run
 * without writing the row for every shard.
 */
export async function recordShardWorker(runId: string, queue: string | undefined): Promise<void> {
  if (shardRuns.has(runId)) return;
  if (shardRuns.size >= 10_000) shardRuns.clear();
  shardRuns.add(runId);
  await append(runId, { attempt: false, shards: true, queue }, null);
}

/**
 * Writes how an attempt ended: attempt `attempt` (the fence of the delivery that ends it), or
 * without one every attempt still open. Writes nothing when no such attempt is open. `client`: the
 * transaction that also ends the run, so nobody sees the run ended with its attempt still open.
 */
export async function closeAttempt(
  runId: string,
  outcome: Outcome,
  opts: { attempt?: number | undefined; reason?: string | undefined } = {},
  client: Pick<Prisma.TransactionClient, "$executeRaw"> = db(),
): Promise<void> {
  const attempt = opts.attempt ?? null;
  const reason = opts.reason === undefined ? null : opts.reason.slice(0, REASON_CHARS);
  const now = new Date().toISOString();
  await client.$executeRaw`UPDATE runs SET config = jsonb_set(config, '{workerAttempts}', (
      SELECT jsonb_agg(
        CASE WHEN e->'attempt' IS NOT NULL AND e->'outcome' IS NULL
               AND (${attempt}::int IS NULL OR (e->>'attempt')::int = ${attempt}::int)
          THEN e || jsonb_strip_nulls(jsonb_build_object('outcome', ${outcome}::text, 'endedAt', ${now}::text,
                                                         'reason', ${reason}::text))
          ELSE e END ORDER BY i)
      FROM jsonb_array_elements(config->'workerAttempts') WITH ORDINALITY AS t(e, i)))
    WHERE id = ${runId} AND jsonb_typeof(config->'workerAttempts') = 'array'
      AND EXISTS (SELECT 1 FROM jsonb_array_elements(config->'workerAttempts') AS o(e)
                  WHERE e->'attempt' IS NOT NULL AND e->'outcome' IS NULL
                    AND (${attempt}::int IS NULL OR (e->>'attempt')::int = ${attempt}::int))`;
}
