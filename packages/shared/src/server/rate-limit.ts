// Fixed-window request counters in Redis (issue 11: per-token rate limits of the API).
//
// A window opens with the first request of a key and lasts `windowMs`; every request in it
// increments one counter. The counter, its expiry and the time left are read in one MULTI, so
// two servers counting the same token never lose an increment, and a counter always expires (a
// crash between "create" and "expire" cannot leave a key that blocks a token forever).
// Fixed windows allow a burst of up to 2x the limit across a window edge; that is accepted for a
// safety valve against runaway scripts (not a billing meter), in exchange for one key per token.
import { serverEnv } from "./env";
import { redis } from "./redis";

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  count: number;
  limit: number;
  /** Whole seconds until the window closes (at least 1), for a Retry-After header. */
  retryAfterSeconds: number;
}

/** Thrown (as the cause of a TOO_MANY_REQUESTS error) when a caller is over its limit. */
export class RateLimitExceededError extends Error {
  override name = "RateLimitExceededError";
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s`);
  }
}

/** Counts one request of `key` and says whether it is within `limit` per window. */
export async function hitRateLimit(
  key: string,
  limit: number,
  windowMs: number = RATE_LIMIT_WINDOW_MS,
): Promise<RateLimitResult> {
  const k = `${serverEnv().REDIS_PREFIX}:ratelimit:${key}`;
  const replies = await redis().multi().set(k, 0, "PX", windowMs, "NX").incr(k).pttl(k).exec();
  if (!replies) throw new Error("Redis aborted the rate-limit transaction");
  for (const [err] of replies) if (err) throw err;
  const count = Number(replies[1]![1]);
  const ttl = Number(replies[2]![1]);
  const msLeft = ttl > 0 ? ttl : windowMs;
  return { allowed: count <= limit, count, limit, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}

/** The key of an API token's per-minute counter. */
export function tokenRateLimitKey(tokenId: string): string {
  return `token:${tokenId}`;
}
