import {
  benchmarkInfoOutput,
  datasetOutput,
  datasetRefInput,
  datasetSampleGridInput,
  datasetSampleGridOutput,
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
  list: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/datasets",
        tags: ["datasets"],
        summary: "Datasets of the project",
        protect: true,
      },
    })
    .output(z.array(datasetOutput))
    .query(({ ctx }) => datasets.listDatasets(ctx.access)),
  byId: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/datasets/{datasetId}",
        tags: ["datasets"],
        summary: "One dataset (source, import report, counts by question type)",
        protect: true,
      },
    })
    .input(datasetRefInput)
    .output(datasetOutput)
    .query(({ ctx, input }) => datasets.getDataset(ctx.access, input.datasetId)),
  samples: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/datasets/{datasetId}/samples",
        tags: ["datasets"],
        summary: "Samples of a dataset, one cursor page at a time",
        protect: true,
      },
    })
    .input(sampleListInput)
    .output(samplePageOutput)
    .query(({ ctx, input }) => datasets.listSamples(ctx.access, input)),
  /** The sample grid of a dataset: one page of cards (question type, per-K visibility, the video's duration). */
  sampleGrid: projectProcedure
    .meta({ scope: "READ" })
    .input(datasetSampleGridInput)
    .output(datasetSampleGridOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...rest } = input;
      return datasets.listSampleCards(ctx.access, rest);
    }),
  /** Renders a needle suite on a worker and imports it (videos probed, samples created). */
  generateSuite: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/datasets/generate-suite",
        tags: ["datasets"],
        summary: "Render a needle suite on a worker and import it",
        protect: true,
      },
    })
    .input(generateSuiteInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.generateSuite(ctx.access, input);
    }),
  /** Imports a suite directory already on the server (inside MEDIA_ROOTS). */
  importSuite: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/datasets/import-suite",
        tags: ["datasets"],
        summary: "Import a suite directory on the server (inside MEDIA_ROOTS)",
        protect: true,
      },
    })
    .input(importSuiteInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.importSuite(ctx.access, input);
    }),
  /** The benchmarks a local copy can be imported from (registry of @paravt/benchmarks), for the form. */
  benchmarks: protectedProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/benchmarks",
        tags: ["datasets"],
        summary: "Benchmarks a local copy can be imported from, with their expected files",
        protect: true,
      },
    })
    .output(z.array(benchmarkInfoOutput))
    .query(() => datasets.listBenchmarks()),
  /** Imports a local benchmark copy (inside MEDIA_ROOTS) as a new dataset; the report lands in `source`. */
  importBenchmark: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/datasets/import-benchmark",
        tags: ["datasets"],
        summary: "Import a local benchmark copy (inside MEDIA_ROOTS) as a dataset",
        protect: true,
      },
    })
    .input(importBenchmarkInput)
    .output(launched)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.importBenchmark(ctx.access, input);
    }),
  /** Imports a benchmark dataset again with its stored options (updates samples, duplicates nothing). */
  reimportBenchmark: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/datasets/{datasetId}/reimport",
        tags: ["datasets"],
        summary: "Import a benchmark dataset again with its stored options",
        protect: true,
      },
    })
    .input(datasetRefInput)
    .output(z.object({ runId: z.string() }))
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return datasets.reimportBenchmark(ctx.access, input.datasetId);
    }),
});
