// Ingestion of external runs and bulk export for scripts (issue 11). An external trainer (a
// WRITE token: ingesting is writing data, it starts no job here) creates its run, streams metrics
// and rollouts in idempotent batches with a status per item, and reports the run's status;
// `episodes` (READ) pages out full trajectories of any run; `whoami` answers any token, so a
// script checks its token and learns its project and scopes whatever scopes it holds.
import {
  episodeExportInput,
  evalEpisodeOutput,
  externalRunCreateInput,
  externalRunCreateOutput,
  externalRunStatusInput,
  ingestBatchOutput,
  metricBatchInput,
  rolloutBatchInput,
  runOutput,
  syncFirst,
} from "@paravt/shared";
import { ingest } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure, protectedProcedure } from "../../trpc";

const TAGS = ["ingest"];

export const ingestRouter = createTRPCRouter({
  /** Who the caller is: a script checks its token (and learns its project) before it starts. */
  whoami: protectedProcedure
    .meta({
      scope: "ANY",
      openapi: {
        method: "GET",
        path: "/whoami",
        tags: TAGS,
        summary: "The caller: user, and the token's project and scopes",
        protect: true,
      },
    })
    .input(z.object({}).optional())
    .output(
      z.object({
        userId: z.string(),
        token: z
          .object({ id: z.string(), projectId: z.string(), scopes: z.array(z.enum(["READ", "WRITE", "LAUNCH"])) })
          .nullable(),
      }),
    )
    .query(({ ctx }) => ({
      userId: ctx.principal.userId,
      token:
        ctx.principal.kind === "token"
          ? { id: ctx.principal.tokenId, projectId: ctx.principal.projectId, scopes: ctx.principal.scopes }
          : null,
    })),
  createRun: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/external-runs",
        tags: TAGS,
        summary: "Create an external run (idempotent by clientId)",
        protect: true,
      },
    })
    .input(externalRunCreateInput)
    .output(externalRunCreateOutput)
    .mutation(({ ctx, input }) => {
      const { projectId: _, ...rest } = input;
      return ingest.createExternalRun(ctx.access, rest);
    }),
  setStatus: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/external-runs/{runId}/status",
        tags: TAGS,
        summary: "Report an external run's status",
        protect: true,
      },
    })
    .input(externalRunStatusInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => ingest.setExternalRunStatus(ctx.access, input)),
  metrics: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/external-runs/{runId}/metrics",
        tags: TAGS,
        summary: "Add a batch of metric steps (status per item; a retried batch stores nothing twice)",
        protect: true,
      },
    })
    .input(metricBatchInput)
    .output(ingestBatchOutput)
    .mutation(({ ctx, input }) => ingest.ingestMetrics(ctx.access, input)),
  rollouts: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/external-runs/{runId}/rollouts",
        tags: TAGS,
        summary: "Add a batch of rollouts with full trajectories (status per item; idempotent by id)",
        protect: true,
      },
    })
    .input(rolloutBatchInput)
    .output(ingestBatchOutput)
    .mutation(({ ctx, input }) => ingest.ingestRollouts(ctx.access, input)),
  episodes: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/runs/{runId}/episodes",
        tags: TAGS,
        summary: "A page of a run's episodes with full trajectories",
        protect: true,
      },
    })
    .input(episodeExportInput)
    .output(syncFirst(z.object({ items: z.array(evalEpisodeOutput), nextCursor: z.string().nullable() })))
    .query(({ ctx, input }) => ingest.exportEpisodes(ctx.access, input)),
});
