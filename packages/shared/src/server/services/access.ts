// Who may do what in a project. Every service that touches project data starts here, so the
// rule "a non-member sees nothing" lives in one function.
import type { TokenScope } from "@paravt/db";
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

/** A token never exceeds its creator's current role, and its scopes cap it further. */
function tokenRole(userRole: Role, scopes: TokenScope[]): Role {
  const scopeRole: Role = scopes.includes("WRITE") || scopes.includes("LAUNCH") ? "EDITOR" : "VIEWER";
  return hasRole(userRole, scopeRole) ? scopeRole : userRole;
}

/**
 * Resolves the caller's role in a project. For a user, unknown project and "not a member" both
 * raise NotFoundError with the same message, so ids of other projects cannot be probed. A token
 * used on any project but its own is FORBIDDEN whatever the id names: the token already says
 * which project it belongs to, so the answer reveals nothing, and a script learns its mistake.
 */
export async function projectAccess(principal: Principal | null, projectId: string): Promise<ProjectAccess> {
  if (!principal) throw new UnauthorizedError();
  if (principal.kind === "token" && principal.projectId !== projectId) {
    throw new ForbiddenError("This API token belongs to another project");
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
  // Launching GPU/CPU jobs with a token needs the explicit LAUNCH scope (a reviewer's WRITE
  // token must not start training).
  if (
    permission === "runs.launch" &&
    access.principal.kind === "token" &&
    !access.principal.scopes.includes("LAUNCH")
  ) {
    throw new ForbiddenError("This API token lacks the LAUNCH scope");
  }
}
