export { createDb, type Db } from "./client";
export { ensureDatabase, migrate, MIGRATIONS_DIR, type MigrationResult } from "./migrate";
export * from "@prisma/client";
