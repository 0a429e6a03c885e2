import {
  EPISODE_PAGE_BYTES,
  EPISODE_PREVIEW_CHARS,
  EPISODE_TEXT_PAGE_CHARS,
  evalCompareInput,
  evalCompareOutput,
  evalCompareRunInput,
  evalCompareRunOutput,
  evalEpisodeOutput,
  episodePromptsInput,
  episodePromptsOutput,
  evalFindSamplesInput,
  evalRunOnOutput,
  evalRunsOnInput,
  foundSampleOutput,
  evalEpisodeInput,
  evalEpisodeTextInput,
  evalEpisodeTextOutput,
  evalGroupListInput,
  evalGroupOutput,
  evalGroupRefInput,
  evalGroupTableOutput,
  evalLaunchInput,
  evalLaunchOutput,
  evalMatrixInput,
  evalMatrixOutput,
  evalRunOutput,
  evalSampleGridInput,
  evalSampleGridOutput,
  evalSampleListInput,
  evalSamplePageOutput,
  importReferenceInput,
  importReferenceOutput,
  runRefInput,
  syncFirst,
} from "@paravt/shared";
import { assertCan, episodePrompts, evals, evalsCompare, evalsGrid } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const evalsRouter = createTRPCRouter({
  /** Runs models x datasets x modes x K as one group of eval runs (sharded BullMQ flows). */
  launch: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/evals",
        tags: ["evals"],
        summary: "Launch models x datasets x prompt modes x K as one group of eval runs",
        protect: true,
      },
    })
    .input(evalLaunchInput)
    .output(evalLaunchOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...settings } = input;
      return evals.launchEval(ctx.access, settings);
    }),
  /** Recent evaluation groups with their runs, progress and summaries. */
  groups: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/groups",
        tags: ["evals"],
        summary: "Recent evaluation groups with their runs, progress and summaries",
        protect: true,
      },
    })
    .input(evalGroupListInput)
    .output(syncFirst(z.array(evalGroupOutput)))
    .query(({ ctx, input }) => evals.listGroups(ctx.access, input)),
  group: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/groups/{groupId}",
        tags: ["evals"],
        summary: "One evaluation group",
        protect: true,
      },
    })
    .input(evalGroupRefInput)
    .output(evalGroupOutput)
    .query(({ ctx, input }) => evals.getGroup(ctx.access, input.groupId)),
  /**
   * The group as the paper's main table (models x benchmarks + average) with its CSV and
   * Markdown renderings, for the evaluations page's download and for scripts.
   */
  table: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/groups/{groupId}/table",
        tags: ["evals"],
        summary: "An evaluation group as the paper's main table (benchmarks as columns, average), as CSV and Markdown",
        description:
          "Rows are (model, prompt mode, K); each column is a benchmark's headline figure " +
          "(accuracy, or mIoU for temporal grounding) over answered samples; ERROR episodes are left out and named in the row's notes.",
        protect: true,
      },
    })
    .input(evalGroupRefInput)
    .output(evalGroupTableOutput)
    .query(({ ctx, input }) => evals.groupTable(ctx.access, input.groupId)),
  /** One run: settings and SPEC §5 summary (live while it runs). */
  byId: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/runs/{runId}",
        tags: ["evals"],
        summary: "One eval run: settings and SPEC §5 summary",
        protect: true,
      },
    })
    .input(runRefInput)
    .output(evalRunOutput)
    .query(({ ctx, input }) => evals.getEvalRun(ctx.access, input.runId)),
  /** Per-sample rows of a run, filtered (outcome, tool calls, K, duration group), each naming its episode. */
  samples: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/runs/{runId}/samples",
        tags: ["evals"],
        summary: "Per-sample rows of an eval run, filtered, one cursor page at a time",
        protect: true,
      },
    })
    .input(evalSampleListInput)
    .output(evalSamplePageOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...filters } = input;
      return evals.listSamples(ctx.access, filters);
    }),
  /**
   * The sample grid of a run: one page of cards (outcome, tool calls, crop windows, overview
   * timestamps, the video's duration) under the samples table's filters, in its order; with
   * `compareWith`, each card's flip against that run.
   */
  sampleGrid: projectProcedure
    .meta({ scope: "READ" })
    .input(evalSampleGridInput)
    .output(evalSampleGridOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...filters } = input;
      return evalsGrid.listSampleCards(ctx.access, filters);
    }),
  /** One episode's transcript, a bounded page at a time (texts as previews, `nextCursor` for more turns). */
  episode: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/episodes/{episodeId}",
        tags: ["evals"],
        summary:
          "One episode's trajectory, a bounded page at a time: turns, raw text, tool calls with windows and outputs",
        description:
          `Texts longer than ${EPISODE_PREVIEW_CHARS / 1024} Ki characters are head + tail previews listed in the ` +
          "`clipped` field of the object that holds them (name -> full length; whole through GET …/episodes/{episodeId}/text). " +
          `Turns and tool calls fill about ${EPISODE_PAGE_BYTES / 1024} KB; \`nextCursor\` continues (a turn split ` +
          "across pages repeats its fields with its remaining calls).",
        protect: true,
      },
    })
    .input(evalEpisodeInput)
    .output(evalEpisodeOutput)
    .query(({ ctx, input }) => evals.getEpisode(ctx.access, input.episodeId, { cursor: input.cursor })),
  /**
   * The prompts of an episode the workbench ran (system, user text around the frames, final-answer
   * nudge, every sub-agent prompt), rendered by the runner's own templates with token counts; an
   * imported or ingested run's answer says why there are none (issue 41 item 12). tRPC only.
   */
  episodePrompts: projectProcedure
    .meta({ scope: "READ" })
    .input(episodePromptsInput)
    .output(episodePromptsOutput)
    .query(({ ctx, input }) => episodePrompts.episodePrompts(ctx.access, input.episodeId)),
  /** One stored text of an episode, whole, page by page (what the episode answer gives as a preview). */
  episodeText: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/episodes/{episodeId}/text",
        tags: ["evals"],
        summary: `One text of an episode, whole, in pages of at most ${EPISODE_TEXT_PAGE_CHARS / 1024} Ki characters`,
        description:
          "`field` of the episode (or its sample: question, answer, options, metadata), of turn `turn`, or of tool call " +
          "`call` of turn `turn`; a JSON field's text is its JSON. Offsets and lengths count UTF-16 code units; " +
          "follow `nextOffset` until it is null.",
        protect: true,
      },
    })
    .input(evalEpisodeTextInput)
    .output(evalEpisodeTextOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...ref } = input;
      return evals.getEpisodeText(ctx.access, ref);
    }),
  /** Results matrix of a group (or of chosen runs): models x datasets, with-tool and no-tool rows. */
  matrix: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/evals/matrix",
        tags: ["evals"],
        summary: "Results matrix of a group or of chosen runs",
        protect: true,
      },
    })
    .input(evalMatrixInput)
    .output(evalMatrixOutput)
    .query(({ ctx, input }) =>
      evals.matrix(ctx.access, {
        ...(input.groupId ? { groupId: input.groupId } : {}),
        ...(input.runIds ? { runIds: input.runIds } : {}),
      }),
    ),
  /** Imports one dataset's reference evaluator output (SPEC §6) as a run. */
  importReference: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/evals/import-reference",
        tags: ["evals"],
        summary: "Import one dataset's reference evaluator output (SPEC §6) as a run",
        protect: true,
      },
    })
    .input(importReferenceInput)
    .output(importReferenceOutput)
    .mutation(({ ctx, input }) => {
      const { projectId: _projectId, ...rest } = input;
      return evals.importReference(ctx.access, rest);
    }),
  /** Side by side (issue 8): the sample and, per run, its episode on it with answer, latency, tool calls. */
  compare: projectProcedure
    .meta({ scope: "READ" })
    .input(evalCompareInput)
    .output(evalCompareOutput)
    .query(({ ctx, input }) => evalsCompare.compareSample(ctx.access, input)),
  /** Runs one sample (or a video and one's own question) now on 2–4 models: one eval run each. */
  compareRun: projectEditorProcedure
    .meta({ scope: "LAUNCH" })
    .input(evalCompareRunInput)
    .output(evalCompareRunOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...rest } = input;
      return evalsCompare.compareRun(ctx.access, rest);
    }),
  /** Eval runs on a dataset (or on a sample's dataset, with the sample's episode in each). */
  runsOn: projectProcedure
    .meta({ scope: "READ" })
    .input(evalRunsOnInput)
    .output(z.array(evalRunOnOutput))
    .query(({ ctx, input }) =>
      evalsCompare.runsOn(ctx.access, {
        ...(input.datasetId ? { datasetId: input.datasetId } : {}),
        ...(input.sampleId ? { sampleId: input.sampleId } : {}),
      }),
    ),
  /** Samples of the project by key or question text (the comparison page's sample search). */
  findSamples: projectProcedure
    .meta({ scope: "READ" })
    .input(evalFindSamplesInput)
    .output(syncFirst(z.array(foundSampleOutput)))
    .query(({ ctx, input }) => evalsCompare.findSamples(ctx.access, input)),
});
