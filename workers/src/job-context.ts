import { isCudaContextLost } from "@paravt/kernels";
import type { JobName, JobPayload, RunChange } from "@paravt/shared";
import { runs } from "@paravt/shared/server";

/** What a handler may do besides its work: report progress (which also observes cancellation). */
export interface RunContext {
  runId: string;
  attempt: number;
  /**
   * Aborted when this worker lost the job's lock (Redis unreachable longer than the lock, or the
   * lock taken over): another worker may be running the same job, so a handler stops its work
   * (a training child is killed) instead of racing it.
   */
  signal: AbortSignal;
  /**
   * True while this delivery still owns the run: the row is RUNNING with the attempt count this
   * delivery set (the fencing token). A stale holder (its lock lost, the job taken over) gets
   * false and must not commit checkpoints or register models. Parts of a run (eval shards) have no
   * fence: their results are exactly once by key.
   */
  ownsRun(): Promise<boolean>;
  /**
   * Records progress in [0, 1]; throws RunCancelledError when the run was cancelled. `changed`:
   * what the step stored (metric points, episodes), so live pages fetch only that.
   */
  progress(fraction: number, message?: string, changed?: RunChange): Promise<void>;
  /** Tells live pages of stored data without a progress report (a trainer's validation). */
  announce(changed: RunChange): Promise<void>;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: RunContext) => Promise<string | void>;

/** Thrown by a handler when retrying cannot help (bad input, missing file): fails at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/**
 * This worker's own GPU can no longer run anything (its CUDA context is lost): the job fails as a
 * retryable error, so another delivery retries it, and the worker stops (main.ts) so that a
 * restart gets a fresh context.
 */
export class DeviceLostError extends Error {
  override name = "DeviceLostError";
}

/**
 * A failure that means this process lost its CUDA context, as a DeviceLostError; null otherwise.
 * Only work that ran on the core in this process counts (`inProcessCuda`): the same words from a
 * training child (its own process) or a remote server's GPU say nothing about this worker's.
 */
export function deviceLoss(message: string | null | undefined, inProcessCuda: boolean): DeviceLostError | null {
  return inProcessCuda && message && isCudaContextLost(message) ? new DeviceLostError(message) : null;
}

/** Thrown when the job's entity is gone: not an error, the job is simply skipped. */
export class SkipJobError extends Error {
  override name = "SkipJobError";
}

export function runContext(
  runId: string,
  attempt: number,
  opts: { signal?: AbortSignal; fence?: number } = {},
): RunContext {
  let last = 0;
  return {
    runId,
    attempt,
    signal: opts.signal ?? new AbortController().signal,
    async ownsRun() {
      if (opts.signal?.aborted) return false;
      if (opts.fence === undefined) return true;
      return runs.holdsRunFence(runId, opts.fence);
    },
    async progress(fraction, message, changed) {
      // Throttle DB writes for chatty handlers, but never drop the final 100 %, a message change
      // or stored data (a page would miss it).
      const now = Date.now();
      if (fraction < 1 && message === undefined && changed === undefined && now - last < 250) return;
      last = now;
      await runs.reportRunProgress(runId, fraction, message, changed);
    },
    async announce(changed) {
      await runs.announceRunChange(runId, changed);
    },
  };
}
