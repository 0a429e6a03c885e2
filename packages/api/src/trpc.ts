// The only file that defines procedure builders:
//   publicProcedure -> protectedProcedure -> projectProcedure (viewer) -> projectEditorProcedure
//                                                                    -> projectOwnerProcedure
// Project procedures take `projectId` in their input and put the caller's access on ctx.
import { ForbiddenError, hasRole, projectRef, type Role } from "@paravt/shared";
import { projectAccess, type ProjectAccess } from "@paravt/shared/server";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z } from "zod";
import type { Context } from "./context";
import { toTRPCError } from "./errors";

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof z.ZodError ? error.cause : null;
    return {
      ...shape,
      // A readable message for forms and scripts instead of the raw issue list.
      message: zodError ? z.prettifyError(zodError) : shape.message,
      data: { ...shape.data, zodIssues: zodError?.issues ?? null },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const domainErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok) {
    const mapped = toTRPCError(res.error);
    if (mapped) throw mapped;
  }
  return res;
});

export const publicProcedure = t.procedure.use(domainErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.principal) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

function projectProcedureWith(minRole: Role) {
  return protectedProcedure.input(projectRef).use(async ({ ctx, input, next }) => {
    const access: ProjectAccess = await projectAccess(ctx.principal, input.projectId);
    if (!hasRole(access.role, minRole)) {
      throw new ForbiddenError(`This needs the ${minRole.toLowerCase()} role; you are ${access.role.toLowerCase()}`);
    }
    return next({ ctx: { ...ctx, access } });
  });
}

export const projectProcedure = projectProcedureWith("VIEWER");
export const projectEditorProcedure = projectProcedureWith("EDITOR");
export const projectOwnerProcedure = projectProcedureWith("OWNER");
