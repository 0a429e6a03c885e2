import { createDb, Prisma, type Db } from "@paravt/db";
import { serverEnv } from "./env";

// One client per process. Kept on globalThis so Next.js dev reloads do not open a new pool
// on every edit.
const holder = globalThis as unknown as { __paravtDb?: Db };

export function db(): Db {
  holder.__paravtDb ??= createDb(serverEnv().DATABASE_URL);
  return holder.__paravtDb;
}

/**
 * A unique constraint refused the write (Prisma P2002). Prisma's upsert is a read, then an insert or
 * an update, so two concurrent upserts of a new row can both insert: the loser sees this and retries.
 */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}
