import { createRedis, serverEnv } from "@paravt/shared/server";
import type { QueueName } from "@paravt/shared";
import { Worker, type Job } from "bullmq";
import type { ActiveJobs } from "./heartbeat";
import { DeviceLostError } from "./job-context";
import { log } from "./log";
import { onJobFailedOutsideProcessor, processJob } from "./process-job";

export { log } from "./log";

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/**
 * Fencing (issue 37 item 4): each delivery keeps its own lease. Every quarter of the lock duration
 * it extends the job's lock with its own token (`job.extendLock`, which fails once the lock is
 * another delivery's); when that fails, or no extension succeeded for a whole lock duration (Redis
 * unreachable: the lock has expired and the job may be handed out again), the delivery is aborted
 * through the signal processJob passes to its handler, which kills a training child at once. Not
 * BullMQ's own renewal alone: it tracks locks by job id, so a stale delivery of a job that the same
 * worker has taken again untracks the new delivery when it ends, and the new lock would lapse.
 */
function leasedProcessor(lockMs: number, say: typeof log, active?: ActiveJobs) {
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<string> => {
    const runId = (job.data as { runId?: unknown } | undefined)?.runId;
    const done = active?.add(job.name, typeof runId === "string" ? runId : String(job.id));
    const lease = new AbortController();
    const lost = (why: string) => {
      if (lease.signal.aborted) return;
      say("job lock lost: stopping it", { job: job.name, id: job.id, why });
      lease.abort(why);
    };
    // BullMQ's own cancel (worker.cancelJob) stops the delivery too.
    signal?.addEventListener("abort", () => lease.abort(signal.reason), { once: true });
    let renewedAt = Date.now();
    let extending = false;
    const keeper = setInterval(
      () => {
        if (Date.now() - renewedAt > lockMs) return lost(`its lock was not renewed for ${lockMs / 1000} s`);
        if (!token || extending) return;
        extending = true;
        job
          .extendLock(token, lockMs)
          .then(
            (ok) => (ok ? (renewedAt = Date.now()) : lost("its lock is held by another delivery")),
            () => undefined, // Redis unreachable: the deadline above decides
          )
          .finally(() => (extending = false));
      },
      Math.max(250, Math.floor(lockMs / 4)),
    );
    try {
      return await processJob(job, token, lease.signal);
    } finally {
      clearInterval(keeper);
      done?.();
    }
  };
}

/** One BullMQ worker per queue, each with its own Redis connection (blocking commands). */
export function startWorkers(opts: {
  queues: QueueName[];
  concurrency: number;
  lockMs?: number;
  stalledCheckMs?: number;
  quiet?: boolean;
  /** Where the deliveries in progress are listed for the heartbeat (heartbeat.ts). */
  active?: ActiveJobs;
  /** A job failed because this process lost its CUDA context (job-context.ts DeviceLostError). */
  onDeviceLost?: (err: DeviceLostError) => void;
}): RunningWorkers {
  const env = serverEnv();
  const say = opts.quiet ? () => undefined : log;
  const workers = opts.queues.map((queueName) => {
    const worker = new Worker(queueName, leasedProcessor(opts.lockMs ?? 60_000, say, opts.active), {
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
      if (err instanceof DeviceLostError) opts.onDeviceLost?.(err);
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
    return worker;
  });
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
