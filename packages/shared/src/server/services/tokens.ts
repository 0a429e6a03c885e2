import type { TokenScope } from "@paravt/db";
import type { TokenOutput } from "../../contracts/tokens";
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
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  createdBy: { email: string };
}): TokenOutput {
  return { ...t, createdBy: t.createdBy.email };
}

export async function createToken(
  access: ProjectAccess,
  input: { name: string; scopes: TokenScope[]; expiresInDays: number | null },
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

/** The principal behind a bearer secret, or null if unknown, revoked or expired. */
export async function principalFromToken(secret: string): Promise<Principal | null> {
  if (!secret.startsWith("pvt_")) return null;
  const t = await db().apiToken.findUnique({ where: { tokenHash: hashTokenSecret(secret) } });
  if (!t || t.revokedAt || (t.expiresAt && t.expiresAt <= new Date())) return null;
  await db().apiToken.update({ where: { id: t.id }, data: { lastUsedAt: new Date() } });
  return { kind: "token", userId: t.createdById, tokenId: t.id, projectId: t.projectId, scopes: t.scopes };
}
