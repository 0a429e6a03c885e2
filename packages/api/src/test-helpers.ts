// Callers for integration tests: one tRPC caller per role, with real Postgres underneath.
import { db, type Principal } from "@paravt/shared/server";
import { createProjectWithRoles } from "@paravt/db/factories";
import { TRPCError } from "@trpc/server";
import { createCaller } from "./root";

export function callerFor(principal: Principal | null) {
  return createCaller({ principal, user: null });
}

export function userCaller(userId: string) {
  return callerFor({ kind: "user", userId });
}

export async function projectWithRoleCallers() {
  const fx = await createProjectWithRoles(db());
  return {
    ...fx,
    asOwner: userCaller(fx.owner.id),
    asEditor: userCaller(fx.editor.id),
    asViewer: userCaller(fx.viewer.id),
    asOutsider: userCaller(fx.outsider.id),
    anonymous: callerFor(null),
  };
}

/** The tRPC error code a call fails with, or "OK" when it succeeds (other errors are rethrown). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}
