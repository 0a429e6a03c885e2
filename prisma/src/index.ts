export { createDb, type Db } from "./client.js";
export { ensureDatabase, migrate, MIGRATIONS_DIR, type MigrationResult } from "./migrate.js";
export * from "@prisma/client";
