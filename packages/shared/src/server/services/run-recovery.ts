// Runs whose queue job no longer matches their row: the row is the truth (DESIGN.md), so the queue
// is rebuilt from it. Three ways in (issue 37 item 3):
//   - the reconciler (`reconcileRuns`, on worker start and periodically): a QUEUED / RUNNING row
//     whose job is gone (Redis restarted without its data) is queued again; one whose job BullMQ
//     failed while Postgres was down (the worker could not write FAILED) gets that failure now;
//   - a worker lost twice under a resumable job (`resumeAfterStalls`): queued again when it made
//     progress since the previous takeover, failed otherwise;
//   - a user resuming a FAILED or CANCELLED run (`resumeRun`): an evaluation runs only the samples
//     it has no stored result for, a training run continues from its last committed checkpoint.
// and one more for the gpu queue (issue 39 item 6): jobs left there while no worker pulls it
// (its GPU workers killed, their heartbeats expired) go back to the cpu queue
// (`moveStrandedGpuJobs`, run by the reconciler before it looks at the rows).
import type { Run } from "@paravt/db";
import type { Job, JobsOptions } from "bullmq";
import { ValidationError, NotFoundError } from "../../errors";
import { isJobName, isResumableJob, JOB_CATALOG, type JobName } from "../../jobs/catalog";
import type { RunOutput } from "../../contracts/runs";
import { db } from "../db";
import { serverEnv } from "../env";
import { gpuQueuePulled, jobQueues } from "../job-routing";
import { enqueue, findJob, JOB_RETENTION, LIVE_JOB_STATES, queue } from "../queues";
import { redis } from "../redis";
import { liveWorkers } from "../worker-registry";
import type { ProjectAccess } from "./access";
import { enqueueEvalFlow, shardJobId, shardRanges } from "./evals-queue";
import { evalRunConfig } from "../../contracts/evals";
import { closeAttempt } from "./run-attempts";
import { STATUS_CHANGED, getRun, publishRunState } from "./runs";

type Liveness = { kind: "live" } | { kind: "failed"; reason: string } | { kind: "lost"; state: string };

/** What the queues hold for a run: its job (an evaluation: the flow's parent) and that job's state. */
async function liveness(run: Run): Promise<Liveness> {
  const found = await findJob(run.jobName as JobName, run.id);
  if (!found) return { kind: "lost", state: "missing" };
  if (LIVE_JOB_STATES.has(found.state)) return { kind: "live" };
  if (found.state === "failed") return { kind: "failed", reason: found.job.failedReason || "the queue failed its job" };
  // "completed" with the row not finished, or "unknown": nothing will ever finish the row.
  return { kind: "lost", state: found.state };
}

/** Removes a run's finished or failed jobs (an evaluation: the parent and every shard) so that it can be queued again. */
async function clearFinishedJobs(run: Run): Promise<void> {
  const name = run.jobName as JobName;
  const jobs: { name: JobName; id: string }[] = [{ name, id: run.id }];
  if (name === "eval.run") {
    const settings = evalRunConfig.safeParse(run.config);
    if (settings.success) {
      const shards = shardRanges(settings.data.sampleCount, settings.data.shardSize);
      jobs.push(...shards.map((_, i) => ({ name: "eval.shard" as const, id: shardJobId(run.id, i) })));
    }
  }
  for (const { name: jobName, id } of jobs) {
    // In every queue it can be in (shards and training jobs may be on the gpu queue: job-routing.ts).
    for (const q of jobQueues(jobName)) {
      const job = await queue(q).getJob(id);
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
}

/** Queues a run's work again from its row. Throws ValidationError when the row does not say how. */
async function enqueueFromRow(run: Run): Promise<void> {
  const name = run.jobName as JobName;
  await clearFinishedJobs(run);
  if (name === "eval.run") {
    const settings = evalRunConfig.safeParse(run.config);
    if (!settings.success) throw new ValidationError("This run has no valid evaluation settings to resume from");
    await enqueueEvalFlow(run.id, settings.data.sampleCount, settings.data.shardSize);
    return;
  }
  // Payloads are ids only (catalog); a launch stores them in the row's config unless it has its own.
  const payload = JOB_CATALOG[name].payload.safeParse({ ...(run.config as object), runId: run.id });
  if (!payload.success) throw new ValidationError(`The run's settings do not say how to queue ${name} again`);
  await enqueue(name, payload.data as never);
}

/**
 * Moves the row from one of `from`; the attempt still open in its log (its worker was lost, or
 * BullMQ failed it while the database was away) gets the outcome: "interrupted" when the run goes
 * back to QUEUED, else "failed" with the error.
 */
async function setRow(
  runId: string,
  from: Run["status"][],
  data: Partial<Pick<Run, "status" | "message" | "error" | "finishedAt">>,
) {
  const res = await db().run.updateMany({ where: { id: runId, status: { in: from } }, data });
  if (!res.count) return false;
  if (data.status === "QUEUED") await closeAttempt(runId, "interrupted", { reason: data.message ?? undefined });
  else if (data.status === "FAILED") await closeAttempt(runId, "failed", { reason: data.error ?? undefined });
  await publishRunState(runId, STATUS_CHANGED);
  return true;
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
  /** Jobs moved off the gpu queue because nothing pulls it (`moveStrandedGpuJobs`). */
  movedToCpu: MovedJob[];
}

/** A job `moveStrandedGpuJobs` moved: its run, job, and the state it was in on the gpu queue. */
export interface MovedJob {
  runId: string;
  jobId: string;
  jobName: string;
  state: string;
}

/** Why a job left the gpu queue: in the run's message and the worker's log. */
export const NO_GPU_WORKER_REASON = "no live worker pulls the gpu queue (its GPU workers stopped or were lost)";
const LOST_GPU_WORKER = `its worker was lost; ${NO_GPU_WORKER_REASON}`;

/** False when a worker took the job meanwhile: BullMQ refuses to remove a job whose lock is held. */
async function removeUnlessTaken(job: Job): Promise<boolean> {
  try {
    await job.remove();
    return true;
  } catch {
    return false;
  }
}

/**
 * Jobs left on the gpu queue while no worker pulls it go back to their catalog queue (cpu), so no
 * run waits for a GPU that is gone: waiting, delayed and prioritized jobs, and active ones whose
 * lock has expired (their worker died; BullMQ's stalled check, which would hand them to another
 * worker, runs only inside workers of that queue). Nothing runs twice: a training job is removed
 * before it is added again (a worker that takes it meanwhile holds its lock, so the removal is
 * refused and the job stays); a shard is first added to its parent in the cpu queue, then
 * removed from the gpu queue, so the parent never sees all its children gone (if a GPU worker
 * took it in between, both copies run, and each sample is still stored once:
 * services/evals-store.ts). A training job taken from a dead worker closes that attempt in the
 * run's log; the reconciler writes the reason into the run's message.
 */
export async function moveStrandedGpuJobs(): Promise<MovedJob[]> {
  const { workers } = await liveWorkers();
  if (gpuQueuePulled(workers)) return [];
  const gpu = queue("gpu");
  const moved: MovedJob[] = [];
  for (const job of await gpu.getJobs(["wait", "prioritized", "delayed", "active"], 0, 999)) {
    if (!job?.id || !isJobName(job.name)) continue;
    const state = await job.getState();
    // An active job's lock (BullMQ's `<prefix>:<queue>:<id>:lock`) lives while its worker renews it.
    if (state === "active" ? (await redis().exists(`${gpu.toKey(job.id)}:lock`)) === 1 : !LIVE_JOB_STATES.has(state))
      continue;
    const def = JOB_CATALOG[job.name];
    const target = queue(def.queue);
    const runId = typeof job.data?.runId === "string" ? (job.data.runId as string) : job.id;
    // The attempts it has left, not a fresh count: moving is not a retry.
    const opts: JobsOptions = {
      ...JOB_RETENTION,
      jobId: job.id,
      attempts: Math.max(1, (job.opts.attempts ?? def.attempts) - job.attemptsMade),
    };
    if (job.parent) {
      if (!job.parent.id) continue;
      await target.add(job.name, job.data, {
        ...opts,
        parent: { id: job.parent.id, queue: job.parent.queueKey },
        ...(job.opts.failParentOnFailure || job.parent.fpof ? { failParentOnFailure: true } : {}),
      });
      if (!(await removeUnlessTaken(job))) continue;
    } else {
      const there = await target.getJob(job.id);
      const thereState = there ? await there.getState() : null;
      if (!(await removeUnlessTaken(job))) continue;
      // Taken from a dead worker: its attempt ended without writing its end. Said before the
      // job is queued again, so the next delivery finds it closed with this reason.
      if (state === "active") await closeAttempt(runId, "interrupted", { reason: LOST_GPU_WORKER });
      // A finished job of the same id there (an earlier delivery) would make the add a no-op.
      if (there && thereState !== null && !LIVE_JOB_STATES.has(thereState)) await there.remove();
      if (!thereState || !LIVE_JOB_STATES.has(thereState)) await target.add(job.name, job.data, opts);
    }
    moved.push({ runId, jobId: job.id, jobName: job.name, state });
  }
  return moved;
}

/**
 * Makes every unfinished run's row and queue agree. Rows younger than `graceMs` are left alone (a
 * launch writes its row before it enqueues). One process at a time (a lock in Redis).
 */
export async function reconcileRuns(opts: { graceMs?: number; projectId?: string } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { skipped: false, checked: 0, requeued: [], failed: [], movedToCpu: [] };
  const lockKey = `${serverEnv().REDIS_PREFIX}:reconcile-lock${opts.projectId ? `:${opts.projectId}` : ""}`;
  const token = `${process.pid}-${Date.now()}`;
  if ((await redis().set(lockKey, token, "PX", 60_000, "NX")) !== "OK") return { ...report, skipped: true };
  try {
    // First the queue: a job moved off the gpu queue is live again before its row is looked at.
    report.movedToCpu = await moveStrandedGpuJobs();
    for (const runId of new Set(report.movedToCpu.map((m) => m.runId))) {
      const res = await db().run.updateMany({
        where: { id: runId, status: { in: ["QUEUED", "RUNNING"] } },
        data: { message: `Moved to the cpu queue: ${NO_GPU_WORKER_REASON}` },
      });
      if (res.count) await publishRunState(runId, {});
    }
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
