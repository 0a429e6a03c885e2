// Worker process: pulls jobs of the configured queues and runs them through processJob.
// CPU-heavy work never runs on this event loop: video work happens in ffmpeg child processes
// or node-av's libuv pool threads, so BullMQ's lock renewal keeps ticking (DESIGN.md "BullMQ").
import { selectDevice } from "@paravt/kernels";
import { closeEventBus, closeQueues, db, isDatabaseOutage, redis, runRecovery } from "@paravt/shared/server";
import { workerEnv, workerQueues } from "./env";
import { ActiveJobs, startHeartbeat } from "./heartbeat";
import { briefError } from "./log";
import { log, startWorkers } from "./start-workers";

/** EX_TEMPFAIL (sysexits.h): the worker stopped because its GPU needs a fresh process. */
const EXIT_DEVICE_LOST = 75;

async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- worker-only settings are parsed here once
  const wenv = workerEnv(process.env);
  // PARAVT_DEVICE=cuda where CUDA cannot run (no library, driver or device) stops here, before
  // taking any job. The training children get the resolved backend (training-child.ts).
  const device = selectDevice(wenv.PARAVT_DEVICE);
  if (device.note) log(device.note);
  const { queues, warning } = workerQueues(wenv.WORKER_QUEUES, device.backend);
  if (warning) log(`warning: ${warning}`);
  const active = new ActiveJobs();
  const running = startWorkers({
    queues,
    concurrency: wenv.WORKER_CONCURRENCY,
    lockMs: wenv.WORKER_LOCK_MS,
    stalledCheckMs: wenv.WORKER_STALLED_CHECK_MS,
    active,
    // Every later CUDA call of this process fails the same way: stop taking jobs and exit with
    // EX_TEMPFAIL, so the supervisor (compose's restart policy, systemd) starts a fresh process.
    onDeviceLost: (err) => {
      log("the GPU's CUDA context is lost: this worker stops so that a restart gets a fresh one", {
        error: briefError(err),
      });
      void shutdown("CUDA context lost", EXIT_DEVICE_LOST);
    },
  });
  let heartbeatFailedAt = 0;
  const heartbeat = startHeartbeat({
    queues,
    concurrency: wenv.WORKER_CONCURRENCY,
    backend: device.backend,
    gpu: device.device,
    active,
    intervalMs: wenv.WORKER_HEARTBEAT_MS,
    onError: (err) => {
      // Redis down: one line a minute, not one per beat.
      if (Date.now() - heartbeatFailedAt < 60_000) return;
      heartbeatFailedAt = Date.now();
      log("heartbeat not written", { error: briefError(err) });
    },
  });
  log("worker started", {
    id: heartbeat.id,
    queues,
    concurrency: wenv.WORKER_CONCURRENCY,
    backend: device.backend,
  });

  // Rows and queue agree again after an outage: lost jobs queued again, failures BullMQ decided
  // while Postgres was down written (issue 37 item 3). Once now, then periodically.
  let reconciling = false; // a pass waiting on an unreachable Redis must not pile up others
  const reconcile = async () => {
    if (reconciling) return;
    reconciling = true;
    try {
      const r = await runRecovery.reconcileRuns({ graceMs: wenv.WORKER_RECONCILE_GRACE_MS });
      for (const m of r.movedToCpu) {
        log("job moved from the gpu queue to cpu", { ...m, reason: runRecovery.NO_GPU_WORKER_REASON });
      }
      if (r.requeued.length || r.failed.length) log("reconciled runs", { requeued: r.requeued, failed: r.failed });
    } catch (err) {
      const e = err as Error;
      log(isDatabaseOutage(e) ? "reconciler: database unreachable, will retry" : "reconciler failed", {
        error: briefError(e),
      });
    } finally {
      reconciling = false;
    }
  };
  let reconciler: NodeJS.Timeout | undefined;
  if (wenv.WORKER_RECONCILE_MS > 0) {
    void reconcile();
    reconciler = setInterval(() => void reconcile(), wenv.WORKER_RECONCILE_MS);
  }

  let stopping = false;
  async function shutdown(signal: string, exitCode = 0): Promise<void> {
    if (stopping) return;
    stopping = true;
    log("shutting down: finishing active jobs", { signal });
    clearInterval(reconciler);
    await running.close();
    await heartbeat.stop();
    await closeQueues();
    await closeEventBus();
    await redis().quit();
    await db().$disconnect();
    log("worker stopped");
    process.exit(exitCode);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
