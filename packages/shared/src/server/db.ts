import { createDb, sqlPool, type Db, type SqlPool } from "@paravt/db";
import { serverEnv } from "./env";

// One client per process. Kept on globalThis so Next.js dev reloads do not open a new pool
// on every edit.
const holder = globalThis as unknown as { __paravtDb?: Db };

export function db(): Db {
  holder.__paravtDb ??= createDb(serverEnv().DATABASE_URL);
  return holder.__paravtDb;
}

/** The pg pool under `db()` (the same connections), for the hot reads Prisma's cost would dominate. */
export function dbPool(): SqlPool {
  return sqlPool(db());
}
