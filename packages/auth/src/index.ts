// Authentication through better-auth: email + password sign-up / sign-in, sessions stored in
// Postgres (users / sessions / accounts / verifications tables of prisma/schema.prisma) and
// carried in an httpOnly cookie. Server-only; the browser uses ./client.
import { db, serverEnv } from "@paravt/shared/server";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";

function createAuth() {
  const env = serverEnv();
  return betterAuth({
    appName: "ParaVT Workbench",
    baseURL: env.APP_URL,
    secret: env.AUTH_SECRET,
    database: prismaAdapter(db(), { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      autoSignIn: true,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 14,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      // Secure cookies need HTTPS; the demo runs on http://localhost.
      useSecureCookies: env.APP_URL.startsWith("https://"),
    },
    telemetry: { enabled: false },
    // Lets server actions set cookies; harmless for route handlers.
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as unknown as { __paravtAuth?: Auth };

/** Lazily created so that importing this module never needs env (e.g. during `next build`). */
export function auth(): Auth {
  holder.__paravtAuth ??= createAuth();
  return holder.__paravtAuth;
}

export interface SessionUser {
  id: string;
  name: string;
  email: string;
}

/** The signed-in user behind request headers (cookie), or null. */
export async function sessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await auth().api.getSession({ headers });
  if (!session) return null;
  return { id: session.user.id, name: session.user.name, email: session.user.email };
}
