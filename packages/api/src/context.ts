import { sessionUser } from "@paravt/auth";
import { clientAddress, tokens, type Principal } from "@paravt/shared/server";
import type { Transport } from "./errors";

/** Where a call came from, for the token audit log (and the REST status mapping). */
export interface RequestInfo {
  transport: Transport;
  /** REST: the HTTP method and URL path; tRPC: empty (the procedure's type and path are used). */
  method: string;
  path: string;
  /** The client's address from TRUSTED_PROXY_HEADER (`clientAddress`); null when none is configured. */
  ip: string | null;
  /**
   * Set by the token middleware once the call has its audit row; a REST call still without one
   * never reached a procedure (unknown path, a body that is not JSON) and is recorded after.
   */
  audited?: boolean;
}

export interface Context {
  principal: Principal | null;
  /** Display data of a signed-in user (null for token callers). */
  user: { id: string; name: string; email: string } | null;
  /** Absent for in-process callers (tests' createCaller). */
  request?: RequestInfo;
  /**
   * Why the bearer token sent was refused (unknown, revoked, expired): the 401 of a protected
   * procedure says this instead of "Sign in first", which is for a browser without a session.
   */
  tokenRefusal?: string | null;
}

/**
 * Who is calling: a browser session (cookie) or a project API token
 * (`Authorization: Bearer pvt_...`). An invalid bearer token is anonymous, never an error here:
 * protected procedures then answer UNAUTHORIZED with `tokenRefusal` as the reason. `rest` names the REST call (method and URL
 * path) when the request came through /api/v1; without it the call is a tRPC one.
 */
export async function createContext(opts: {
  headers: Headers;
  rest?: { method: string; path: string };
}): Promise<Context> {
  const request: RequestInfo = opts.rest
    ? { transport: "rest", method: opts.rest.method, path: opts.rest.path, ip: clientAddress(opts.headers) }
    : { transport: "trpc", method: "", path: "", ip: clientAddress(opts.headers) };
  const bearer = opts.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    const { principal, refusal } = await tokens.authenticateToken(bearer);
    return { principal, user: null, request, tokenRefusal: refusal };
  }
  const user = await sessionUser(opts.headers);
  return { principal: user ? { kind: "user", userId: user.id } : null, user, request };
}
