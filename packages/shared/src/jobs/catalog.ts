// The job catalog: every job the queue can run, with its payload schema, queue and policies.
// Producers are typed from it (server/queues.ts) and the worker's handler map `satisfies` it, so
// a job without a handler is a type error. Payloads carry ids only: the Run row is the truth
// (DESIGN.md "Rules of the architecture"); fields are only ever added as optional.
// Client-safe (zod only) so the UI can list job names and validate launch forms.
import { z } from "zod";

export const QUEUES = ["cpu", "gpu"] as const;
export type QueueName = (typeof QUEUES)[number];

const runRef = z.object({ runId: z.string().min(1) });

export const JOB_CATALOG = {
  "video.probe": {
    title: "Probe video",
    queue: "cpu",
    payload: runRef.extend({ videoId: z.string().min(1) }),
    // ffprobe of a local file; generous for slow network mounts.
    timeoutMs: 120_000,
    attempts: 3,
  },
  "video.assets": {
    title: "Video thumbnails and filmstrip",
    queue: "cpu",
    payload: runRef.extend({ videoId: z.string().min(1) }),
    timeoutMs: 900_000,
    attempts: 3,
  },
  "suite.generate": {
    title: "Generate needle suite",
    queue: "cpu",
    // Seed, count and generator config live on the Run row (config); the dataset row is the target.
    payload: runRef.extend({ datasetId: z.string().min(1) }),
    timeoutMs: 3 * 3600_000,
    attempts: 2,
  },
  "dataset.import": {
    title: "Import dataset",
    queue: "cpu",
    payload: runRef.extend({ datasetId: z.string().min(1) }),
    timeoutMs: 3600_000,
    attempts: 2,
  },
  "train.sft": {
    title: "Cold-start SFT of ParaVT-nano",
    // Trains on the compute core: on the gpu queue while a live CUDA worker pulls it, else here.
    queue: "cpu",
    gpu: "always",
    payload: runRef,
    timeoutMs: 24 * 3600_000,
    attempts: 3,
  },
  "train.rl": {
    title: "PARA-GRPO / GRPO training of ParaVT-nano",
    // Same compute core and routing as train.sft; the heavy part runs in a child process (rl-child.ts).
    queue: "cpu",
    gpu: "always",
    payload: runRef,
    timeoutMs: 72 * 3600_000,
    attempts: 3,
  },
  "video.generate": {
    title: "Generate demo video",
    queue: "cpu",
    payload: runRef.extend({ videoId: z.string().min(1) }),
    timeoutMs: 600_000,
    attempts: 2,
  },
  // An evaluation is a BullMQ flow (services/evals-queue.ts): one `eval.shard` child per slice of
  // the run's samples, pulled by any number of workers, and this parent, which runs once every
  // shard has completed: it checks that every sample is stored and writes the SPEC §5 summary.
  "eval.run": {
    title: "Evaluation",
    queue: "cpu",
    payload: runRef,
    timeoutMs: 600_000,
    attempts: 3,
  },
  "eval.shard": {
    title: "Evaluation shard",
    // Engines are an OpenAI-compatible server (remote: the worker only waits, so always the cpu
    // queue) or a nano checkpoint (routed to the gpu queue while a live CUDA worker pulls it).
    queue: "cpu",
    gpu: "nano",
    // The run's samples at ordinals [from, to) (eval_run_samples). A retried or taken-over shard
    // skips the samples already stored (unique run+sample+rollout), so nothing is evaluated or
    // counted twice.
    payload: runRef.extend({
      shard: z.number().int().min(0),
      from: z.number().int().min(0),
      to: z.number().int().min(0),
    }),
    timeoutMs: 12 * 3600_000,
    attempts: 3,
    // A part of its parent's Run: it moves the run to RUNNING but never finishes it, and its
    // retries do not send the run back to QUEUED (workers/src/process-job.ts).
    partOf: "eval.run",
  },
  // A reference evaluator output (SPEC §6) of more rows than one batch (services/evals-import.ts):
  // the request matched them and wrote the episodes to DATA_DIR; this stores them in batches of
  // 1000, one INSERT each, with `n/total rows` progress. A retry skips the rows already stored.
  "eval.import": {
    title: "Import reference output",
    queue: "cpu",
    payload: runRef,
    timeoutMs: 3600_000,
    attempts: 3,
  },
} as const satisfies Record<
  string,
  {
    title: string;
    /** Where the job goes, and where a job that may use the GPU goes while no CUDA worker is live. */
    queue: QueueName;
    /**
     * Runs nano on the compute core, so a CUDA worker runs it faster: the router
     * (server/job-routing.ts) sends it to the gpu queue while a live worker announces the cuda
     * backend and pulls gpu. "nano": only when the run's model is a nano checkpoint.
     */
    gpu?: "always" | "nano";
    payload: z.ZodType;
    timeoutMs: number;
    attempts: number;
    partOf?: string;
  }
>;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_CATALOG)[N]["payload"]>;
export const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];

/**
 * Jobs whose work survives a restart and can be resumed (services/run-recovery.ts): a retry of an
 * evaluation skips stored samples, a training run continues from its last committed checkpoint,
 * a reference import stores only the rows it has not stored yet, a dataset import rewrites no
 * sample it already stored.
 */
export const RESUMABLE_JOBS: readonly JobName[] = [
  "eval.run",
  "train.sft",
  "train.rl",
  "eval.import",
  "dataset.import",
];

export function isResumableJob(jobName: string): boolean {
  return (RESUMABLE_JOBS as readonly string[]).includes(jobName);
}

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_CATALOG, name);
}
