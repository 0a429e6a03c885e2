import { QUEUES, type QueueName } from "@paravt/shared";
import { z } from "zod";

const workerEnvSchema = z.object({
  // Which queues this process pulls from; a GPU machine runs `WORKER_QUEUES=gpu`.
  WORKER_QUEUES: z
    .string()
    .default(QUEUES.join(","))
    .transform((s) => s.split(",").map((q) => q.trim()).filter(Boolean))
    .pipe(z.array(z.enum(QUEUES)).min(1, "WORKER_QUEUES must name at least one of cpu,gpu")),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
});

export type WorkerEnv = { WORKER_QUEUES: QueueName[]; WORKER_CONCURRENCY: number };

export function workerEnv(source: Record<string, string | undefined>): WorkerEnv {
  const res = workerEnvSchema.safeParse(source);
  if (!res.success) throw new Error(`Invalid worker configuration: ${z.prettifyError(res.error)}`);
  return res.data;
}
