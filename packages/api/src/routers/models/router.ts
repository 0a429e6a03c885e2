import { modelCreateInput, modelOutput, modelRefInput, modelUpdateInput } from "@paravt/shared";
import { assertCan, models } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const modelsRouter = createTRPCRouter({
  list: projectProcedure.output(z.array(modelOutput)).query(({ ctx }) => models.listModels(ctx.access)),
  create: projectEditorProcedure
    .input(modelCreateInput)
    .output(modelOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      return models.createModel(ctx.access, input);
    }),
  update: projectEditorProcedure
    .input(modelUpdateInput)
    .output(modelOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      return models.updateModel(ctx.access, input);
    }),
  delete: projectEditorProcedure
    .input(modelRefInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      await models.deleteModel(ctx.access, input.modelId);
      return { ok: true as const };
    }),
});
