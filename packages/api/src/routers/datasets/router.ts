import {
  datasetOutput,
  datasetRefInput,
  generateSuiteInput,
  importSuiteInput,
  sampleListInput,
  samplePageOutput,
} from "@paravt/shared";
import { assertCan, datasets } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

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
});
