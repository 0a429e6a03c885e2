// The worker's announcement (issue 39 item 6): host, queues, the compute core's backend and
// device, and the jobs it is running, refreshed every WORKER_HEARTBEAT_MS in Redis
// (server/worker-registry.ts). A beat that cannot reach Redis is skipped: the entry expires and
// the worker reappears with the next beat that gets through.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { cpuIsa, type CudaDevice } from "@paravt/kernels";
import type { QueueName, WorkerInfo } from "@paravt/shared";
import { announceWorker, setWorkerIdentity, withdrawWorker } from "@paravt/shared/server";

/** The jobs this process runs now, kept by the job processor (start-workers.ts). */
export class ActiveJobs {
  private readonly jobs = new Map<string, WorkerInfo["active"][number]>();

  /** Returns the function that removes the entry when the delivery ends. */
  add(jobName: string, runId: string): () => void {
    const key = randomUUID();
    this.jobs.set(key, { jobName, runId, since: new Date().toISOString() });
    return () => void this.jobs.delete(key);
  }

  list(): WorkerInfo["active"] {
    return [...this.jobs.values()];
  }
}

export interface Heartbeat {
  readonly id: string;
  /** Announces now (as the timer does); resolves once written. */
  beat(): Promise<void>;
  /** Stops beating and removes the announcement. */
  stop(): Promise<void>;
}

export function startHeartbeat(opts: {
  queues: QueueName[];
  concurrency: number;
  backend: string;
  /** The GPU when the backend is cuda (selectDevice). */
  gpu?: CudaDevice | null;
  active: ActiveJobs;
  intervalMs: number;
  onError?: (err: Error) => void;
}): Heartbeat {
  const id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const startedAt = new Date().toISOString();
  const cpus = os.cpus();
  // The CPU core's device is the machine's processor, with the vectorised kernels it runs (cpuid
  // or PARAVT_CPU_ISA: "avx512", "avx2" or "portable"); the CUDA backend's is the GPU, with its
  // memory and compute capability. No parentheses: pages show it inside their own.
  const gpu = opts.gpu ?? null;
  const device = gpu
    ? `${gpu.name} · ${(gpu.totalBytes / 2 ** 30).toFixed(0)} GiB · sm ${gpu.computeCapability}`
    : `${cpus[0]?.model.trim() || os.arch()} · ${cpuIsa().split(" ")[0]} kernels`;
  // Each run attempt this process starts records the same backend and device (services/runs.ts).
  setWorkerIdentity({ backend: opts.backend, device });
  const info = (): WorkerInfo => ({
    id,
    host: os.hostname(),
    pid: process.pid,
    queues: opts.queues,
    concurrency: opts.concurrency,
    backend: opts.backend,
    device,
    memoryBytes: gpu ? gpu.totalBytes : os.totalmem(),
    cores: cpus.length,
    startedAt,
    seenAt: new Date().toISOString(),
    active: opts.active.list(),
  });
  const beat = () => announceWorker(info(), opts.intervalMs * 3);
  let stopped = false;
  const timer = setInterval(() => {
    if (!stopped) beat().catch((err: Error) => opts.onError?.(err));
  }, opts.intervalMs);
  timer.unref();
  beat().catch((err: Error) => opts.onError?.(err));
  return {
    id,
    beat,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await withdrawWorker(id).catch((err: Error) => opts.onError?.(err));
    },
  };
}
