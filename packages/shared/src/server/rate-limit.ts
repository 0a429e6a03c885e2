// Fixed-window request counters in Redis (issue 11: per-token rate limits of the API).
//
// A window opens with the first request of a key and lasts `windowMs`; every request in it
// increments one counter. The counter, its expiry and the time left are read in one MULTI, so
// two servers counting the same token never lose an increment, and a counter always expires (a
// crash between "create" and "expire" cannot leave a key that blocks a token forever).
// Fixed windows allow a burst of up to 2x the limit across a window edge; that is accepted for a
// safety valve against runaway scripts (not a billing meter), in exchange for one key per token.
//
// Redis down (issue 37, item 5): the shared connection queues commands while it reconnects
// (`maxRetriesPerRequest: null`, which BullMQ needs), so an unbounded wait here hung every token
// request for the whole outage. A count's wait is therefore bounded: a connection known to be
// down refuses at once (nothing is queued to be replayed later), and any other wait ends after
// `RATE_LIMIT_TIMEOUT_MS` (a command already sent may still count late, when Redis answers).
// Whether a refused count lets the call through is the caller's choice (`withinRateLimit` in
// packages/api fails open).
import type { Redis } from "ioredis";
import { serverEnv } from "./env";
import { redis } from "./redis";

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The longest a count may wait for Redis. A healthy Redis answers a MULTI in well under a
 * millisecond even under load, so this only trips when Redis is unreachable or stuck; it bounds
 * what an outage adds to each token call.
 */
export const RATE_LIMIT_TIMEOUT_MS = 500;

/** Thrown when the counter could not be read (Redis down, slow or refusing). */
export class RateLimitUnavailableError extends Error {
  override name = "RateLimitUnavailableError";
}

/** ioredis states in which a command is sent, or will be once the first connection opens. */
const USABLE = new Set(["wait", "connecting", "connect", "ready"]);

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

export interface HitRateLimitOptions {
  windowMs?: number;
  timeoutMs?: number;
  /** The connection to count on (the shared one by default). */
  client?: Redis;
}

function counterKey(key: string): string {
  return `${serverEnv().REDIS_PREFIX}:ratelimit:${key}`;
}

/**
 * Runs one Redis command with a bounded wait: refused at once on a connection that is
 * reconnecting or closed (the command would sit in the offline queue), and after `timeoutMs`
 * otherwise.
 */
async function bounded<T>(client: Redis, timeoutMs: number, command: () => Promise<T>): Promise<T> {
  if (!USABLE.has(client.status)) throw new RateLimitUnavailableError(`Redis is not connected (${client.status})`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RateLimitUnavailableError(`Redis did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([command(), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Counts one request of `key` and says whether it is within `limit` per window. Rejects with
 * `RateLimitUnavailableError` within `timeoutMs` when Redis cannot answer.
 */
export async function hitRateLimit(
  key: string,
  limit: number,
  opts: HitRateLimitOptions = {},
): Promise<RateLimitResult> {
  const { windowMs = RATE_LIMIT_WINDOW_MS, timeoutMs = RATE_LIMIT_TIMEOUT_MS, client = redis() } = opts;
  const k = counterKey(key);
  const replies = await bounded(client, timeoutMs, () =>
    client.multi().set(k, 0, "PX", windowMs, "NX").incr(k).pttl(k).exec(),
  );
  if (!replies) throw new RateLimitUnavailableError("Redis aborted the rate-limit transaction");
  for (const [err] of replies) if (err) throw err;
  const count = Number(replies[1]![1]);
  const ttl = Number(replies[2]![1]);
  const msLeft = ttl > 0 ? ttl : windowMs;
  return { allowed: count <= limit, count, limit, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}

// Decrements a counter that exists and is above zero; DECR keeps the key's expiry, so the
// window still closes when it would have.
const RELEASE_SCRIPT = `if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end return 0`;

/**
 * Takes back one request `hitRateLimit` counted for `key` in the current window (never below
 * zero). For limits of failures only (the sign-in limiter, packages/auth): an attempt is counted
 * before it runs, so concurrent attempts cannot all pass one check, and released once it
 * succeeded. Same bounded wait and errors as `hitRateLimit`.
 */
export async function releaseRateLimit(
  key: string,
  opts: Pick<HitRateLimitOptions, "timeoutMs" | "client"> = {},
): Promise<void> {
  const { timeoutMs = RATE_LIMIT_TIMEOUT_MS, client = redis() } = opts;
  await bounded(client, timeoutMs, () => client.eval(RELEASE_SCRIPT, 1, counterKey(key)));
}

/** The key of an API token's per-minute counter. */
export function tokenRateLimitKey(tokenId: string): string {
  return `token:${tokenId}`;
}
