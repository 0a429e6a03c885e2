// The per-token rate limit of API calls (issue 11), shared by the tRPC/REST middleware (trpc.ts)
// and the byte-stream routes (rest/handler.ts), so every use of a token counts once.
import { hitRateLimit, RateLimitExceededError, tokenRateLimitKey, type Principal } from "@paravt/shared/server";

/** Used when a hand-built token principal (tests) carries no limit; matches the column default. */
const FALLBACK_RATE_LIMIT = 600;

/** At most one "not checked" log line per this interval, so an outage does not flood the log. */
const LOG_INTERVAL_MS = 60_000;
let lastLogAt = 0;
let unloggedSkips = 0;

/**
 * Counts the call against the token's per-minute limit.
 *
 * Fails OPEN: when Redis cannot count (down, or slower than `RATE_LIMIT_TIMEOUT_MS`, issue 37
 * item 5) the call goes through, after at most that wait, and the skip is logged. The limit is a
 * safety valve against runaway scripts, not an access rule (authentication and scopes are checked
 * in Postgres either way), and failing closed would turn a Redis outage, which already stops
 * every queue, into an outage of the whole token API, reads included.
 */
export async function withinRateLimit(
  principal: Extract<Principal, { kind: "token" }>,
): Promise<RateLimitExceededError | null> {
  const limit = principal.rateLimitPerMinute ?? FALLBACK_RATE_LIMIT;
  try {
    const res = await hitRateLimit(tokenRateLimitKey(principal.tokenId), limit);
    return res.allowed ? null : new RateLimitExceededError(limit, res.retryAfterSeconds);
  } catch (err) {
    unloggedSkips++;
    const now = Date.now();
    if (now - lastLogAt >= LOG_INTERVAL_MS) {
      console.error(
        `rate limits not checked (${unloggedSkips} call(s) let through since the last report; token ${principal.tokenId}):`,
        (err as Error).message,
      );
      lastLogAt = now;
      unloggedSkips = 0;
    }
    return null;
  }
}
