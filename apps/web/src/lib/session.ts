import "server-only";
import { sessionUser, type SessionUser } from "@paravt/auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";

/** The signed-in user of a server component, or a redirect to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await sessionUser(await headers());
  if (!user) redirect("/sign-in");
  return user;
}
