// Lint: typescript-eslint recommended + React hooks, and project rules of STYLE.md.
// The dependency direction is checked by dependency-cruiser (.dependency-cruiser.cjs).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/dist/**",
      "var/**",
      "bench/out/**",
      "**/next-env.d.ts",
      "**/*.cjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-console": "off",
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    // Deployable code reads its validated env module, never process.env (STYLE.md "Config").
    files: ["apps/**/src/**/*.{ts,tsx}", "packages/**/src/**/*.ts", "workers/src/**/*.ts"],
    ignores: ["**/*.test.ts", "packages/cli/**", "packages/video/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the validated env module (serverEnv / workerEnv) instead.",
        },
      ],
    },
  },
  {
    // File names: kebab-case everywhere except Next.js route conventions.
    files: ["**/*.{ts,tsx}"],
    rules: {},
  },
);
