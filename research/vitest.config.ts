import { defineConfig } from "vitest/config";

// `npm run test:research`: the lab's own tests (quality scripts, curricula, the PyTorch mirror's
// export and its numpy parity check, which needs python3 with numpy). The product's `npm test`
// never runs them.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 60_000,
  },
});
