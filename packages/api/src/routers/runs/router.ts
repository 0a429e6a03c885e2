import {
  liveRunMessageSchema,
  metricSeriesInput,
  metricSeriesOutput,
  runListInput,
  runOutput,
  runRefInput,
} from "@paravt/shared";
import { assertCan, metrics, runEvents, runs } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const runsRouter = createTRPCRouter({
  list: projectProcedure
    .input(runListInput)
    .output(z.array(runOutput))
    .query(({ ctx, input }) => runs.listRuns(ctx.access, input)),
  byId: projectProcedure
    .input(runRefInput)
    .output(runOutput)
    .query(({ ctx, input }) => runs.getRun(ctx.access, input.runId)),
  /** Metric series of a run, downsampled (min/max preserving) to what a chart can show. */
  metrics: projectProcedure
    .input(metricSeriesInput)
    .output(metricSeriesOutput)
    .query(({ ctx, input }) => metrics.readSeries(ctx.access, input)),
  cancel: projectEditorProcedure
    .input(runRefInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.cancel");
      return runs.cancelRun(ctx.access, input.runId);
    }),
  /** Live status of every run of the project, delivered over Server-Sent Events. */
  events: projectProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const message of runEvents(ctx.access.projectId, signal)) {
      yield liveRunMessageSchema.parse(message);
    }
  }),
});
