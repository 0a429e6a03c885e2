// Plain HTTP route handlers (byte streams that tRPC does not carry: uploads, video files,
// images). Same context and the same domain-error mapping as the tRPC API.
import { DomainError } from "@paravt/shared";
import { tokens } from "@paravt/shared/server";
import { createContext, type Context } from "../context";
import { HTTP_STATUS } from "../errors";
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
  if (err instanceof DomainError) return Response.json({ error: err.message }, { status: HTTP_STATUS[err.code] });
  console.error("route failed:", err);
  return Response.json({ error: "Internal server error" }, { status: 500 });
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
      const principal = ctx.principal;
      const refused = principal?.kind === "token" ? await withinRateLimit(principal) : null;
      if (refused) {
        throw new HttpError(429, refused.message, { "retry-after": String(refused.retryAfterSeconds) });
      }
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
        ip: req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null,
      });
    }
    return res;
  };
}
