import type { JobName, JobPayload } from "@paravt/shared";
import { runs } from "@paravt/shared/server";

/** What a handler may do besides its work: report progress (which also observes cancellation). */
export interface RunContext {
  runId: string;
  attempt: number;
  /** Records progress in [0, 1]; throws RunCancelledError when the run was cancelled. */
  progress(fraction: number, message?: string): Promise<void>;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: RunContext) => Promise<string | void>;

/** Thrown by a handler when retrying cannot help (bad input, missing file): fails at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** Thrown when the job's entity is gone: not an error, the job is simply skipped. */
export class SkipJobError extends Error {
  override name = "SkipJobError";
}

export function runContext(runId: string, attempt: number): RunContext {
  let last = 0;
  return {
    runId,
    attempt,
    async progress(fraction, message) {
      // Throttle DB writes for chatty handlers, but never drop the final 100 % or a message change.
      const now = Date.now();
      if (fraction < 1 && message === undefined && now - last < 250) return;
      last = now;
      await runs.reportRunProgress(runId, fraction, message);
    },
  };
}
