// Limits on failed sign-ins (issue 37 item 10), kept in Redis so every web process counts the
// same attempts (better-auth's own limiter keeps its counters in the memory of one process).
//
// - Per account: at most `SIGN_IN_LIMITS.account.max` failed attempts per window for one
//   normalized email, whatever address they come from, and whether or not the account exists:
//   an unknown email is counted, refused and answered exactly like a known one, so the limiter
//   tells nobody which accounts exist.
// - Per client address: at most `SIGN_IN_LIMITS.address.max` failed attempts per window from one
//   address (an IPv6 /64), across accounts, against password spraying. Only when
//   TRUSTED_PROXY_HEADER is configured: without a proxy we trust there is no address to count by,
//   and a forwarded header a client picks would give it a fresh bucket per request.
// Beyond either: 429 with Retry-After, before any password is checked.
//
// Only failures count: an attempt is counted when it starts (so a burst of concurrent attempts
// cannot all pass one check) and taken back when it succeeds. A success does not clear earlier
// failures: the attacker may be the one who just guessed right, and the window is short.
//
// A better-auth plugin, so it runs on better-auth's own route match ("/sign-in/email" whatever
// the URL spelling) after the origin check and body parsing, and sees the outcome: before / after
// hooks of `dispatchAuthEndpoint` (better-auth 1.7.25, dist/api/dispatch.mjs: an APIError thrown
// by a before hook becomes the response with its headers; after hooks see `context.returned`,
// the endpoint's result or its APIError).
//
// Redis down or slower than RATE_LIMIT_TIMEOUT_MS: the attempt goes through (fail open), logged.
// Failing closed would lock every user out of the UI for as long as Redis is down (sessions live
// in Postgres and keep working), while a brute force still pays a scrypt hash per guess, and with
// a trusted proxy header better-auth's in-process limiter (3 sign-ins per 10 s per address in
// production) still applies.
import { createHash } from "node:crypto";
import { addressBucket, clientAddress, hitRateLimit, releaseRateLimit } from "@paravt/shared/server";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";

export const SIGN_IN_LIMITS = {
  /** Failed attempts per normalized email. */
  account: { max: 10, windowMs: 15 * 60_000 },
  /** Failed attempts per client address, across accounts (only with TRUSTED_PROXY_HEADER). */
  address: { max: 30, windowMs: 15 * 60_000 },
} as const;

const SIGN_IN_PATH = "/sign-in/email";

/** At most one "not checked" log line per this interval, so an outage does not flood the log. */
const LOG_INTERVAL_MS = 60_000;
let lastLogAt = 0;
let unloggedSkips = 0;

function logSkip(err: unknown) {
  unloggedSkips++;
  const now = Date.now();
  if (now - lastLogAt < LOG_INTERVAL_MS) return;
  console.error(
    `sign-in limits not checked (${unloggedSkips} attempt(s) let through since the last report):`,
    (err as Error).message,
  );
  lastLogAt = now;
  unloggedSkips = 0;
}

interface Counter {
  key: string;
  max: number;
  windowMs: number;
}

/** The counters a sign-in attempt is counted in, from its body and request headers. */
function signInCounters(body: unknown, headers: Headers | undefined): Counter[] {
  const counters: Counter[] = [];
  const email = (body as { email?: unknown } | undefined)?.email;
  // better-auth looks the account up by the lower-cased email; trimming too only merges spellings
  // it refuses anyway. Hashed: no email in Redis, and a key of bounded length whatever was sent.
  if (typeof email === "string" && email.trim()) {
    const digest = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
    counters.push({ key: `sign-in:account:${digest}`, ...SIGN_IN_LIMITS.account });
  }
  const address = headers ? clientAddress(headers) : null;
  if (address) counters.push({ key: `sign-in:address:${addressBucket(address)}`, ...SIGN_IN_LIMITS.address });
  return counters;
}

async function release(counters: Counter[]) {
  try {
    await Promise.all(counters.map((c) => releaseRateLimit(c.key)));
  } catch (err) {
    logSkip(err);
  }
}

function tooMany(retryAfterSeconds: number): APIError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new APIError(
    "TOO_MANY_REQUESTS",
    {
      code: "TOO_MANY_SIGN_IN_ATTEMPTS",
      message: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    },
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** The better-auth plugin that enforces `SIGN_IN_LIMITS` on POST /sign-in/email. */
export function signInLimit() {
  return {
    id: "paravt-sign-in-limit",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const counted: Counter[] = [];
            try {
              for (const counter of signInCounters(ctx.body, ctx.headers)) {
                const res = await hitRateLimit(counter.key, counter.max, { windowMs: counter.windowMs });
                if (!res.allowed) {
                  // Refused before it ran: the counters this attempt already took are given back.
                  await release(counted);
                  throw tooMany(res.retryAfterSeconds);
                }
                counted.push(counter);
              }
            } catch (err) {
              if (err instanceof APIError) throw err;
              logSkip(err);
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            // A success (a session was created) is not a failed attempt: take it back.
            if (ctx.context.returned instanceof Error) return;
            await release(signInCounters(ctx.body, ctx.headers));
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
