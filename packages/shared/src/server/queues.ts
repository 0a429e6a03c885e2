// Typed producers over the job catalog. A mutation writes its Run row first (status QUEUED) and
// then enqueues with the row id as BullMQ job id, so enqueueing twice is a no-op
// (DESIGN.md "Rules of the architecture").
import { Queue } from "bullmq";
import { JOB_CATALOG, type JobName, type JobPayload, type QueueName } from "../jobs/catalog";
import { serverEnv } from "./env";
import { redis } from "./redis";

const holder = globalThis as unknown as { __paravtQueues?: Map<QueueName, Queue> };

export function queue(name: QueueName): Queue {
  holder.__paravtQueues ??= new Map();
  let q = holder.__paravtQueues.get(name);
  if (!q) {
    q = new Queue(name, { connection: redis(), prefix: serverEnv().REDIS_PREFIX });
    holder.__paravtQueues.set(name, q);
  }
  return q;
}

export async function enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void> {
  const def = JOB_CATALOG[name];
  const data = def.payload.parse(payload) as JobPayload<N>;
  await queue(def.queue).add(name, data, {
    jobId: data.runId,
    attempts: def.attempts,
    backoff: { type: "exponential", delay: 2_000 },
    // The Run row keeps the history; Redis keeps only what BullMQ needs to deduplicate.
    removeOnComplete: { age: 24 * 3600, count: 1_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  });
}

/**
 * Removes a job that has not started yet; returns false if it is running or gone. A flow parent
 * still waiting for its children (an evaluation and its shards) loses the children no worker has
 * started; running ones are locked and left to notice the cancelled row themselves, after which
 * BullMQ releases the parent and the processor skips it.
 */
export async function removeQueuedJob(name: JobName, runId: string): Promise<boolean> {
  const job = await queue(JOB_CATALOG[name].queue).getJob(runId);
  if (!job) return false;
  const state = await job.getState();
  if (state === "waiting-children") {
    await job.removeUnprocessedChildren();
    return false;
  }
  if (state === "waiting" || state === "delayed" || state === "prioritized") {
    await job.remove();
    return true;
  }
  return false;
}

export async function closeQueues(): Promise<void> {
  for (const q of holder.__paravtQueues?.values() ?? []) await q.close();
  holder.__paravtQueues?.clear();
}
