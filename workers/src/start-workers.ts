import { createRedis, serverEnv } from "@paravt/shared/server";
import type { QueueName } from "@paravt/shared";
import { Worker } from "bullmq";
import { onJobFailedOutsideProcessor, processJob } from "./process-job";

export function log(msg: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ t: new Date().toISOString(), msg, ...extra }));
}

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
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
    worker.on("error", (err) => log("worker error", { queue: queueName, error: err.message }));
    return worker;
  });
  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
