import { rlLaunchInput, runOutput, runsTableInput, runsTableOutput, sftLaunchInput } from "@paravt/shared";
import { assertCan, training } from "@paravt/shared/server";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const trainingRouter = createTRPCRouter({
  /**
   * The Training tab's runs table: the newest runs (SFT and RL by default, evaluations on request)
   * with their settings, model, dataset, the last and best value of each metric and eval figures.
   */
  runs: projectProcedure
    .meta({ scope: "READ" })
    .input(runsTableInput)
    .output(runsTableOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...query } = input;
      return training.listRunsTable(ctx.access, query);
    }),
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
