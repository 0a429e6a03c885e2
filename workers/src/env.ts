import { DEVICE_CHOICES } from "@paravt/kernels";
import { QUEUES, type QueueName } from "@paravt/shared";
import { z } from "zod";

const workerEnvSchema = z.object({
  // Which queues this process pulls from; a GPU machine runs `WORKER_QUEUES=gpu`.
  WORKER_QUEUES: z
    .string()
    .default(QUEUES.join(","))
    .transform((s) =>
      s
        .split(",")
        .map((q) => q.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(QUEUES)).min(1, "WORKER_QUEUES must name at least one of cpu,gpu")),
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
});

export type WorkerEnv = z.infer<typeof workerEnvSchema> & { WORKER_QUEUES: QueueName[] };

export function workerEnv(source: Record<string, string | undefined>): WorkerEnv {
  const res = workerEnvSchema.safeParse(source);
  if (!res.success) throw new Error(`Invalid worker configuration: ${z.prettifyError(res.error)}`);
  return res.data;
}
