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
    // The CPU reference core; a CUDA build of the same ops will move this to the gpu queue.
    queue: "cpu",
    payload: runRef,
    timeoutMs: 24 * 3600_000,
    attempts: 3,
  },
  "video.generate": {
    title: "Generate demo video",
    queue: "cpu",
    payload: runRef.extend({ videoId: z.string().min(1) }),
    timeoutMs: 600_000,
    attempts: 2,
  },
} as const satisfies Record<
  string,
  {
    title: string;
    queue: QueueName;
    payload: z.ZodType;
    timeoutMs: number;
    attempts: number;
  }
>;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_CATALOG)[N]["payload"]>;
export const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOB_CATALOG, name);
}
