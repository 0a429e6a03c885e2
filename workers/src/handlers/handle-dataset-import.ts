import { z } from "zod";
import { db } from "@paravt/shared/server";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";
import { importSuiteInto } from "../suite-import";

/** Imports a suite directory on the server (checked against MEDIA_ROOTS when it was requested). */
export const handleDatasetImport: JobHandler<"dataset.import"> = async ({ runId, datasetId }, ctx) => {
  const dataset = await db().dataset.findUnique({ where: { id: datasetId } });
  if (!dataset) throw new SkipJobError(`dataset ${datasetId} no longer exists`);
  const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
  const parsed = z.object({ dir: z.string().min(1) }).safeParse(run.config);
  if (!parsed.success) throw new PermanentJobError("The import run names no directory");
  await ctx.progress(0.02, `Reading ${parsed.data.dir}`);
  return importSuiteInto(datasetId, parsed.data.dir, "PATH", ctx, { from: 0.05, to: 1 });
};
