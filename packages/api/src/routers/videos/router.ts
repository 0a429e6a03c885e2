import { demoVideoInput, registerVideoInput, videoListInput, videoOutput, videoRefInput } from "@paravt/shared";
import { assertCan, videos } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

const created = z.object({ video: videoOutput, runId: z.string() });

export const videosRouter = createTRPCRouter({
  list: projectProcedure
    .input(videoListInput)
    .output(z.array(videoOutput))
    .query(({ ctx, input }) => videos.listVideos(ctx.access, { query: input.query })),
  byId: projectProcedure
    .input(videoRefInput)
    .output(videoOutput)
    .query(({ ctx, input }) => videos.getVideo(ctx.access, input.videoId)),
  /** Registers a file already on the server (inside MEDIA_ROOTS) and probes it. */
  register: projectEditorProcedure
    .input(registerVideoInput)
    .output(created)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "videos.upload");
      return videos.registerVideoPath(ctx.access, { path: input.path, name: input.name });
    }),
  /** Renders a synthetic video through the queue (a real ffmpeg job with live progress). */
  createDemo: projectEditorProcedure
    .input(demoVideoInput)
    .output(created)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return videos.createDemoVideo(ctx.access, input);
    }),
});
