import { z } from "zod";
import { IMPORTABLE_BENCHMARKS } from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { importBenchmarkInto } from "../benchmark-import";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";
import { importSuiteInto } from "../suite-import";

/** A benchmark import's run config (services/datasets.ts importBenchmark); else a suite directory. */
const benchmarkConfig = z.object({
  kind: z.literal("benchmark"),
  benchmark: z.enum(IMPORTABLE_BENCHMARKS),
  dir: z.string().min(1),
  videoDir: z.string().min(1).optional(),
  split: z.string().min(1).optional(),
  subtitles: z.boolean().default(false),
});

/**
 * Imports a suite directory or a local benchmark copy on the server (checked against MEDIA_ROOTS
 * when it was requested, and again here).
 */
export const handleDatasetImport: JobHandler<"dataset.import"> = async ({ runId, datasetId }, ctx) => {
  const dataset = await db().dataset.findUnique({ where: { id: datasetId } });
  if (!dataset) throw new SkipJobError(`dataset ${datasetId} no longer exists`);
  const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
  if ((run.config as { kind?: unknown } | null)?.kind === "benchmark") {
    const bench = benchmarkConfig.safeParse(run.config);
    if (!bench.success) throw new PermanentJobError(`Invalid benchmark import settings: ${bench.error.message}`);
    await ctx.progress(0.02, `Reading ${bench.data.benchmark} from ${bench.data.dir}`);
    const { kind, benchmark, dir, videoDir, split, subtitles } = bench.data;
    return importBenchmarkInto(
      datasetId,
      { kind, benchmark, dir, subtitles, ...(videoDir ? { videoDir } : {}), ...(split ? { split } : {}) },
      ctx,
      { from: 0.05, to: 1 },
    );
  }
  const parsed = z.object({ dir: z.string().min(1) }).safeParse(run.config);
  if (!parsed.success) throw new PermanentJobError("The import run names no directory");
  await ctx.progress(0.02, `Reading ${parsed.data.dir}`);
  return importSuiteInto(datasetId, parsed.data.dir, "PATH", ctx, { from: 0.05, to: 1 });
};
