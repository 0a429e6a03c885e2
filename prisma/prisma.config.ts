// Prisma CLI configuration (DESIGN.md "Prisma"): the JS schema engine with the pg driver adapter,
// so `prisma migrate diff` never needs a native engine binary. Only generate and diff are used;
// migrations are applied by scripts/migrate.ts.
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

export default defineConfig({
  experimental: { adapter: true },
  schema: path.join(import.meta.dirname, "schema.prisma"),
  engine: "js",
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://localhost/unused" }),
});
