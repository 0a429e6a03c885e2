// An evaluation run on the queue: a BullMQ flow whose children (`eval.shard`, one per slice of
// the run's samples) any number of workers pull, and whose parent (`eval.run`) BullMQ releases
// only once every child has completed. The flow is added atomically: either all of it is queued
// or none. Job ids derive from the run id, so adding the same flow twice is a no-op while its
// shards' queue is the same (a run queued again removes its old flow first: run-recovery.ts).
// The parent summarizes stored rows and stays on its catalog queue; the shards go where
// `routeJob` sends them (a nano checkpoint's shards to the gpu queue while a CUDA worker is live).
import { FlowProducer } from "bullmq";
import { JOB_CATALOG } from "../../jobs/catalog";
import { serverEnv } from "../env";
import { routeJob } from "../job-routing";
import { JOB_RETENTION } from "../queues";
import { redis } from "../redis";

const holder = globalThis as unknown as { __paravtEvalFlow?: FlowProducer };

function producer(): FlowProducer {
  holder.__paravtEvalFlow ??= new FlowProducer({ connection: redis(), prefix: serverEnv().REDIS_PREFIX });
  return holder.__paravtEvalFlow;
}

/** [from, to) slices of `count` samples, `size` per shard. */
export function shardRanges(count: number, size: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let from = 0; from < count; from += size) out.push({ from, to: Math.min(count, from + size) });
  return out;
}

export function shardJobId(runId: string, shard: number): string {
  return `${runId}-shard-${shard}`;
}

export async function enqueueEvalFlow(runId: string, sampleCount: number, shardSize: number): Promise<void> {
  const parent = JOB_CATALOG["eval.run"];
  const child = JOB_CATALOG["eval.shard"];
  const shardQueue = await routeJob("eval.shard", runId);
  await producer().add({
    name: "eval.run",
    queueName: parent.queue,
    data: parent.payload.parse({ runId }),
    opts: { jobId: runId, attempts: parent.attempts, ...JOB_RETENTION },
    children: shardRanges(sampleCount, shardSize).map(({ from, to }, shard) => ({
      name: "eval.shard",
      queueName: shardQueue,
      data: child.payload.parse({ runId, shard, from, to }),
      opts: {
        jobId: shardJobId(runId, shard),
        attempts: child.attempts,
        // A shard that fails for good (its retries used up) fails the run (its Run row is set
        // FAILED by the worker); the parent must then not wait forever for it.
        failParentOnFailure: true,
        ...JOB_RETENTION,
      },
    })),
  });
}

export async function closeEvalFlows(): Promise<void> {
  await holder.__paravtEvalFlow?.close();
  holder.__paravtEvalFlow = undefined;
}
