// The one BullMQ processor: validates the payload against the catalog, moves the Run row
// through its lifecycle around the handler, and decides between retry, permanent failure and
// skip. Handlers only do their work.
import { isJobName, JOB_CATALOG, type JobName, type JobPayload } from "@paravt/shared";
import { evals, runs } from "@paravt/shared/server";
import { UnrecoverableError, type Job } from "bullmq";
import { HANDLERS } from "./handlers/index";
import { PermanentJobError, runContext, SkipJobError, type JobHandler } from "./job-context";

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PermanentJobError(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function processJob(job: Job): Promise<string> {
  if (!isJobName(job.name)) throw new UnrecoverableError(`Unknown job type "${job.name}"`);
  const name: JobName = job.name;
  const def = JOB_CATALOG[name];
  const parsed = def.payload.safeParse(job.data);
  if (!parsed.success) {
    const runId = (job.data as { runId?: unknown } | null)?.runId;
    const reason = `Invalid payload for ${name}: ${parsed.error.message}`;
    if (typeof runId === "string" && (await runs.startRunAttempt(runId))) {
      await runs.failRunAttempt(runId, reason, false);
    }
    throw new UnrecoverableError(reason);
  }
  const { runId } = parsed.data;
  if ("partOf" in def) return processPartJob(job, name, parsed.data);
  // Not found or already finished (duplicate delivery, cancelled while queued): skip.
  if (!(await runs.startRunAttempt(runId))) return "skipped";

  const ctx = runContext(runId, job.attemptsMade + 1);
  const handler = HANDLERS[name] as JobHandler<JobName>;
  try {
    const message = await withTimeout(handler(parsed.data, ctx), def.timeoutMs, def.title);
    await runs.finishRun(runId, message || "Done");
    return message || "Done";
  } catch (err) {
    if (err instanceof runs.RunCancelledError) return "cancelled";
    if (err instanceof SkipJobError) {
      await runs.finishRun(runId, `Skipped: ${err.message}`);
      return "skipped";
    }
    const reason = err instanceof Error ? err.message : String(err);
    const permanent = err instanceof PermanentJobError;
    const willRetry = !permanent && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
    await runs.failRunAttempt(runId, reason, willRetry);
    throw permanent ? new UnrecoverableError(reason) : err;
  }
}

/**
 * A job that does one part of its flow parent's Run (an evaluation shard). Several run at once on
 * one row, so none of them finishes the run (the parent does) or sends it back to QUEUED on a
 * retry; only a part that fails for good fails the run (BullMQ then fails the parent too:
 * failParentOnFailure). A part of a run that is finished or gone is skipped.
 */
async function processPartJob(job: Job, name: JobName, payload: JobPayload<JobName>): Promise<string> {
  const { runId } = payload;
  const def = JOB_CATALOG[name];
  const part = "shard" in payload ? `shard ${String(payload.shard)}` : def.title;
  if (!(await evals.startRunPart(runId))) return "skipped";
  const handler = HANDLERS[name] as JobHandler<JobName>;
  try {
    return (
      (await withTimeout(handler(payload, runContext(runId, job.attemptsMade + 1)), def.timeoutMs, def.title)) || "Done"
    );
  } catch (err) {
    // Cancelled or failed by someone else: this part just stops.
    if (err instanceof runs.RunCancelledError) return "cancelled";
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
 * BullMQ can fail a job without running the processor (stalled too often after worker
 * crashes); the row must not stay RUNNING forever.
 */
export async function onJobFailedOutsideProcessor(job: Job | undefined, err: Error): Promise<void> {
  const runId = (job?.data as { runId?: unknown } | undefined)?.runId;
  if (typeof runId !== "string") return;
  await runs.failRunAttempt(runId, err.message, false);
}
