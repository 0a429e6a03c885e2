// Runs whose queue job no longer matches their row: the row is the truth (DESIGN.md), so the queue
// is rebuilt from it. Three ways in (issue 37 item 3):
//   - the reconciler (`reconcileRuns`, on worker start and periodically): a QUEUED / RUNNING row
//     whose job is gone (Redis restarted without its data) is queued again; one whose job BullMQ
//     failed while Postgres was down (the worker could not write FAILED) gets that failure now;
//   - a worker lost twice under a resumable job (`resumeAfterStalls`): queued again when it made
//     progress since the previous takeover, failed otherwise;
//   - a user resuming a FAILED or CANCELLED run (`resumeRun`): an evaluation runs only the samples
//     it has no stored result for, a training run continues from its last committed checkpoint.
import type { Run } from "@paravt/db";
import { ValidationError, NotFoundError } from "../../errors";
import { isJobName, isResumableJob, JOB_CATALOG, type JobName } from "../../jobs/catalog";
import type { RunOutput } from "../../contracts/runs";
import { db } from "../db";
import { serverEnv } from "../env";
import { enqueue, queue } from "../queues";
import { redis } from "../redis";
import type { ProjectAccess } from "./access";
import { enqueueEvalFlow, shardJobId, shardRanges } from "./evals-queue";
import { evalRunConfig } from "../../contracts/evals";
import { STATUS_CHANGED, getRun, publishRunState } from "./runs";

/** BullMQ states in which a job is still going to run (or running: a dead worker's lock expires). */
const LIVE_STATES = new Set(["active", "waiting", "delayed", "prioritized", "waiting-children"]);

type Liveness = { kind: "live" } | { kind: "failed"; reason: string } | { kind: "lost"; state: string };

/** What the queue holds for a run: its job (an evaluation: the flow's parent) and that job's state. */
async function liveness(run: Run): Promise<Liveness> {
  const name = run.jobName as JobName;
  const job = await queue(JOB_CATALOG[name].queue).getJob(run.id);
  if (!job) return { kind: "lost", state: "missing" };
  const state = await job.getState();
  if (LIVE_STATES.has(state)) return { kind: "live" };
  if (state === "failed") return { kind: "failed", reason: job.failedReason || "the queue failed its job" };
  // "completed" with the row not finished, or "unknown": nothing will ever finish the row.
  return { kind: "lost", state };
}

/** Removes a run's finished or failed jobs (an evaluation: the parent and every shard) so that it can be queued again. */
async function clearFinishedJobs(run: Run): Promise<void> {
  const name = run.jobName as JobName;
  const ids = [run.id];
  if (name === "eval.run") {
    const settings = evalRunConfig.safeParse(run.config);
    if (settings.success) {
      ids.push(
        ...shardRanges(settings.data.sampleIds.length, settings.data.shardSize).map((_, i) => shardJobId(run.id, i)),
      );
    }
  }
  for (const id of ids) {
    // Shards share the parent's queue (catalog: both "cpu").
    const job = await queue(JOB_CATALOG[name].queue).getJob(id);
    if (!job) continue;
    try {
      // BullMQ refuses to remove a job whose lock a live worker holds; a dead worker's lock has expired.
      await job.remove({ removeChildren: true });
    } catch (err) {
      throw new ValidationError(
        `A worker is still running part of this run (${(err as Error).message}); try again when it stops`,
      );
    }
  }
}

/** Queues a run's work again from its row. Throws ValidationError when the row does not say how. */
async function enqueueFromRow(run: Run): Promise<void> {
  const name = run.jobName as JobName;
  await clearFinishedJobs(run);
  if (name === "eval.run") {
    const settings = evalRunConfig.safeParse(run.config);
    if (!settings.success) throw new ValidationError("This run has no valid evaluation settings to resume from");
    await enqueueEvalFlow(run.id, settings.data.sampleIds.length, settings.data.shardSize);
    return;
  }
  // Payloads are ids only (catalog); a launch stores them in the row's config unless it has its own.
  const payload = JOB_CATALOG[name].payload.safeParse({ ...(run.config as object), runId: run.id });
  if (!payload.success) throw new ValidationError(`The run's settings do not say how to queue ${name} again`);
  await enqueue(name, payload.data as never);
}

async function setRow(
  runId: string,
  from: Run["status"][],
  data: Partial<Pick<Run, "status" | "message" | "error" | "finishedAt">>,
) {
  const res = await db().run.updateMany({ where: { id: runId, status: { in: from } }, data });
  if (res.count) await publishRunState(runId, STATUS_CHANGED);
  return res.count > 0;
}

/**
 * Moves the row to QUEUED first (a worker that picks the job up at once must find it runnable),
 * then queues its work; when that fails the row becomes FAILED with the reason, and the error is
 * thrown on.
 */
async function requeue(
  run: Run,
  from: Run["status"][],
  message: string,
  extra: Partial<Pick<Run, "error" | "finishedAt">> = {},
) {
  if (!(await setRow(run.id, from, { status: "QUEUED", message, ...extra }))) return false;
  try {
    await enqueueFromRow(run);
    return true;
  } catch (err) {
    const reason = `Could not queue it again: ${(err as Error).message}`;
    await setRow(run.id, ["QUEUED"], { status: "FAILED", error: reason, finishedAt: new Date() });
    throw err;
  }
}

export interface ReconcileReport {
  /** Another process holds the reconciler's lock: nothing was looked at. */
  skipped: boolean;
  checked: number;
  requeued: string[];
  failed: string[];
}

/**
 * Makes every unfinished run's row and queue agree. Rows younger than `graceMs` are left alone (a
 * launch writes its row before it enqueues). One process at a time (a lock in Redis).
 */
export async function reconcileRuns(opts: { graceMs?: number; projectId?: string } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { skipped: false, checked: 0, requeued: [], failed: [] };
  const lockKey = `${serverEnv().REDIS_PREFIX}:reconcile-lock${opts.projectId ? `:${opts.projectId}` : ""}`;
  const token = `${process.pid}-${Date.now()}`;
  if ((await redis().set(lockKey, token, "PX", 60_000, "NX")) !== "OK") return { ...report, skipped: true };
  try {
    const rows = await db().run.findMany({
      where: {
        status: { in: ["QUEUED", "RUNNING"] },
        jobName: { in: Object.keys(JOB_CATALOG).filter((n) => !("partOf" in JOB_CATALOG[n as JobName])) },
        updatedAt: { lt: new Date(Date.now() - (opts.graceMs ?? 30_000)) },
        // One project only (tests share a database; an operator may repair one project).
        ...(opts.projectId ? { projectId: opts.projectId } : {}),
      },
      orderBy: { createdAt: "asc" },
      take: 500,
    });
    for (const run of rows) {
      report.checked++;
      const state = await liveness(run);
      if (state.kind === "live") continue;
      if (state.kind === "failed") {
        // BullMQ decided while the row could not be written (Postgres was down): write it now.
        if (
          await setRow(run.id, ["QUEUED", "RUNNING"], {
            status: "FAILED",
            error: state.reason.slice(0, 4000),
            finishedAt: new Date(),
          })
        )
          report.failed.push(run.id);
        continue;
      }
      const what = state.state === "missing" ? "lost (Redis restarted?)" : state.state;
      try {
        if (
          await requeue(
            run,
            ["QUEUED", "RUNNING"],
            `Queued again: its job was ${what} while the run was ${run.status.toLowerCase()}`,
          )
        )
          report.requeued.push(run.id);
      } catch {
        report.failed.push(run.id);
      }
    }
    return report;
  } finally {
    // Only our own lock: a slow pass must not free another process's.
    if ((await redis().get(lockKey)) === token) await redis().del(lockKey);
  }
}

/**
 * BullMQ failed a job because workers died under it more than once ("stalled more than allowable
 * limit"). A resumable job that made progress since the previous takeover goes back on the queue
 * (a training run killed twice continues from its checkpoint); anything else fails.
 * Returns whether the run was queued again.
 */
export async function resumeAfterStalls(runId: string, reason: string): Promise<boolean> {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run || (run.status !== "RUNNING" && run.status !== "QUEUED")) return false;
  const key = `${serverEnv().REDIS_PREFIX}:takeover-progress:${runId}`;
  const previous = await redis().get(key);
  const progressed = previous === null || run.progress > Number(previous);
  if (isResumableJob(run.jobName) && progressed) {
    await redis().set(key, String(run.progress), "EX", 7 * 24 * 3600);
    return requeue(
      run,
      ["QUEUED", "RUNNING"],
      `Queued again after its workers were lost (${(run.progress * 100).toFixed(0)} % done): it continues from where it stopped`,
    );
  }
  const why = isResumableJob(run.jobName) ? `${reason}; no progress since the previous takeover` : reason;
  await setRow(runId, ["QUEUED", "RUNNING"], { status: "FAILED", error: why.slice(0, 4000), finishedAt: new Date() });
  return false;
}

/** A user resumes a FAILED or CANCELLED evaluation, training or import run: only the missing work runs. */
export async function resumeRun(access: ProjectAccess, runId: string): Promise<RunOutput> {
  const run = await db().run.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!run) throw new NotFoundError("Run");
  if (!isJobName(run.jobName) || !isResumableJob(run.jobName)) {
    throw new ValidationError("Only evaluation and training runs can be resumed; launch this one again");
  }
  if (run.status !== "FAILED" && run.status !== "CANCELLED") {
    throw new ValidationError(`Run is ${run.status.toLowerCase()}; only a failed or cancelled run can be resumed`);
  }
  const message =
    run.jobName === "eval.run"
      ? "Resumed: only samples without a stored result run"
      : run.jobName === "eval.import"
        ? "Resumed: only rows not stored yet are imported"
        : run.jobName === "dataset.import"
          ? "Resumed: samples already stored are kept"
          : "Resumed: training continues from the last checkpoint";
  if (!(await requeue(run, ["FAILED", "CANCELLED"], message, { error: null, finishedAt: null }))) {
    throw new ValidationError("The run changed meanwhile; reload and try again");
  }
  return getRun(access, run.id);
}
