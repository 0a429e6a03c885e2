// Worker process: pulls jobs of the configured queues and runs them through processJob.
// CPU-heavy work never runs on this event loop: video work happens in ffmpeg child processes
// or node-av's libuv pool threads, so BullMQ's lock renewal keeps ticking (DESIGN.md "BullMQ").
import { closeEventBus, closeQueues, db, redis } from "@paravt/shared/server";
import { workerEnv } from "./env";
import { log, startWorkers } from "./start-workers";

async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- worker-only settings are parsed here once
  const wenv = workerEnv(process.env);
  const running = startWorkers({
    queues: wenv.WORKER_QUEUES,
    concurrency: wenv.WORKER_CONCURRENCY,
    lockMs: wenv.WORKER_LOCK_MS,
    stalledCheckMs: wenv.WORKER_STALLED_CHECK_MS,
  });
  log("worker started", { queues: wenv.WORKER_QUEUES, concurrency: wenv.WORKER_CONCURRENCY });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("shutting down: finishing active jobs", { signal });
    await running.close();
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
