import { NotFoundError, ValidationError } from "@paravt/shared";
import { evals, runs } from "@paravt/shared/server";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

/**
 * A reference output too large for one request (services/evals-import.ts): stores its matched rows
 * from DATA_DIR in bounded batches with `n/total rows` progress (services/evals-import-rows.ts).
 * A retry or a resume skips the rows already stored; a cancel stops it between batches.
 */
export const handleEvalImport: JobHandler<"eval.import"> = async ({ runId }, ctx) => {
  try {
    return await evals.storeImportRows(runId, {
      // Every batch's progress is written (a batch is not chatty), with the episodes it stored.
      progress: (fraction, message, changed) => runs.reportRunProgress(runId, fraction, message, changed),
      signal: ctx.signal,
    });
  } catch (err) {
    if (err instanceof NotFoundError) throw new SkipJobError(`run ${runId} no longer exists`);
    // Its rows file is gone or damaged, a sample it names was deleted: no retry can help.
    if (err instanceof ValidationError) throw new PermanentJobError(err.message);
    throw err;
  }
};
