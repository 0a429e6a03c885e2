// Authentication through better-auth: email + password sign-up / sign-in, sessions stored in
// Postgres (users / sessions / accounts / verifications tables of prisma/schema.prisma) and
// carried in an httpOnly cookie. Server-only; the browser uses ./client.
import { clientAddress, db, serverEnv } from "@paravt/shared/server";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { signInLimit } from "./sign-in-limit";

export { SIGN_IN_LIMITS } from "./sign-in-limit";

/**
 * The request header through which better-auth learns the client's address: `authHandler` sets
 * it from `clientAddress()` (TRUSTED_PROXY_HEADER) and drops any value the client sent, so
 * better-auth's own limiter and the sessions' `ipAddress` see the same address as everything else.
 */
export const CLIENT_ADDRESS_HEADER = "x-paravt-client-address";

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
      // better-auth would otherwise believe a single-value X-Forwarded-For from anyone. Without a
      // trusted proxy header there is no address: IP tracking is off, so its limiter (production
      // only) skips rather than putting every client in one shared bucket
      // (dist/api/rate-limiter/index.mjs of better-auth 1.7.25); ours (signInLimit) counts per account.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER], disableIpTracking: !env.TRUSTED_PROXY_HEADER },
    },
    telemetry: { enabled: false },
    // signInLimit: failed sign-ins per account and per address, in Redis (sign-in-limit.ts).
    // nextCookies lets server actions set cookies (harmless for route handlers); it must be last.
    plugins: [signInLimit(), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as unknown as { __paravtAuth?: Auth };

/** Lazily created so that importing this module never needs env (e.g. during `next build`). */
export function auth(): Auth {
  holder.__paravtAuth ??= createAuth();
  return holder.__paravtAuth;
}

/**
 * better-auth's HTTP handler, for the `/api/auth/*` route: the request goes on with
 * `CLIENT_ADDRESS_HEADER` set to `clientAddress()` (or absent), whatever the client sent in it.
 */
export function authHandler(req: Request): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  const address = clientAddress(req.headers);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  return auth().handler(new Request(req, { headers }));
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
