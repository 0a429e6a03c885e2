import type { TokenScope } from "@paravt/db";
import type { TokenAuditInput, TokenAuditOutput, TokenOutput } from "../../contracts/tokens";
import { NotFoundError } from "../../errors";
import { hashTokenSecret, newTokenSecret } from "../crypto";
import { db } from "../db";
import type { Principal, ProjectAccess } from "./access";

const tokenInclude = { createdBy: { select: { email: true } } } as const;

function toOutput(t: {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  rateLimitPerMinute: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  createdBy: { email: string };
}): TokenOutput {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scopes: t.scopes,
    rateLimitPerMinute: t.rateLimitPerMinute,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    lastUsedAt: t.lastUsedAt,
    createdAt: t.createdAt,
    createdBy: t.createdBy.email,
  };
}

export async function createToken(
  access: ProjectAccess,
  input: { name: string; scopes: TokenScope[]; expiresInDays: number | null; rateLimitPerMinute?: number },
): Promise<{ token: TokenOutput; secret: string }> {
  const { secret, hash, prefix } = newTokenSecret();
  const t = await db().apiToken.create({
    data: {
      projectId: access.projectId,
      createdById: access.principal.userId,
      name: input.name,
      prefix,
      tokenHash: hash,
      scopes: [...new Set(input.scopes)],
      expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null,
      // Absent: the column's default (600 per minute).
      ...(input.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
    },
    include: tokenInclude,
  });
  return { token: toOutput(t), secret };
}

export async function listTokens(access: ProjectAccess): Promise<TokenOutput[]> {
  const rows = await db().apiToken.findMany({
    where: { projectId: access.projectId },
    include: tokenInclude,
    orderBy: { createdAt: "desc" },
  });
  return rows.map(toOutput);
}

export async function revokeToken(access: ProjectAccess, tokenId: string): Promise<TokenOutput> {
  const t = await db().apiToken.findFirst({ where: { id: tokenId, projectId: access.projectId } });
  if (!t) throw new NotFoundError("Token");
  const updated = await db().apiToken.update({
    where: { id: t.id },
    data: { revokedAt: t.revokedAt ?? new Date() },
    include: tokenInclude,
  });
  return toOutput(updated);
}

/**
 * The principal behind a bearer secret, or why there is none: the answer a caller gets names the
 * token (a script with a bad token must not be told to "sign in"). Revoked and expired are told
 * apart only for a secret that matches a token, so a guess learns nothing more than "not valid".
 */
export async function authenticateToken(
  secret: string,
): Promise<{ principal: Principal; refusal: null } | { principal: null; refusal: string }> {
  const invalid = { principal: null, refusal: "This API token is not valid (unknown or mistyped)" } as const;
  if (!secret.startsWith("pvt_")) return invalid;
  const t = await db().apiToken.findUnique({ where: { tokenHash: hashTokenSecret(secret) } });
  if (!t) return invalid;
  if (t.revokedAt) return { principal: null, refusal: "This API token was revoked" };
  if (t.expiresAt && t.expiresAt <= new Date()) {
    return { principal: null, refusal: `This API token expired on ${t.expiresAt.toISOString()}` };
  }
  await db().apiToken.update({ where: { id: t.id }, data: { lastUsedAt: new Date() } });
  return {
    principal: {
      kind: "token",
      userId: t.createdById,
      tokenId: t.id,
      projectId: t.projectId,
      scopes: t.scopes,
      rateLimitPerMinute: t.rateLimitPerMinute,
    },
    refusal: null,
  };
}

/** The principal behind a bearer secret, or null if unknown, revoked or expired. */
export async function principalFromToken(secret: string): Promise<Principal | null> {
  return (await authenticateToken(secret)).principal;
}

// ----- audit log (issue 11) ----------------------------------------------------------------------

export interface TokenUse {
  /** When the call came in (the row itself may be written later). */
  at: Date;
  tokenId: string;
  projectId: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
}

// Writes in flight. The API never waits for an audit row before answering (a slow or failing
// insert must not slow or fail the request); tests and shutdown wait for them here.
const pending = new Set<Promise<void>>();

/**
 * Records one request made with a token, in the background: a failure is logged and the
 * request goes on. Path and method are cut to the column-friendly lengths a URL can exceed.
 */
export function recordTokenUse(use: TokenUse): void {
  const write = db()
    .tokenUse.create({
      data: {
        at: use.at,
        tokenId: use.tokenId,
        projectId: use.projectId,
        method: use.method.slice(0, 16),
        path: use.path.slice(0, 1000),
        status: use.status,
        ip: use.ip?.slice(0, 100) ?? null,
      },
    })
    .then(
      () => undefined,
      (err: unknown) => {
        console.error(`token audit: could not record ${use.method} ${use.path} of token ${use.tokenId}:`, err);
      },
    );
  pending.add(write);
  void write.finally(() => pending.delete(write));
}

/** Resolves once every audit row recorded so far is written (or has failed and been logged). */
export async function settleTokenUses(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

/** The project's token uses, newest first, optionally of one token; cursor = the last row's id. */
export async function listTokenUses(
  access: ProjectAccess,
  input: Omit<TokenAuditInput, "projectId">,
): Promise<TokenAuditOutput> {
  if (input.tokenId) {
    const token = await db().apiToken.findFirst({ where: { id: input.tokenId, projectId: access.projectId } });
    if (!token) throw new NotFoundError("Token");
  }
  const rows = await db().tokenUse.findMany({
    where: { projectId: access.projectId, ...(input.tokenId ? { tokenId: input.tokenId } : {}) },
    // `at` leads so the (project_id, at) / (token_id, at) indexes serve the page; id breaks ties.
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: BigInt(input.cursor) }, skip: 1 } : {}),
    include: { token: { select: { id: true, name: true, prefix: true } } },
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((r) => ({
      id: r.id.toString(),
      token: r.token,
      at: r.at,
      method: r.method,
      path: r.path,
      status: r.status,
      ip: r.ip,
    })),
    nextCursor: rows.length > input.limit ? page[page.length - 1]!.id.toString() : null,
  };
}
