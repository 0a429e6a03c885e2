import { DEVICE_CHOICES, MATMUL_PRECISIONS } from "@paravt/kernels";
import { QUEUES, type QueueName } from "@paravt/shared";
import { z } from "zod";

const workerEnvSchema = z.object({
  // Which queues this process pulls from. Unset: chosen by the core's backend (`workerQueues`).
  WORKER_QUEUES: z
    .string()
    .optional()
    .transform((s) =>
      s === undefined
        ? undefined
        : s
            .split(",")
            .map((q) => q.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.enum(QUEUES)).min(1, "WORKER_QUEUES must name at least one of cpu,gpu").optional()),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  // How long a job's lock lives without renewal. A killed worker's jobs are taken over by
  // another worker this long after the kill (plus one stalled-check interval).
  WORKER_LOCK_MS: z.coerce.number().int().min(1_000).default(60_000),
  WORKER_STALLED_CHECK_MS: z.coerce.number().int().min(500).default(30_000),
  // How often the reconciler (runRecovery.reconcileRuns) matches unfinished Run rows with their
  // queue jobs; it also runs once at start. 0 turns it off: only for test runs where many test
  // files share one database under different Redis prefixes (each would see the others' runs as
  // lost).
  WORKER_RECONCILE_MS: z.coerce.number().int().min(0).default(60_000),
  // Rows changed more recently than this are left alone (a launch writes its row, then enqueues).
  WORKER_RECONCILE_GRACE_MS: z.coerce.number().int().min(1_000).default(30_000),
  // How often the worker announces itself (server/worker-registry.ts); its entry expires after
  // three missed beats, so a killed worker leaves the Jobs page's list within 3x this.
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
  // The compute core's backend: auto (CUDA when built in, else CPU), cpu, or cuda (an error
  // without a CUDA backend). kernels/src/device.ts.
  PARAVT_DEVICE: z.enum(DEVICE_CHOICES).default("auto"),
  // The CUDA core's product precision, read by the backend itself (kernels/src/cuda/
  // matmul_precision.h); checked here so a typo stops the worker at start with this message.
  PARAVT_MATMUL_PRECISION: z.enum(MATMUL_PRECISIONS).default("fp32"),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export function workerEnv(source: Record<string, string | undefined>): WorkerEnv {
  const res = workerEnvSchema.safeParse(source);
  if (!res.success) throw new Error(`Invalid worker configuration: ${z.prettifyError(res.error)}`);
  return res.data;
}

/**
 * The queues a worker pulls (issue 39 item 6). Without WORKER_QUEUES, by the backend the core
 * resolved to: a CPU worker pulls `cpu` only (a gpu job it took would train on the CPU while a GPU
 * waits, and jobs go to gpu only while a CUDA worker is live: server/job-routing.ts); a CUDA
 * worker pulls `gpu,cpu`, so one GPU machine running `npm start` alone still runs every job
 * (probes, imports, remote-engine evaluations, and work queued on cpu before it came or after
 * it was lost). A machine that should only train sets WORKER_QUEUES=gpu
 * (docker/gpu-worker.Dockerfile does). An explicit WORKER_QUEUES always wins; a CPU backend told
 * to pull gpu gets a warning: it would run GPU-routed jobs on the CPU.
 */
export function workerQueues(
  explicit: QueueName[] | undefined,
  backend: string,
): { queues: QueueName[]; warning: string | null } {
  const queues: QueueName[] = explicit ?? (backend === "cuda" ? ["gpu", "cpu"] : ["cpu"]);
  const warning =
    backend !== "cuda" && queues.includes("gpu")
      ? `WORKER_QUEUES includes gpu, but this worker's core runs on the ${backend} backend: ` +
        "jobs sent to the gpu queue for a CUDA worker will run here on the CPU"
      : null;
  return { queues, warning };
}
