// Who may do what in a project. Every service that touches project data starts here, so the
// rule "a non-member sees nothing" lives in one function.
import type { TokenScope } from "@paravt/db";
import { TOKEN_SCOPE_MEANING } from "../../contracts/tokens";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../../errors";
import { can, hasRole, type Permission, type Role } from "../../roles";
import { db } from "../db";

export type Principal =
  | { kind: "user"; userId: string }
  | {
      kind: "token";
      userId: string;
      tokenId: string;
      projectId: string;
      scopes: TokenScope[];
      /** Requests per minute (ApiToken.rateLimitPerMinute); principalFromToken always sets it. */
      rateLimitPerMinute?: number;
    };

export interface ProjectAccess {
  projectId: string;
  role: Role;
  principal: Principal;
}

/**
 * A token never exceeds its creator's current role, and its scopes cap it further: WRITE or
 * LAUNCH act as at most an editor, READ alone as a viewer. (Which operations a token may call at
 * all is its scopes' business: assertTokenScope.)
 */
function tokenRole(userRole: Role, scopes: TokenScope[]): Role {
  const scopeRole: Role = scopes.includes("WRITE") || scopes.includes("LAUNCH") ? "EDITOR" : "VIEWER";
  return hasRole(userRole, scopeRole) ? scopeRole : userRole;
}

/**
 * A token may call an operation only when it holds the one scope the operation declares; its
 * other scopes do not count (a LAUNCH-only token cannot write, a WRITE-only one cannot read).
 * Signed-in people have no scopes: their role alone decides.
 */
export function assertTokenScope(principal: Principal, scope: TokenScope): void {
  if (principal.kind === "token" && !principal.scopes.includes(scope)) {
    throw new ForbiddenError(`This API token lacks the ${scope} scope (${TOKEN_SCOPE_MEANING[scope]})`);
  }
}

/** The refusal of a token on what is for signed-in people only (tokens, members, project settings). */
export function refuseTokens(principal: Principal): void {
  if (principal.kind === "token") {
    throw new ForbiddenError("API tokens cannot do this: it is for signed-in people only");
  }
}

/**
 * Resolves the caller's role in a project. For a user, unknown project and "not a member" both
 * raise NotFoundError with the same message, so ids of other projects cannot be probed. A token
 * used on any project but its own is FORBIDDEN whatever the id names: the token already says
 * which project it belongs to, so the answer reveals nothing, and a script learns its mistake.
 *
 * `scope` is the one the operation declares for tokens. A token without it is refused, and so is
 * a token where the caller names no scope: forgetting the declaration closes the door to tokens
 * instead of opening every scope.
 */
export async function projectAccess(
  principal: Principal | null,
  projectId: string,
  scope?: TokenScope,
): Promise<ProjectAccess> {
  if (!principal) throw new UnauthorizedError();
  if (principal.kind === "token") {
    if (principal.projectId !== projectId) throw new ForbiddenError("This API token belongs to another project");
    if (!scope) refuseTokens(principal);
    else assertTokenScope(principal, scope);
  }
  const membership = await db().membership.findUnique({
    where: { projectId_userId: { projectId, userId: principal.userId } },
    select: { role: true },
  });
  if (!membership) throw new NotFoundError("Project");
  const role = principal.kind === "token" ? tokenRole(membership.role, principal.scopes) : membership.role;
  return { projectId, role, principal };
}

export function assertCan(access: ProjectAccess, permission: Permission): void {
  if (!can(access.role, permission)) {
    throw new ForbiddenError(`Your role (${access.role.toLowerCase()}) cannot do this: ${permission}`);
  }
  // Every launching procedure declares LAUNCH; this backstop keeps a token without it from
  // starting jobs even if a procedure declared another scope by mistake.
  if (permission === "runs.launch") assertTokenScope(access.principal, "LAUNCH");
}
