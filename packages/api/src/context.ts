import { sessionUser } from "@paravt/auth";
import { tokens, type Principal } from "@paravt/shared/server";

export interface Context {
  principal: Principal | null;
  /** Display data of a signed-in user (null for token callers). */
  user: { id: string; name: string; email: string } | null;
}

/**
 * Who is calling: a browser session (cookie) or a project API token
 * (`Authorization: Bearer pvt_...`). An invalid bearer token is anonymous, never an error here:
 * protected procedures then answer UNAUTHORIZED.
 */
export async function createContext(opts: { headers: Headers }): Promise<Context> {
  const bearer = opts.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    return { principal: await tokens.principalFromToken(bearer), user: null };
  }
  const user = await sessionUser(opts.headers);
  return { principal: user ? { kind: "user", userId: user.id } : null, user };
}
