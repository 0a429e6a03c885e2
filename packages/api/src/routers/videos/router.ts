import { demoVideoInput, videoOutput } from "@paravt/shared";
import { assertCan, videos } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const videosRouter = createTRPCRouter({
  list: projectProcedure.output(z.array(videoOutput)).query(({ ctx }) => videos.listVideos(ctx.access)),
  /** Renders a synthetic video through the queue (a real ffmpeg job with live progress). */
  createDemo: projectEditorProcedure
    .input(demoVideoInput)
    .output(z.object({ video: videoOutput, runId: z.string() }))
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      return videos.createDemoVideo(ctx.access, input);
    }),
});
