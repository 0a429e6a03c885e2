import {
  demoVideoInput,
  registerVideoInput,
  videoListInput,
  videoOutput,
  videoRefInput,
  syncFirst,
} from "@paravt/shared";
import { assertCan, videos } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

const created = z.object({ video: videoOutput, runId: z.string() });

export const videosRouter = createTRPCRouter({
  list: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/videos",
        tags: ["videos"],
        summary: "Videos of the project, optionally filtered by name",
        protect: true,
      },
    })
    .input(videoListInput)
    .output(syncFirst(z.array(videoOutput)))
    .query(({ ctx, input }) => videos.listVideos(ctx.access, { query: input.query })),
  byId: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/videos/{videoId}",
        tags: ["videos"],
        summary: "One video with its probe metadata and status",
        protect: true,
      },
    })
    .input(videoRefInput)
    .output(videoOutput)
    .query(({ ctx, input }) => videos.getVideo(ctx.access, input.videoId)),
  /** Registers a file already on the server (inside MEDIA_ROOTS) and probes it. */
  register: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/videos/register",
        tags: ["videos"],
        summary: "Register a video file on the server (path or file:// URI inside MEDIA_ROOTS) and probe it",
        protect: true,
      },
    })
    .input(registerVideoInput)
    .output(created)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "videos.upload");
      return videos.registerVideoPath(ctx.access, { path: input.path, name: input.name });
    }),
  /** Renders a synthetic video through the queue (a real ffmpeg job with live progress). */
  createDemo: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/videos/demo",
        tags: ["videos"],
        summary: "Render a synthetic demo video on a worker",
        protect: true,
      },
    })
    .input(demoVideoInput)
    .output(created)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return videos.createDemoVideo(ctx.access, input);
    }),
});
