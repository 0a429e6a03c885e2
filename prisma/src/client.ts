import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";

export type Db = PrismaClient;

/**
 * A Prisma client over the pg driver adapter (no engine binary, DESIGN.md "Prisma").
 * Each deployable creates one from its validated env and shares it.
 */
export function createDb(databaseUrl: string, opts: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
}
