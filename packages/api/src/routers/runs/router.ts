import {
  configDiffInput,
  configDiffOutput,
  episodeStepInput,
  episodeStepOutput,
  liveRunMessageSchema,
  liveWorkersInput,
  liveWorkersOutput,
  metricExportInput,
  metricExportOutput,
  metricNamesOutput,
  metricQueryInput,
  metricQueryOutput,
  metricSinceInput,
  runConfigOutput,
  runListInput,
  runOutput,
  runRefInput,
  stepGroupInput,
  stepGroupOutput,
  stepRolloutsInput,
  stepRolloutsOutput,
  tokenCapOutput,
  syncFirst,
} from "@paravt/shared";
import {
  assertCan,
  metrics,
  runEvents,
  runRecovery,
  runs,
  tokenCap,
  trainingRollouts,
  workers,
} from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";
import { metricExportCsv } from "../../rest/text-answers";

export const runsRouter = createTRPCRouter({
  list: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs",
        tags: ["runs"],
        summary: "Runs (jobs, trainings, evaluations) of the project, newest first",
        protect: true,
      },
    })
    .input(runListInput)
    .output(syncFirst(z.array(runOutput)))
    .query(({ ctx, input }) => runs.listRuns(ctx.access, input)),
  /** The worker processes alive now (heartbeat in Redis) and this project's jobs they run. */
  workers: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/workers",
        tags: ["runs"],
        summary: "Live worker processes: host, queues, compute backend and device, running jobs",
        protect: true,
      },
    })
    .input(liveWorkersInput)
    .output(liveWorkersOutput)
    .query(({ ctx }) => workers.projectWorkers(ctx.access)),
  byId: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs/{runId}",
        tags: ["runs"],
        summary: "One run with its status and progress",
        protect: true,
      },
    })
    .input(runRefInput)
    .output(runOutput)
    .query(({ ctx, input }) => runs.getRun(ctx.access, input.runId)),
  /** The metric series a run has (names, point counts, step extent). */
  metricNames: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs/{runId}/metric-names",
        tags: ["runs"],
        summary: "The metric series a run has (names, point counts, step extent)",
        protect: true,
      },
    })
    .input(runRefInput)
    .output(metricNamesOutput)
    .query(({ ctx, input }) => metrics.listMetricNames(ctx.access, input.runId)),
  /**
   * Metric series of a run by step or wall time, optionally a zoom window, downsampled (min/max
   * preserving) to what a chart can show.
   */
  metrics: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/runs/{runId}/metrics/query",
        tags: ["runs"],
        summary:
          "Metric series by step or wall time, optionally a zoom window, downsampled (min/max kept) to maxPoints",
        protect: true,
      },
    })
    .input(metricQueryInput)
    .output(metricQueryOutput)
    .query(({ ctx, input }) => metrics.readSeriesWindow(ctx.access, input)),
  /**
   * A live chart's new points (issue 42 item 1): per series, the points after the step the chart
   * holds, downsampled like `metrics` (tRPC only: what a page asks after a run event).
   */
  metricsSince: projectProcedure
    .meta({ scope: "READ" })
    .input(metricSinceInput)
    .output(metricQueryOutput)
    .query(({ ctx, input }) => metrics.readSeriesSince(ctx.access, input)),
  /** Every point of the chosen series as CSV or JSON, one page of steps per call. */
  metricsExport: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs/{runId}/metrics/export",
        tags: ["runs"],
        summary: "Every point of the chosen series as CSV or JSON, one page of steps per call",
        protect: true,
      },
      // REST: format=csv answers the CSV itself (text/csv), not a JSON string holding it.
      restText: metricExportCsv,
    })
    .input(metricExportInput)
    .output(metricExportOutput)
    .query(({ ctx, input }) => metrics.exportSeries(ctx.access, input)),
  /** Runs' configs flattened to dotted keys, only the keys that differ. */
  configDiff: projectProcedure
    .meta({ scope: "READ" })
    .input(configDiffInput)
    .output(configDiffOutput)
    .query(({ ctx, input }) => metrics.configDiff(ctx.access, input.runIds)),
  /** A run's stored config, the worker that ran it and the dataset and model it names (the run page). */
  config: projectProcedure
    .meta({ scope: "READ" })
    .input(runRefInput)
    .output(runConfigOutput)
    .query(({ ctx, input }) => runs.getRunConfig(ctx.access, input.runId)),
  /** Stored main-agent turns of a run and how many hit the generation cap (the eval run page's warning). */
  tokenCap: projectProcedure
    .meta({ scope: "READ" })
    .input(runRefInput)
    .output(tokenCapOutput)
    .query(({ ctx, input }) => tokenCap.runTokenCap(ctx.access, input.runId)),
  /**
   * The rollouts an RL run kept of one step (a chart point's "rollouts of step N"), with the
   * nearest steps before and after that have some.
   */
  stepRollouts: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs/{runId}/steps/{step}/rollouts",
        tags: ["runs"],
        summary: "The rollouts an RL run kept of one step, with the nearest steps that have some",
        protect: true,
      },
    })
    .input(stepRolloutsInput)
    .output(stepRolloutsOutput)
    .query(({ ctx, input }) => trainingRollouts.stepRollouts(ctx.access, input)),
  /** The GRPO group inspector: a step's groups and one group's rollouts side by side (tRPC only). */
  stepGroup: projectProcedure
    .meta({ scope: "READ" })
    .input(stepGroupInput)
    .output(stepGroupOutput)
    .query(({ ctx, input }) => trainingRollouts.stepGroup(ctx.access, input)),
  /** Step, rollout and reward terms of an episode of an RL run; null for any other episode. */
  episodeStep: projectProcedure
    .meta({ scope: "READ" })
    .input(episodeStepInput)
    .output(episodeStepOutput)
    .query(({ ctx, input }) => trainingRollouts.episodeStep(ctx.access, input.episodeId)),
  cancel: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/runs/{runId}/cancel",
        tags: ["runs"],
        summary: "Cancel a queued or running run",
        protect: true,
      },
    })
    .input(runRefInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.cancel");
      return runs.cancelRun(ctx.access, input.runId);
    }),
  /**
   * Resume a failed or cancelled evaluation or training run: an evaluation runs only the samples
   * without a stored result, a training run continues from its last committed checkpoint.
   */
  resume: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/runs/{runId}/resume",
        tags: ["runs"],
        summary: "Resume a failed or cancelled evaluation or training run (only the missing work runs)",
        protect: true,
      },
    })
    .input(runRefInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return runRecovery.resumeRun(ctx.access, input.runId);
    }),
  /** Live status of every run of the project, delivered over Server-Sent Events. */
  events: projectProcedure.meta({ scope: "READ" }).subscription(async function* ({ ctx, signal }) {
    for await (const message of runEvents(ctx.access.projectId, signal)) {
      yield liveRunMessageSchema.parse(message);
    }
  }),
});
