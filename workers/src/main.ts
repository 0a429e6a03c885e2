// Worker process: pulls jobs of the configured queues and runs them through processJob.
// CPU-heavy work never runs on this event loop: video work happens in ffmpeg child processes
// or node-av's libuv pool threads, so BullMQ's lock renewal keeps ticking (DESIGN.md "BullMQ").
import { closeEventBus, closeQueues, createRedis, db, redis, serverEnv } from "@paravt/shared/server";
import { Worker } from "bullmq";
import { workerEnv } from "./env";
import { onJobFailedOutsideProcessor, processJob } from "./process-job";

function log(msg: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ t: new Date().toISOString(), msg, ...extra }));
}

async function main(): Promise<void> {
  const env = serverEnv();
  // eslint-disable-next-line no-restricted-properties -- worker-only settings are parsed here once
  const wenv = workerEnv(process.env);
  const workers = wenv.WORKER_QUEUES.map((queueName) => {
    const worker = new Worker(queueName, processJob, {
      connection: createRedis(),
      prefix: env.REDIS_PREFIX,
      concurrency: wenv.WORKER_CONCURRENCY,
      lockDuration: 60_000,
    });
    worker.on("completed", (job, result) => log("job completed", { queue: queueName, job: job.name, id: job.id, result }));
    worker.on("failed", (job, err) => {
      log("job failed", { queue: queueName, job: job?.name, id: job?.id, error: err.message });
      if (err.message.includes("stalled more than allowable limit")) {
        void onJobFailedOutsideProcessor(job, err).catch((e: Error) => log("could not record failure", { error: e.message }));
      }
    });
    worker.on("error", (err) => log("worker error", { queue: queueName, error: err.message }));
    return worker;
  });
  log("worker started", { queues: wenv.WORKER_QUEUES, concurrency: wenv.WORKER_CONCURRENCY });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("shutting down: finishing active jobs", { signal });
    // close() waits for active jobs to finish; new jobs are no longer taken.
    await Promise.all(workers.map((w) => w.close()));
    await closeQueues();
    await closeEventBus();
    await redis().quit();
    await db().$disconnect();
    log("worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
