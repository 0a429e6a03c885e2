import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";

export type Db = PrismaClient;
export type SqlPool = pg.Pool;
/** One connection of a `SqlPool` (`pool.connect()`), for a transaction. */
export type SqlClient = pg.PoolClient;

const pools = new WeakMap<Db, pg.Pool>();

/**
 * A Prisma client over the pg driver adapter (no engine binary, DESIGN.md "Prisma").
 * Each deployable creates one from its validated env and shares it. Its pool is ours, so the
 * few hot reads that Prisma's own cost would dominate can use the same connections (`sqlPool`).
 */
export function createDb(databaseUrl: string, opts: { maxConnections?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.maxConnections ?? 10 });
  // An idle connection that breaks (the server restarted) is dropped by the pool and the next
  // query connects again; without a listener its error event would end the process.
  pool.on("error", () => {});
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a client made by `createDb` (the same connections; `$disconnect` ends it).
 * For reads where Prisma's ~2 ms of CPU per statement (measured: `SELECT 1` 2.0 ms through
 * `$queryRaw`, 0.3 ms through pg) is most of the cost: the run page's chart reads
 * (bench/metrics/README.md).
 */
export function sqlPool(db: Db): SqlPool {
  const pool = pools.get(db);
  if (!pool) throw new Error("sqlPool: this client was not made by createDb");
  return pool;
}
