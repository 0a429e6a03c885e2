// Which queue a job goes to (issue 39 item 6). A job the catalog marks `gpu` runs nano on the
// compute core; it goes to the gpu queue while a live worker announces the cuda backend and pulls
// gpu (worker-registry.ts), else to its catalog queue (cpu). Every producer asks `routeJob`: a
// launch (queues.ts `enqueue`), an evaluation's flow (services/evals-queue.ts), and the retries,
// resumes and reconciler passes that queue a run again (services/run-recovery.ts), so the
// decision has one definition. BullMQ's own retries stay in the queue the job is in; a job left
// on the gpu queue after its GPU workers vanished is moved back by the reconciler
// (run-recovery.ts `moveStrandedGpuJobs`).
import type { WorkerInfo } from "../contracts/workers";
import { JOB_CATALOG, type JobName, type QueueName } from "../jobs/catalog";
import { db } from "./db";
import { liveWorkers } from "./worker-registry";

/** A live worker that runs the compute core on CUDA and pulls the gpu queue. */
export function isCudaWorker(w: Pick<WorkerInfo, "backend" | "queues">): boolean {
  return w.backend === "cuda" && w.queues.includes("gpu");
}

/**
 * Whether anything pulls the gpu queue at all (any backend: a CPU worker told to pull gpu runs
 * its jobs too, with a warning at its start). While nothing does, gpu jobs would wait forever.
 */
export function gpuQueuePulled(workers: readonly Pick<WorkerInfo, "queues">[]): boolean {
  return workers.some((w) => w.queues.includes("gpu"));
}

/** The queues a job of this name can be in: the gpu queue first for a job that may be routed there. */
export function jobQueues(name: JobName): QueueName[] {
  const def: { queue: QueueName; gpu?: string } = JOB_CATALOG[name];
  return def.gpu && def.queue !== "gpu" ? ["gpu", def.queue] : [def.queue];
}

/**
 * The queue a job of run `runId` goes to now. A job the catalog does not mark `gpu`: its catalog
 * queue, without a look-up. `gpu: "nano"` (an evaluation shard) only when the run's model is a
 * nano checkpoint: a remote OpenAI-compatible engine only waits on HTTP, a CPU worker does that
 * as well. Then the gpu queue while a live CUDA worker pulls it (one SCAN of the workers' keys).
 */
export async function routeJob(name: JobName, runId: string): Promise<QueueName> {
  const def = JOB_CATALOG[name];
  if (!("gpu" in def)) return def.queue;
  if (def.gpu === "nano") {
    const run = await db().run.findUnique({ where: { id: runId }, select: { model: { select: { kind: true } } } });
    if (run?.model?.kind !== "NANO_CHECKPOINT") return def.queue;
  }
  const { workers } = await liveWorkers();
  return workers.some(isCudaWorker) ? "gpu" : def.queue;
}
