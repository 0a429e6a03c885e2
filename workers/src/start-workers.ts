import { createRedis, serverEnv } from "@paravt/shared/server";
import type { QueueName } from "@paravt/shared";
import { Worker } from "bullmq";
import { log } from "./log";
import { onJobFailedOutsideProcessor, processJob } from "./process-job";

export { log } from "./log";

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/**
 * Fencing (issue 37 item 4): a job whose lock this worker could not renew for a whole lock
 * duration may already run on another worker (Redis was unreachable, the lock expired, the stalled
 * check handed the job out again). Its processor is aborted (BullMQ's per-job AbortSignal), which
 * stops a training child at once instead of letting two trainers run; the row's fencing token
 * (runs.holdsRunFence) keeps a slow holder from committing anything meanwhile.
 */
function watchLocks(worker: Worker, lockMs: number, say: typeof log): void {
  const renewedAt = new Map<string, number>();
  const lost = (jobId: string, why: string) => {
    if (!renewedAt.delete(jobId)) return;
    // False when the job already left this worker (delayed for an outage, finished).
    if (worker.cancelJob(jobId, why)) say("job lock lost: stopping it", { job: jobId, why });
  };
  worker.on("active", (job) => job.id && renewedAt.set(job.id, Date.now()));
  worker.on("locksRenewed", ({ jobIds }) => {
    for (const id of jobIds) if (renewedAt.has(id)) renewedAt.set(id, Date.now());
  });
  worker.on("lockRenewalFailed", (jobIds) => {
    for (const id of jobIds) lost(id, "its lock is held by another worker");
  });
  const forget = (job: { id?: string | undefined } | undefined) => job?.id && renewedAt.delete(job.id);
  worker.on("completed", forget);
  worker.on("failed", forget);
  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const [id, at] of renewedAt)
        if (now - at > lockMs) lost(id, `its lock was not renewed for ${lockMs / 1000} s`);
    },
    Math.max(250, Math.floor(lockMs / 4)),
  );
  timer.unref();
  worker.on("closed", () => clearInterval(timer));
}

/** One BullMQ worker per queue, each with its own Redis connection (blocking commands). */
export function startWorkers(opts: {
  queues: QueueName[];
  concurrency: number;
  lockMs?: number;
  stalledCheckMs?: number;
  quiet?: boolean;
}): RunningWorkers {
  const env = serverEnv();
  const say = opts.quiet ? () => undefined : log;
  const workers = opts.queues.map((queueName) => {
    const worker = new Worker(queueName, processJob, {
      connection: createRedis(),
      prefix: env.REDIS_PREFIX,
      concurrency: opts.concurrency,
      lockDuration: opts.lockMs ?? 60_000,
      stalledInterval: opts.stalledCheckMs ?? 30_000,
      // One takeover after a crash is normal; a job that kills its worker repeatedly fails.
      maxStalledCount: 1,
    });
    worker.on("completed", (job, result) =>
      say("job completed", { queue: queueName, job: job.name, id: job.id, result }),
    );
    worker.on("failed", (job, err) => {
      say("job failed", { queue: queueName, job: job?.name, id: job?.id, error: err.message });
      if (err.message.includes("stalled more than allowable limit")) {
        void onJobFailedOutsideProcessor(job, err).catch((e: Error) =>
          log("could not record failure", { error: e.message }),
        );
      }
    });
    // Redis down makes BullMQ report every reconnect attempt: one line per message every 10 s.
    const lastLogged = new Map<string, number>();
    worker.on("error", (err) => {
      const now = Date.now();
      if (now - (lastLogged.get(err.message) ?? 0) < 10_000) return;
      lastLogged.set(err.message, now);
      log("worker error", { queue: queueName, error: err.message });
    });
    watchLocks(worker, opts.lockMs ?? 60_000, say);
    return worker;
  });
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
