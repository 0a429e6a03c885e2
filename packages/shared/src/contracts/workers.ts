// Live worker processes (issue 39 item 6): each worker announces itself in Redis every few
// seconds (workers/src/heartbeat.ts, server/worker-registry.ts); the Jobs page lists the ones
// whose announcement has not expired. One schema for what a worker writes and what pages read.
import { z } from "zod";
import { QUEUES } from "../jobs/catalog";

/** A job a worker is running right now (one BullMQ delivery). */
export const workerActiveJob = z.object({
  jobName: z.string().min(1).max(100),
  runId: z.string().min(1).max(200),
  since: z.iso.datetime(),
});

/** What a worker announces about itself. */
export const workerInfo = z.object({
  id: z.string().min(1).max(200),
  host: z.string().min(1).max(255),
  pid: z.number().int().nonnegative(),
  queues: z.array(z.enum(QUEUES)).min(1),
  concurrency: z.number().int().min(1),
  /** The compute core's backend that runs nano's training and evaluation ("cpu" or "cuda"). */
  backend: z.string().min(1).max(40),
  /** The device behind it: the CPU model, or the GPU's name. */
  device: z.string().max(255),
  /** Memory of that device in bytes (the machine's RAM for the CPU backend). */
  memoryBytes: z.number().nonnegative(),
  cores: z.number().int().nonnegative(),
  startedAt: z.iso.datetime(),
  seenAt: z.iso.datetime(),
  active: z.array(workerActiveJob),
});
export type WorkerInfo = z.infer<typeof workerInfo>;

export const liveWorkersInput = z.object({ projectId: z.string().min(1) });

/**
 * The live workers as a project sees them: jobs of other projects are counted, not named.
 * `unreadable` counts announcements this version cannot read (a worker of another version).
 */
export const liveWorkersOutput = z.object({
  workers: z.array(workerInfo.extend({ otherJobs: z.number().int().nonnegative() })),
  unreadable: z.number().int().nonnegative(),
});
export type LiveWorkersOutput = z.infer<typeof liveWorkersOutput>;
