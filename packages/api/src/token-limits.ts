// The per-token rate limit of API calls (issue 11), shared by the tRPC/REST middleware (trpc.ts)
// and the byte-stream routes (rest/handler.ts), so every use of a token counts once.
import { hitRateLimit, RateLimitExceededError, tokenRateLimitKey, type Principal } from "@paravt/shared/server";

/** Used when a hand-built token principal (tests) carries no limit; matches the column default. */
const FALLBACK_RATE_LIMIT = 600;

/**
 * Counts the call against the token's per-minute limit. Redis trouble lets the call through
 * (logged): the limit protects the server from runaway scripts, it is not an access rule, and
 * a Redis outage already stops every queue.
 */
export async function withinRateLimit(
  principal: Extract<Principal, { kind: "token" }>,
): Promise<RateLimitExceededError | null> {
  const limit = principal.rateLimitPerMinute ?? FALLBACK_RATE_LIMIT;
  try {
    const res = await hitRateLimit(tokenRateLimitKey(principal.tokenId), limit);
    return res.allowed ? null : new RateLimitExceededError(limit, res.retryAfterSeconds);
  } catch (err) {
    console.error(`rate limit of token ${principal.tokenId} not checked:`, err);
    return null;
  }
}
