export { createDb, sqlPool, type Db, type SqlClient, type SqlPool } from "./client";
export { ensureDatabase, migrate, MIGRATIONS_DIR, type MigrationResult } from "./migrate";
export * from "@prisma/client";
