// The one BullMQ processor: validates the payload against the catalog, moves the Run row
// through its lifecycle around the handler, and decides between retry, permanent failure and
// skip. Handlers only do their work.
import { isJobName, JOB_CATALOG, type JobName, type JobPayload } from "@paravt/shared";
import { evals, isDatabaseOutage, runRecovery, runs } from "@paravt/shared/server";
import { DelayedError, UnrecoverableError, type Job } from "bullmq";
import { HANDLERS } from "./handlers/index";
import { briefError, log } from "./log";
import { PermanentJobError, runContext, SkipJobError, type JobHandler } from "./job-context";

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PermanentJobError(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Back-off of a job that met a database outage: 2 s doubling to 30 s; about an hour in all. */
const OUTAGE_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 30_000];
const MAX_OUTAGE_DEFERRALS = 120;
/** Deferrals per job id in this process (only the back-off depends on it). */
const outageDeferrals = new Map<string, number>();

/** The lock was lost: another worker may run this job now, so this delivery writes nothing more. */
export class LockLostError extends Error {
  override name = "LockLostError";
}

/**
 * The one BullMQ processor (its third parameter makes BullMQ hand it an AbortSignal, which
 * start-workers aborts when the job's lock is lost). A database outage does not spend an attempt:
 * the job goes back to the delayed set with a back-off and runs again once Postgres answers
 * (issue 37 item 3); a resumable handler then continues where it stopped.
 */
export async function processJob(job: Job, token?: string, signal?: AbortSignal): Promise<string> {
  try {
    const result = await processDelivery(job, signal);
    if (job.id) outageDeferrals.delete(job.id);
    return result;
  } catch (err) {
    if (signal?.aborted && !(err instanceof UnrecoverableError)) {
      throw new LockLostError(`Stopped: this worker lost the job's lock (${String(signal.reason ?? "lock lost")})`);
    }
    if (!isDatabaseOutage(err) || !token || !job.id) throw err;
    const n = (outageDeferrals.get(job.id) ?? 0) + 1;
    if (n > MAX_OUTAGE_DEFERRALS) {
      outageDeferrals.delete(job.id);
      throw err;
    }
    outageDeferrals.set(job.id, n);
    const delay = OUTAGE_DELAYS_MS[Math.min(n, OUTAGE_DELAYS_MS.length) - 1]!;
    await job.moveToDelayed(Date.now() + delay, token);
    log("job deferred: database unreachable", {
      job: job.name,
      id: job.id,
      retryInS: delay / 1000,
      error: briefError(err),
    });
    // BullMQ neither fails the job nor counts an attempt for a DelayedError.
    throw new DelayedError(`database unreachable (${n}): retrying in ${delay / 1000} s`);
  }
}

async function processDelivery(job: Job, signal: AbortSignal | undefined): Promise<string> {
  if (!isJobName(job.name)) throw new UnrecoverableError(`Unknown job type "${job.name}"`);
  const name: JobName = job.name;
  const def = JOB_CATALOG[name];
  const parsed = def.payload.safeParse(job.data);
  if (!parsed.success) {
    const runId = (job.data as { runId?: unknown } | null)?.runId;
    const reason = `Invalid payload for ${name}: ${parsed.error.message}`;
    if (typeof runId === "string" && (await runs.startRunAttempt(runId, { queue: job.queueName }))) {
      await runs.failRunAttempt(runId, reason, false);
    }
    throw new UnrecoverableError(reason);
  }
  const { runId } = parsed.data;
  if ("partOf" in def) return processPartJob(job, name, parsed.data, signal);
  // Not found or already finished (duplicate delivery, cancelled while queued): skip.
  const started = await runs.startRunAttempt(runId, { queue: job.queueName });
  if (!started) return "skipped";

  const ctx = runContext(runId, job.attemptsMade + 1, { fence: started.attempts, ...(signal ? { signal } : {}) });
  const handler = HANDLERS[name] as JobHandler<JobName>;
  try {
    const message = await withTimeout(handler(parsed.data, ctx), def.timeoutMs, def.title);
    await runs.finishRun(runId, message || "Done", started.attempts);
    return message || "Done";
  } catch (err) {
    if (err instanceof runs.RunCancelledError) return "cancelled";
    // Nothing to write: the database is away (processJob defers the job) or the job is no longer ours.
    if (isDatabaseOutage(err) || signal?.aborted) throw err;
    if (err instanceof SkipJobError) {
      await runs.finishRun(runId, `Skipped: ${err.message}`, started.attempts);
      return "skipped";
    }
    const reason = err instanceof Error ? err.message : String(err);
    const permanent = err instanceof PermanentJobError;
    const willRetry = !permanent && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
    await runs.failRunAttempt(runId, reason, willRetry, started.attempts);
    throw permanent ? new UnrecoverableError(reason) : err;
  }
}

/**
 * A job that does one part of its flow parent's Run (an evaluation shard). Several run at once on
 * one row, so none of them finishes the run (the parent does) or sends it back to QUEUED on a
 * retry; only a part that fails for good fails the run (BullMQ then fails the parent too:
 * failParentOnFailure). A part of a run that is finished or gone is skipped.
 */
async function processPartJob(
  job: Job,
  name: JobName,
  payload: JobPayload<JobName>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { runId } = payload;
  const def = JOB_CATALOG[name];
  const part = "shard" in payload ? `shard ${String(payload.shard)}` : def.title;
  if (!(await evals.startRunPart(runId, { queue: job.queueName }))) return "skipped";
  const handler = HANDLERS[name] as JobHandler<JobName>;
  try {
    return (
      (await withTimeout(
        handler(payload, runContext(runId, job.attemptsMade + 1, signal ? { signal } : {})),
        def.timeoutMs,
        def.title,
      )) || "Done"
    );
  } catch (err) {
    // Cancelled or failed by someone else: this part just stops.
    if (err instanceof runs.RunCancelledError) return "cancelled";
    if (isDatabaseOutage(err) || signal?.aborted) throw err;
    if (err instanceof SkipJobError) return "skipped";
    const reason = `${part}: ${err instanceof Error ? err.message : String(err)}`;
    const permanent = err instanceof PermanentJobError;
    const willRetry = !permanent && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
    if (willRetry) await evals.noteRunPartRetry(runId, `Retrying ${reason}`);
    else await runs.failRunAttempt(runId, reason, false);
    throw permanent ? new UnrecoverableError(reason) : err;
  }
}

/**
 * BullMQ can fail a job without running the processor: stalled too often, its workers killed under
 * it. The row must not stay RUNNING forever: a resumable job that progressed since the previous
 * takeover is queued again (an RL run killed twice continues from its checkpoint), anything else
 * fails. (If Postgres is down now, the reconciler writes the failure once it is back.)
 */
export async function onJobFailedOutsideProcessor(job: Job | undefined, err: Error): Promise<void> {
  const runId = (job?.data as { runId?: unknown } | undefined)?.runId;
  if (typeof runId !== "string") return;
  if (job && job.name !== "eval.shard") {
    await runRecovery.resumeAfterStalls(runId, err.message);
    return;
  }
  await runs.failRunAttempt(runId, err.message, false);
}
