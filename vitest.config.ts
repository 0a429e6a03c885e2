import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// One runner for unit (`*.test.ts`) and integration (`*.int.test.ts`) tests of every package.
// Integration tests talk to the real Postgres and Redis named by the test environment
// (scripts/test.mjs sets DATABASE_URL / REDIS_URL to the test database and Redis db index).
export default defineConfig({
  // The web app's tsconfig keeps JSX for Next.js ("preserve"); its component tests need it compiled.
  oxc: { jsx: { runtime: "automatic" } },
  // The web app's "@/" import root (apps/web/tsconfig.json paths); no other package uses "@/".
  resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./apps/web/src/", import.meta.url)) }] },
  test: {
    include: [
      "{apps,packages,workers,prisma}/**/src/**/*.test.{ts,tsx}",
      "{apps,packages,workers,prisma}/**/test/**/*.test.{ts,tsx}",
      "scripts/test/**/*.test.ts",
      "kernels/src/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/.next/**"],
    globalSetup: ["./scripts/vitest-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
