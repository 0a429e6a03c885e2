// Plain HTTP route handlers (byte streams that tRPC does not carry: uploads, video files,
// images). Same context and the same domain-error mapping as the tRPC API.
import { DomainError } from "@paravt/shared";
import { tokens } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { createContext, type Context } from "../context";
import { HTTP_STATUS, internalErrorMessage, refusalAsDomainError, reportIncident } from "../errors";
import { withinRateLimit } from "../token-limits";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorResponse(err: unknown): Response {
  if (err instanceof HttpError)
    return Response.json({ error: err.message }, { status: err.status, headers: err.headers });
  const domain = err instanceof DomainError ? err : refusalAsDomainError(err);
  if (domain) return Response.json({ error: domain.message }, { status: HTTP_STATUS[domain.code] });
  // Anything else is ours to fix: logged with an id; the caller gets the id, never the message.
  return Response.json({ error: internalErrorMessage(reportIncident(err, "route")) }, { status: 500 });
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a request URL cannot be read, or null: a path segment or query piece whose %-escapes are not
 * UTF-8 (`%ZZ`, a lone `%`, `%C0%AF`, an encoded lone surrogate). URL parsing keeps such escapes
 * as they are and URLSearchParams turns them into U+FFFD, so they would reach the schemas as other
 * text than was sent (or, decoded later, throw): both the REST API and these routes answer 400.
 */
export function undecodableUrl(url: URL): string | null {
  if (!url.pathname.split("/").every(decodes)) return "The URL path is not valid percent-encoding (UTF-8)";
  const pieces = url.search.slice(1).split("&");
  if (!pieces.every((p) => decodes(p.replace(/\+/g, " ")))) {
    return "The query string is not valid percent-encoding (UTF-8)";
  }
  return null;
}

/**
 * How deep a REST body may nest. Trainers' configs and reference files are a few levels deep;
 * thousands of levels overflow the stack of every recursive reader after the parser (zod,
 * JSON.stringify with a replacer, superjson), which would answer 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Refuses (400, like a body that is not JSON) a value nested deeper than MAX_JSON_DEPTH. */
export function refuseDeepJson(value: unknown): void {
  // Iterative, so that the check itself cannot overflow.
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new TRPCError({ code: "BAD_REQUEST", message: `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels` });
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
}

/**
 * Wraps a Next.js route handler: builds the caller's context, maps errors to status codes. A call
 * with an API token counts against its rate limit and leaves an audit row, as tRPC / REST calls do.
 */
export function restRoute<P extends Record<string, string>>(
  fn: (req: Request, ctx: Context, params: P) => Promise<Response>,
) {
  return async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    let ctx: Context | null = null;
    let res: Response;
    try {
      ctx = await createContext({ headers: req.headers });
      if (ctx.tokenRefusal) throw new HttpError(401, ctx.tokenRefusal);
      const principal = ctx.principal;
      const refused = principal?.kind === "token" ? await withinRateLimit(principal) : null;
      if (refused) {
        throw new HttpError(429, refused.message, { "retry-after": String(refused.retryAfterSeconds) });
      }
      const undecodable = undecodableUrl(new URL(req.url));
      if (undecodable) throw new HttpError(400, undecodable);
      res = await fn(req, ctx, await route.params);
    } catch (err) {
      res = errorResponse(err);
    }
    const principal = ctx?.principal;
    if (principal?.kind === "token") {
      tokens.recordTokenUse({
        at: new Date(),
        tokenId: principal.tokenId,
        projectId: principal.projectId,
        method: req.method,
        path: new URL(req.url).pathname,
        status: res.status,
        ip: ctx?.request?.ip ?? null,
      });
    }
    return res;
  };
}
