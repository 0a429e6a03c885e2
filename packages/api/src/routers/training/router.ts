import { rlLaunchInput, runOutput, sftLaunchInput } from "@paravt/shared";
import { assertCan, training } from "@paravt/shared/server";
import { createTRPCRouter, projectEditorProcedure } from "../../trpc";

export const trainingRouter = createTRPCRouter({
  /** Cold-start SFT of ParaVT-nano on a needle-suite dataset (a train.sft job). */
  launchSft: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/training/sft",
        tags: ["training"],
        summary: "Launch cold-start SFT of ParaVT-nano on a needle suite",
        protect: true,
      },
    })
    .input(sftLaunchInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...settings } = input;
      return training.launchSft(ctx.access, settings);
    }),
  /** PARA-GRPO / vanilla GRPO on ParaVT-nano from a nano checkpoint (a train.rl job, issue 9). */
  launchRl: projectEditorProcedure
    .meta({
      scope: "LAUNCH",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/training/rl",
        tags: ["training"],
        summary: "Launch PARA-GRPO / vanilla GRPO of ParaVT-nano on a needle suite",
        protect: true,
      },
    })
    .input(rlLaunchInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...settings } = input;
      return training.launchRl(ctx.access, settings);
    }),
});
