import { db, evals } from "@paravt/shared/server";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? "–" : `${(v * 100).toFixed(1)}%`;
}

/**
 * The parent of an evaluation flow: BullMQ releases it once every shard has completed. It checks
 * that every sample of the run has its row (exactly once: the unique key guarantees "at most",
 * this count guarantees "at least"), then writes the SPEC §5 summary computed from those rows.
 */
export const handleEvalRun: JobHandler<"eval.run"> = async ({ runId }) => {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run) throw new SkipJobError(`run ${runId} no longer exists`);
  const settings = evals.evalSettings(run);
  if (!settings) throw new PermanentJobError("This run has no valid evaluation settings");
  // Samples deleted since the launch (with their dataset rows) have nothing to store.
  const total = await evals.countExistingRunSamples(runId);
  const stored = await evals.countStored(runId);
  if (stored < total) {
    // Every shard completed yet rows are missing: a retry re-checks after in-flight writes land.
    throw new Error(`${total - stored} of ${total} samples have no stored result`);
  }
  const summary = await evals.computeRunSummary(runId, total);
  await evals.storeSummary(runId, summary);
  const parts = [`${summary.stored} samples`];
  if (summary.mcq) parts.push(`accuracy ${pct(summary.mcq.accuracy)}`);
  if (summary.grounding) parts.push(`mIoU ${pct(summary.grounding.mIoU)}`);
  if (summary.openEnded) parts.push(`score ${pct(summary.openEnded.meanScore)}`);
  parts.push(`${summary.errors} errors`);
  return parts.join(" · ");
};
