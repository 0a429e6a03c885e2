import {
  benchmarkInfoOutput,
  datasetOutput,
  datasetRefInput,
  generateSuiteInput,
  importBenchmarkInput,
  importSuiteInput,
  sampleListInput,
  samplePageOutput,
} from "@paravt/shared";
import { assertCan, datasets } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure, protectedProcedure } from "../../trpc";

const launched = z.object({ dataset: datasetOutput, runId: z.string() });

export const datasetsRouter = createTRPCRouter({
  list: projectProcedure.output(z.array(datasetOutput)).query(({ ctx }) => datasets.listDatasets(ctx.access)),
  byId: projectProcedure
    .input(datasetRefInput)
    .output(datasetOutput)
    .query(({ ctx, input }) => datasets.getDataset(ctx.access, input.datasetId)),
  samples: projectProcedure
    .input(sampleListInput)
    .output(samplePageOutput)
    .query(({ ctx, input }) => datasets.listSamples(ctx.access, input)),
  /** Renders a needle suite on a worker and imports it (videos probed, samples created). */
  generateSuite: projectEditorProcedure
    .input(generateSuiteInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.generateSuite(ctx.access, input);
    }),
  /** Imports a suite directory already on the server (inside MEDIA_ROOTS). */
  importSuite: projectEditorProcedure
    .input(importSuiteInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.importSuite(ctx.access, input);
    }),
  /** The benchmarks a local copy can be imported from (registry of @paravt/benchmarks), for the form. */
  benchmarks: protectedProcedure.output(z.array(benchmarkInfoOutput)).query(() => datasets.listBenchmarks()),
  /** Imports a local benchmark copy (inside MEDIA_ROOTS) as a new dataset; the report lands in `source`. */
  importBenchmark: projectEditorProcedure
    .input(importBenchmarkInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.importBenchmark(ctx.access, input);
    }),
  /** Imports a benchmark dataset again with its stored options (updates samples, duplicates nothing). */
  reimportBenchmark: projectEditorProcedure
    .input(datasetRefInput)
    .output(z.object({ runId: z.string() }))
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.reimportBenchmark(ctx.access, input.datasetId);
    }),
});
