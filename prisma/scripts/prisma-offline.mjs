// Runs the Prisma CLI without engine binaries (DESIGN.md "Prisma"): generate and `migrate diff`
// work with the JS/WASM engines as long as these variables point at any existing file, which
// stops the CLI from trying to download binaries on this offline machine.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const schema = path.join(here, "..", "schema.prisma");

export function runPrisma(args) {
  const res = spawnSync("npx", ["--no-install", "prisma", ...args], {
    cwd: path.join(here, ".."),
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? schema,
      PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? schema,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
      // `prisma generate` validates env("DATABASE_URL") only syntactically; any URL will do.
      DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused",
    },
  });
  if (res.status !== 0) {
    process.stderr.write(res.stdout ?? "");
    throw new Error(`prisma ${args.join(" ")} failed with exit code ${res.status}`);
  }
  return res.stdout;
}
