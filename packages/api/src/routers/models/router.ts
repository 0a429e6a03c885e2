import { endpointProbe, modelCreateInput, modelOutput, modelRefInput, modelUpdateInput } from "@paravt/shared";
import { assertCan, models } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectProcedure } from "../../trpc";

export const modelsRouter = createTRPCRouter({
  list: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/models",
        tags: ["models"],
        summary: "Models of the registry (API keys are never returned: hasApiKey only)",
        protect: true,
      },
    })
    .output(z.array(modelOutput))
    .query(({ ctx }) => models.listModels(ctx.access)),
  create: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/models",
        tags: ["models"],
        summary:
          "Register a nano checkpoint, an OpenAI-compatible endpoint (apiKey is write-only) or an external model",
        protect: true,
      },
    })
    .input(modelCreateInput)
    .output(modelOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      return models.createModel(ctx.access, input);
    }),
  update: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "PATCH",
        path: "/projects/{projectId}/models/{modelId}",
        tags: ["models"],
        summary: "Rename a model, change its description, or replace / remove its API key",
        protect: true,
      },
    })
    .input(modelUpdateInput)
    .output(modelOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      return models.updateModel(ctx.access, input);
    }),
  probe: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/models/{modelId}/probe",
        tags: ["models"],
        summary:
          "Probe an OpenAI-compatible endpoint: served models and context length, one image, several images, reasoning parser",
        description: "The result is also stored in the model's config as `probe`.",
        protect: true,
      },
    })
    .input(modelRefInput)
    .output(endpointProbe)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      return models.probeModel(ctx.access, input.modelId);
    }),
  delete: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "DELETE",
        path: "/projects/{projectId}/models/{modelId}",
        tags: ["models"],
        summary: "Delete a model",
        protect: true,
      },
    })
    .input(modelRefInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      assertCan(ctx.access, "models.manage");
      await models.deleteModel(ctx.access, input.modelId);
      return { ok: true as const };
    }),
});
