// Plain HTTP route handlers (byte streams that tRPC does not carry: uploads, video files,
// images). Same context and the same domain-error mapping as the tRPC API.
import { DomainError } from "@paravt/shared";
import { createContext, type Context } from "../context";
import { HTTP_STATUS } from "../errors";

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

/** Wraps a Next.js route handler: builds the caller's context, maps errors to status codes. */
export function restRoute<P extends Record<string, string>>(
  fn: (req: Request, ctx: Context, params: P) => Promise<Response>,
) {
  return async (req: Request, route: { params: Promise<P> }): Promise<Response> => {
    try {
      const ctx = await createContext({ headers: req.headers });
      return await fn(req, ctx, await route.params);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
