// The only file that defines procedure builders:
//   publicProcedure -> protectedProcedure -> projectProcedure (viewer) -> projectEditorProcedure
//                                                                    -> projectOwnerProcedure
// Project procedures take `projectId` in their input and put the caller's access on ctx.
// Procedures that scripts use carry `.meta({ openapi: ... })`: the REST API (/api/v1) and its
// OpenAPI document are generated from them (src/openapi.ts).
import { ForbiddenError, hasRole, projectRef, type Role } from "@paravt/shared";
import { projectAccess, tokens, type ProjectAccess } from "@paravt/shared/server";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";
import type { Context } from "./context";
import { httpStatusOf, toTRPCError } from "./errors";
import { withinRateLimit } from "./token-limits";

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error, ctx }) {
      const zodError = error.cause instanceof z.ZodError ? error.cause : null;
      return {
        ...shape,
        // A readable message for forms and scripts instead of the raw issue list.
        message: zodError ? z.prettifyError(zodError) : shape.message,
        data: {
          ...shape.data,
          // The REST API answers some errors with another status than tRPC (errors.ts).
          ...(ctx?.request?.transport === "rest" ? { httpStatus: httpStatusOf(error, "rest") } : {}),
          zodIssues: zodError?.issues ?? null,
        },
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

/**
 * Calls made with an API token, over tRPC or REST: the per-token rate limit (429 beyond it) and
 * one audit row per call with the status the caller got (tokens.recordTokenUse, written in the
 * background). Outermost, so refusals by the procedures below (401/403/404/422) are recorded too.
 */
const tokenCalls = t.middleware(async ({ ctx, path, type, next }) => {
  const principal = ctx.principal;
  if (principal?.kind !== "token") return next();
  const transport = ctx.request?.transport ?? "trpc";
  const use = {
    at: new Date(),
    tokenId: principal.tokenId,
    projectId: principal.projectId,
    method: transport === "rest" ? ctx.request!.method : type,
    path: transport === "rest" ? ctx.request!.path : path,
    ip: ctx.request?.ip ?? null,
  };
  if (ctx.request) ctx.request.audited = true;
  const refused = await withinRateLimit(principal);
  if (refused) {
    tokens.recordTokenUse({ ...use, status: 429 });
    throw toTRPCError(refused)!;
  }
  const res = await next();
  tokens.recordTokenUse({ ...use, status: res.ok ? 200 : httpStatusOf(res.error, transport) });
  return res;
});

export const publicProcedure = t.procedure.use(tokenCalls).use(domainErrors);

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
