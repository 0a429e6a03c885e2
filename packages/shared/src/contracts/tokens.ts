import { z } from "zod";
import { id, projectRef } from "./common";

export const TOKEN_SCOPES = ["READ", "WRITE", "LAUNCH"] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

export const tokenCreateInput = projectRef.extend({
  name: z.string().trim().min(1, "Give the token a name").max(80),
  scopes: z.array(tokenScopeSchema).min(1, "Pick at least one scope").max(3),
  // Days until expiry; null = never (owners may still revoke at any time).
  expiresInDays: z.number().int().min(1).max(365).nullable().default(90),
});

export const tokenRevokeInput = projectRef.extend({ tokenId: id });

export const tokenOutput = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(tokenScopeSchema),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  createdAt: z.date(),
  createdBy: z.string(),
});
export type TokenOutput = z.infer<typeof tokenOutput>;

/** Returned once, at creation: the only time the secret exists outside the caller's hands. */
export const tokenCreatedOutput = z.object({ token: tokenOutput, secret: z.string() });
