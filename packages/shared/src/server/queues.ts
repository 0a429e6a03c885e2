// Typed producers over the job catalog. A mutation writes its Run row first (status QUEUED) and
// then enqueues with the row id as BullMQ job id, so enqueueing twice is a no-op
// (DESIGN.md "Rules of the architecture"). Which queue a job goes to is `routeJob`'s decision
// (job-routing.ts): a job that may run on the GPU can be in either queue, so lookups ask both.
import { Queue, type Job, type JobsOptions } from "bullmq";
import { JOB_CATALOG, type JobName, type JobPayload, type QueueName } from "../jobs/catalog";
import { serverEnv } from "./env";
import { jobQueues, routeJob } from "./job-routing";
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

/** What every producer keeps of a job in Redis: the Run row keeps the history. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
  backoff: { type: "exponential" as const, delay: 2_000 },
} satisfies JobsOptions;

/** BullMQ states in which a job is still going to run (or running: a dead worker's lock expires). */
export const LIVE_JOB_STATES: ReadonlySet<string> = new Set([
  "active",
  "waiting",
  "delayed",
  "prioritized",
  "waiting-children",
]);

/**
 * A job of catalog name `name` (its kind decides the queues it can be in) by id, with its state:
 * a live one when one exists (a shard being moved between queues briefly exists in both), else
 * a finished one, else null.
 */
export async function findJob(name: JobName, jobId: string): Promise<{ job: Job; state: string } | null> {
  let finished: { job: Job; state: string } | null = null;
  for (const q of jobQueues(name)) {
    const job = await queue(q).getJob(jobId);
    if (!job) continue;
    const state = await job.getState();
    if (LIVE_JOB_STATES.has(state)) return { job, state };
    finished ??= { job, state };
  }
  return finished;
}

/** Queues a run's job where `routeJob` sends it; returns that queue (or the one already holding it). */
export async function enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<QueueName> {
  const def = JOB_CATALOG[name];
  const data = def.payload.parse(payload) as JobPayload<N>;
  const target = await routeJob(name, data.runId);
  // The same job id is a no-op within one queue; a routed job may already wait in the other one
  // (queued before a CUDA worker came or went), and must not be queued twice.
  for (const other of jobQueues(name)) {
    if (other === target) continue;
    const job = await queue(other).getJob(data.runId);
    if (job && LIVE_JOB_STATES.has(await job.getState())) return other;
  }
  await queue(target).add(name, data, { jobId: data.runId, attempts: def.attempts, ...JOB_RETENTION });
  return target;
}

/**
 * Removes a job that has not started yet; returns false if it is running or gone. A flow parent
 * still waiting for its children (an evaluation and its shards) loses the children no worker has
 * started; running ones are locked and left to notice the cancelled row themselves, after which
 * BullMQ releases the parent and the processor skips it.
 */
export async function removeQueuedJob(name: JobName, runId: string): Promise<boolean> {
  const found = await findJob(name, runId);
  if (!found) return false;
  if (found.state === "waiting-children") {
    await found.job.removeUnprocessedChildren();
    return false;
  }
  if (found.state === "waiting" || found.state === "delayed" || found.state === "prioritized") {
    await found.job.remove();
    return true;
  }
  return false;
}

export async function closeQueues(): Promise<void> {
  for (const q of holder.__paravtQueues?.values() ?? []) await q.close();
  holder.__paravtQueues?.clear();
}
