import { projectCreateInput, projectOutput, projectUpdateInput } from "@paravt/shared";
import { assertCan, projects } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectOwnerProcedure, projectProcedure, protectedProcedure } from "../../trpc";

const ok = z.object({ ok: z.literal(true) });

export const projectsRouter = createTRPCRouter({
  list: protectedProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects",
        tags: ["projects"],
        summary: "Projects the caller can see (a token sees its own project only)",
        protect: true,
      },
    })
    .output(z.array(projectOutput))
    .query(({ ctx }) => {
      // A token is scoped to one project: it lists that project only.
      if (ctx.principal.kind === "token") {
        const only = ctx.principal.projectId;
        return projects.listProjectsForUser(ctx.principal.userId).then((ps) => ps.filter((p) => p.id === only));
      }
      return projects.listProjectsForUser(ctx.principal.userId);
    }),
  byId: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}",
        tags: ["projects"],
        summary: "One project with the caller's role",
        protect: true,
      },
    })
    .output(projectOutput)
    .query(({ ctx }) => projects.getProject(ctx.access)),
  create: protectedProcedure
    .meta({ scope: "PEOPLE" })
    .input(projectCreateInput)
    .output(projectOutput)
    .mutation(({ ctx, input }) => projects.createProject(ctx.principal.userId, input)),
  update: projectOwnerProcedure
    .input(projectUpdateInput)
    .output(projectOutput)
    .mutation(({ ctx, input }) => {
      assertCan(ctx.access, "project.update");
      return projects.updateProject(ctx.access, { name: input.name, description: input.description });
    }),
  delete: projectOwnerProcedure.output(ok).mutation(async ({ ctx }) => {
    await projects.deleteProject(ctx.access);
    return { ok: true as const };
  }),
});
