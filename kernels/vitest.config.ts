import { defineConfig } from "vitest/config";

// `npm test -w @paravt/kernels` (the root vitest config runs the same files from the repository root).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
