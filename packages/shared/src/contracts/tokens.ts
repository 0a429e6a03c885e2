import { z } from "zod";
import { dbBigIntDigits, id, pageLimit, projectRef, storable } from "./common";

export const TOKEN_SCOPES = ["READ", "WRITE", "LAUNCH"] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

/**
 * What each scope lets a token do. Scopes do not include each other: every operation a token
 * may call declares exactly one of them (`meta.scope` in packages/api/src/trpc.ts). One text for
 * the tokens page, the REST document's operation descriptions and the 403 answers.
 */
export const TOKEN_SCOPE_MEANING = {
  READ: "read data",
  WRITE: "write data and reviews",
  LAUNCH: "launch jobs",
} as const satisfies Record<(typeof TOKEN_SCOPES)[number], string>;

/** Requests per minute a new token may make unless its creator picks another limit. */
export const DEFAULT_TOKEN_RATE_LIMIT = 600;
export const MAX_TOKEN_RATE_LIMIT = 100_000;

export const tokenCreateInput = projectRef.extend({
  name: storable(z.string().trim().min(1, "Give the token a name").max(80)),
  scopes: z.array(tokenScopeSchema).min(1, "Pick at least one scope").max(3),
  // Days until expiry; null = never (owners may still revoke at any time).
  expiresInDays: z.number().int().min(1).max(365).nullable().default(90),
  /** Requests per minute (one fixed window per token); the API answers 429 beyond it. */
  rateLimitPerMinute: z
    .number()
    .int("The rate limit must be a whole number")
    .min(1, "Allow at least 1 request per minute")
    .max(MAX_TOKEN_RATE_LIMIT, `At most ${MAX_TOKEN_RATE_LIMIT.toLocaleString("en")} requests per minute`)
    .default(DEFAULT_TOKEN_RATE_LIMIT),
});

export const tokenRevokeInput = projectRef.extend({ tokenId: id });

export const tokenOutput = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(tokenScopeSchema),
  rateLimitPerMinute: z.number().int(),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
  createdBy: z.string(),
});
export type TokenOutput = z.infer<typeof tokenOutput>;

/** Returned once, at creation: the only time the secret exists outside the caller's hands. */
export const tokenCreatedOutput = z.object({ token: tokenOutput, secret: z.string() });

// ----- audit log (issue 11): one row per request made with a token -----------------------------

export const tokenAuditInput = projectRef.extend({
  /** Only this token's uses; all tokens of the project when absent. */
  tokenId: id.optional(),
  /** The `nextCursor` of the previous page. */
  cursor: dbBigIntDigits("cursor must be the nextCursor of a previous page").optional(),
  limit: pageLimit(200, 50),
});
export type TokenAuditInput = z.infer<typeof tokenAuditInput>;

export const tokenUseOutput = z.object({
  id: z.string(),
  token: z.object({ id: z.string(), name: z.string(), prefix: z.string() }),
  at: z.date(),
  /** The HTTP method of a REST call, or the tRPC procedure type (query / mutation / subscription). */
  method: z.string(),
  /** The REST path (/api/v1/...) or the tRPC procedure path (runs.list). */
  path: z.string(),
  /** The HTTP status the caller got. */
  status: z.number().int(),
  /** The client's address reported by the trusted proxy (TRUSTED_PROXY_HEADER), else null. */
  ip: z.string().nullable(),
});
export type TokenUseOutput = z.infer<typeof tokenUseOutput>;

/** Newest first; nextCursor is null on the last page. */
export const tokenAuditOutput = z.object({ items: z.array(tokenUseOutput), nextCursor: z.string().nullable() });
export type TokenAuditOutput = z.infer<typeof tokenAuditOutput>;
