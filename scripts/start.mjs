#!/usr/bin/env node
// `npm start`: the whole workbench with demo data on this machine.
//   1. find Postgres + Redis (local, or docker compose), 2. generate the Prisma client and build
//   the C++ compute core, 3. migrate, 4. build the web app (cached by turbo), 5. run web +
//   workers until Ctrl-C or SIGTERM, 6. seed.
// Every child runs in its own process group (lib/children.mjs): SIGINT, SIGTERM or SIGHUP sent to
// this process alone stops them all (grandchildren included), waits up to 10 s, kills what is
// left, then exits, so the port is free afterwards.
import fs from "node:fs";
import path from "node:path";
import { createSupervisor } from "./lib/children.mjs";
import { localAuthSecret, resolveServices, ROOT, withDatabase } from "./lib/env.mjs";

const PORT = Number(process.env.PORT ?? 3000);
const children = createSupervisor({ graceMs: 10_000 });
children.handleSignals();

async function main() {
  const { pgUrl, redisUrl } = await resolveServices();
  const env = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: process.env.DATABASE_URL ?? withDatabase(pgUrl, "paravt"),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? "paravt",
    AUTH_SECRET: process.env.AUTH_SECRET ?? localAuthSecret(),
    APP_URL: process.env.APP_URL ?? `http://localhost:${PORT}`,
    DATA_DIR: process.env.DATA_DIR ?? path.join(ROOT, "var", "data"),
    // Videos placed here can be registered by path from the library page.
    MEDIA_ROOTS: process.env.MEDIA_ROOTS ?? path.join(ROOT, "var", "media"),
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
  };
  fs.mkdirSync(path.join(ROOT, "var", "media"), { recursive: true });
  console.log(`database: ${env.DATABASE_URL.replace(/\/\/[^@]*@/, "//***@")}  redis: ${env.REDIS_URL}`);
  const run = (cmd, args) => children.step(cmd, args, { cwd: ROOT, env });
  await run("npm", ["run", "--silent", "-w", "@paravt/db", "generate"]);
  await run(process.execPath, ["kernels/scripts/build.mjs", "--no-tests"]);
  await run("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"]);
  await run("npx", ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"]);

  // Started as plain `node` processes (not through npx) so that SIGTERM reaches the process that
  // does the work and both shut down gracefully.
  children.service("workers", process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(ROOT, "workers"),
    env,
  });
  children.service(
    "web",
    process.execPath,
    [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(PORT)],
    { cwd: path.join(ROOT, "apps", "web"), env },
  );
  await run("npx", ["--no-install", "tsx", "scripts/seed-demo.ts"]);
  // In the background: waits for the workers to import the demo suite, then launches the demo eval.
  children.background("demo evaluation", process.execPath, ["--import", "tsx", "scripts/seed-demo-eval.ts"], {
    cwd: ROOT,
    env,
  });
  console.log(
    [
      "",
      `ParaVT Workbench is running on ${env.APP_URL}`,
      "  demo sign-in: demo@paravt.local / paravt-demo",
      `  videos under ${env.MEDIA_ROOTS} can be registered by path`,
      `  Ctrl-C (or kill ${process.pid}) stops web and workers.`,
      "",
    ].join("\n"),
  );
}

main().catch((err) => {
  if (children.stopping) return; // a signal stopped a step; the supervisor exits
  console.error(`\nnpm start: ${err.message}`);
  void children.stop(1);
});
