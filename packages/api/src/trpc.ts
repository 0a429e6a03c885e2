// The only file that defines procedure builders:
//   publicProcedure -> protectedProcedure -> projectProcedure (viewer) -> projectEditorProcedure
//                                                                    -> projectOwnerProcedure
// Project procedures take `projectId` in their input and put the caller's access on ctx.
// Procedures that scripts use carry `.meta({ openapi: ... })`: the REST API (/api/v1) and its
// OpenAPI document are generated from them (src/openapi.ts).
// Every procedure declares what an API token needs to call it, `.meta({ scope })` (ProcedureScope);
// createTRPCRouter refuses a router with a procedure that does not.
import type { TokenScope } from "@paravt/db";
import { ForbiddenError, hasRole, projectRef, TOKEN_SCOPE_MEANING, TOKEN_SCOPES, type Role } from "@paravt/shared";
import {
  assertTokenScope,
  projectAccess,
  refuseTokens,
  tokens,
  type Principal,
  type ProjectAccess,
} from "@paravt/shared/server";
import { initTRPC, TRPCError, type AnyTRPCProcedure, type AnyTRPCRouter } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";
import type { Context } from "./context";
import type { RestText } from "./rest/text-answers";
import { transformer } from "./transformer";
import { httpStatusOf, internalErrorMessage, reportIncident, toTRPCError } from "./errors";
import { withinRateLimit } from "./token-limits";

/**
 * What an API token must hold to call a procedure (signed-in people are unaffected: roles only):
 *  - "READ" | "WRITE" | "LAUNCH": that one scope (the token's other scopes do not count);
 *  - "ANY": any token, whatever its scopes (`ingest.whoami`: a script checks its own token);
 *  - "PEOPLE": no token at all (project settings, members, tokens; every projectOwnerProcedure).
 * A token still acts with at most its creator's role, and at most EDITOR (VIEWER for READ alone).
 */
export type ProcedureScope = TokenScope | "ANY" | "PEOPLE";

export type Meta = OpenApiMeta & {
  scope?: ProcedureScope;
  /** REST only: a text answer (e.g. text/csv) instead of JSON for some outputs (rest/text-answers.ts). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each procedure's own output type
  restText?: RestText<any>;
};

function isTokenScope(scope: ProcedureScope | undefined): scope is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(scope ?? "");
}

/** The first sentence of a REST operation's description, derived from its declared scope. */
export function scopeDescription(scope: TokenScope | "ANY"): string {
  if (scope === "ANY") return "Any API token (no scope needed).";
  const meaning = TOKEN_SCOPE_MEANING[scope];
  return scope === "READ"
    ? `Token scope: READ (${meaning}).`
    : `Token scope: ${scope} (${meaning}), and the editor role.`;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer,
    errorFormatter({ shape, error, ctx, path }) {
      const zodError = error.cause instanceof z.ZodError ? error.cause : null;
      // tRPC puts the stack in `data` outside production: it names server files, so it never
      // leaves the server, in any mode (the log has it).
      const { stack: _stack, ...data } = shape.data;
      const transport = ctx?.request?.transport === "rest" ? "REST" : "tRPC";
      return {
        ...shape,
        // A readable message for forms and scripts instead of the raw issue list. An unexpected
        // error's own message (a driver's, quoting values and columns) stays in the log.
        message: zodError
          ? z.prettifyError(zodError)
          : error.code === "INTERNAL_SERVER_ERROR"
            ? internalErrorMessage(reportIncident(error, `${transport} ${path ?? "?"}`))
            : shape.message,
        data: {
          ...data,
          // The REST API answers some errors with another status than tRPC (errors.ts).
          ...(ctx?.request?.transport === "rest" ? { httpStatus: httpStatusOf(error, "rest") } : {}),
          zodIssues: zodError?.issues ?? null,
        },
      };
    },
  });

/**
 * Startup check of the scope declarations: every procedure declares `meta.scope`, and none that
 * the REST API exposes is for people only. Throws, naming the procedure, so a router that forgot
 * fails the first test (and the server's start) instead of opening or closing it to tokens silently.
 */
export function assertScopesDeclared(router: AnyTRPCRouter): void {
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.scope) {
      throw new Error(
        `tRPC procedure "${path}" declares no token scope: add .meta({ scope: "READ" | "WRITE" | "LAUNCH" | "ANY" | "PEOPLE" })`,
      );
    }
    if (meta.scope === "PEOPLE" && meta.openapi && meta.openapi.enabled !== false) {
      throw new Error(`tRPC procedure "${path}" is for people only (scope PEOPLE) but is exposed over REST`);
    }
  }
}

export const createTRPCRouter: typeof t.router = (record) => {
  const router = t.router(record);
  assertScopesDeclared(router);
  return router;
};
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

/** A token call of a procedure: refused unless the token holds the procedure's declared scope. */
function checkTokenScope(principal: Principal, scope: ProcedureScope | undefined): void {
  if (scope === "ANY") return;
  // Undeclared (only possible for a router built without createTRPCRouter) closes, never opens.
  if (isTokenScope(scope)) assertTokenScope(principal, scope);
  else refuseTokens(principal);
}

export const protectedProcedure = publicProcedure.use(({ ctx, meta, next }) => {
  if (!ctx.principal) throw new TRPCError({ code: "UNAUTHORIZED", message: ctx.tokenRefusal ?? "Sign in first" });
  // Before the input is parsed: a token lacking the scope gets 403, not a 422 about its input.
  if (ctx.principal.kind === "token") checkTokenScope(ctx.principal, meta?.scope);
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

function projectProcedureWith(minRole: Role) {
  return protectedProcedure.input(projectRef).use(async ({ ctx, input, meta, next }) => {
    // projectAccess checks the declared scope again (the same rule the byte-stream routes use).
    const scope = isTokenScope(meta?.scope) ? meta.scope : undefined;
    const access: ProjectAccess = await projectAccess(ctx.principal, input.projectId, scope);
    if (!hasRole(access.role, minRole)) {
      throw new ForbiddenError(`This needs the ${minRole.toLowerCase()} role; you are ${access.role.toLowerCase()}`);
    }
    return next({ ctx: { ...ctx, access } });
  });
}

export const projectProcedure = projectProcedureWith("VIEWER");
export const projectEditorProcedure = projectProcedureWith("EDITOR");
/** Owners' procedures are for signed-in people only (a token acts as an editor at most anyway). */
export const projectOwnerProcedure = projectProcedureWith("OWNER").meta({ scope: "PEOPLE" });
