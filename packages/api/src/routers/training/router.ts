import { z } from "zod";
import { rlLaunchInput, runOutput, sftLaunchInput, trainingRunListInput, trainingRunRow } from "@paravt/shared";
import { assertCan, training } from "@paravt/shared/server";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const trainingRouter = createTRPCRouter({
  /** SFT and RL runs with their last loss / reward, steps and produced model (the Training tab). */
  runs: projectProcedure
    .meta({ scope: "READ" })
    .input(trainingRunListInput)
    .output(z.array(trainingRunRow))
    .query(({ ctx, input }) => training.listTrainingRuns(ctx.access, input)),
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
