import { z } from "zod";
import { optionStyleSchema } from "@paravt/shared";
import { datasets, db } from "@paravt/shared/server";
import { writeSuite } from "@paravt/suite";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";
import { importSuiteInto } from "../suite-import";

// What datasets.generateSuite stores on the Run row.
const runConfig = z.object({
  seed: z.number().int(),
  count: z.number().int().min(1),
  // optionStyle is absent on runs queued before it existed: the suite default (letter-first).
  config: z.object({
    minMinutes: z.number(),
    maxMinutes: z.number(),
    optionStyle: optionStyleSchema.optional(),
  }),
});

/** Renders a needle suite into DATA_DIR/suites/<dataset> (80 % of the progress), then imports it. */
export const handleSuiteGenerate: JobHandler<"suite.generate"> = async ({ runId, datasetId }, ctx) => {
  const dataset = await db().dataset.findUnique({ where: { id: datasetId } });
  if (!dataset) throw new SkipJobError(`dataset ${datasetId} no longer exists`);
  const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
  const parsed = runConfig.safeParse(run.config);
  if (!parsed.success) throw new PermanentJobError(`Invalid suite settings: ${z.prettifyError(parsed.error)}`);
  const { seed, count, config: settings } = parsed.data;
  // The API keeps its one style knob flat (datasets.generateSuite `optionStyle`); the suite takes it in its oracle style.
  const { optionStyle, ...config } = settings;
  const dir = datasets.suiteDir(datasetId);
  // Cancel (seen by a progress report) stops the encoder between and within videos.
  const abort = new AbortController();
  let stopReason: unknown = null;
  await ctx.progress(0.01, `Rendering ${count} video(s)`);
  try {
    await writeSuite({
      seed,
      count,
      out: dir,
      config: { ...config, ...(optionStyle === undefined ? {} : { oracleStyle: { optionStyle } }) },
      signal: abort.signal,
      onProgress: (p) =>
        void ctx.progress(0.8 * (p.done / p.total), `Rendered ${p.done}/${p.total} videos`).catch((err: unknown) => {
          stopReason ??= err;
          abort.abort();
        }),
    });
  } catch (err) {
    throw stopReason ?? err;
  }
  return importSuiteInto(datasetId, dir, "GENERATED", ctx, { from: 0.8, to: 1 });
};
