import { rlLaunchInput, runOutput, sftLaunchInput } from "@paravt/shared";
import { assertCan, training } from "@paravt/shared/server";
import { createTRPCRouter, projectEditorProcedure } from "../../trpc";

export const trainingRouter = createTRPCRouter({
  /** Cold-start SFT of ParaVT-nano on a needle-suite dataset (a train.sft job). */
  launchSft: projectEditorProcedure
    .input(sftLaunchInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...settings } = input;
      return training.launchSft(ctx.access, settings);
    }),
  /** PARA-GRPO / vanilla GRPO on ParaVT-nano from a nano checkpoint (a train.rl job, issue 9). */
  launchRl: projectEditorProcedure
    .input(rlLaunchInput)
    .output(runOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "runs.launch");
      const { projectId: _projectId, ...settings } = input;
      return training.launchRl(ctx.access, settings);
    }),
});
