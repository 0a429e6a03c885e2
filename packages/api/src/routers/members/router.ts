import { memberInviteInput, memberOutput, memberRemoveInput, memberUpdateInput } from "@paravt/shared";
import { members } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectOwnerProcedure, projectProcedure } from "../../trpc";

const ok = z.object({ ok: z.literal(true) });

export const membersRouter = createTRPCRouter({
  list: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/members",
        tags: ["members"],
        summary: "Members of the project (user ids for review assignees and mentions)",
        protect: true,
      },
    })
    .output(z.array(memberOutput))
    .query(({ ctx }) => members.listMembers(ctx.access)),
  add: projectOwnerProcedure
    .input(memberInviteInput)
    .output(memberOutput)
    .mutation(({ ctx, input }) => members.addMember(ctx.access, input)),
  updateRole: projectOwnerProcedure
    .input(memberUpdateInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await members.updateMemberRole(ctx.access, input);
      return { ok: true as const };
    }),
  remove: projectOwnerProcedure
    .input(memberRemoveInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await members.removeMember(ctx.access, input);
      return { ok: true as const };
    }),
});
