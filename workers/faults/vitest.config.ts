import { defineConfig } from "vitest/config";

// The fault suite (`npm run test:faults`, also the last stage of `npm test`): real outages of a
// private Postgres and Redis and real worker kills, one file at a time (they share the services).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["*.fault.test.ts"],
    globalSetup: ["./global-setup.ts"],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
