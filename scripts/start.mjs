#!/usr/bin/env node
// `npm start`: the whole workbench with demo data on this machine.
//   1. find Postgres + Redis (local, or docker compose), 2. generate the Prisma client and build
//   the C++ compute core, 3. migrate, 4. build the web app (cached by turbo), 5. run web +
//   workers until Ctrl-C, 6. seed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { localAuthSecret, resolveServices, ROOT, run, withDatabase } from "./lib/env.mjs";

const PORT = Number(process.env.PORT ?? 3000);

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
  run("npm", ["run", "--silent", "-w", "@paravt/db", "generate"], { env });
  run(process.execPath, ["kernels/scripts/build.mjs", "--no-tests"], { env });
  run("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], { env });
  run("npx", ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"], { env });

  const children = [];
  const start = (name, cmd, args, cwd) => {
    const child = spawn(cmd, args, { cwd: path.join(ROOT, cwd), env, stdio: ["ignore", "pipe", "pipe"] });
    const prefix = (chunk) =>
      chunk
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => `[${name}] ${l}`)
        .join("\n") + "\n";
    child.stdout.on("data", (c) => process.stdout.write(prefix(c)));
    child.stderr.on("data", (c) => process.stderr.write(prefix(c)));
    child.on("exit", (code, signal) => {
      if (!stopping) {
        console.error(`[${name}] exited (${code ?? signal}); stopping the workbench`);
        stop(1);
      }
    });
    children.push(child);
  };
  let stopping = false;
  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill("SIGTERM");
    setTimeout(() => process.exit(code), 10_000).unref();
    Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on("exit", r))))).then(() =>
      process.exit(code),
    );
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));

  // Started as plain `node` processes (not through npx) so that SIGTERM reaches the process that
  // does the work and both shut down gracefully.
  start("workers", process.execPath, ["--import", "tsx", "src/main.ts"], "workers");
  start(
    "web",
    process.execPath,
    [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(PORT)],
    "apps/web",
  );
  run("npx", ["--no-install", "tsx", "scripts/seed-demo.ts"], { env });
  // In the background: waits for the workers to import the demo suite, then launches the demo eval.
  const demoEval = spawn(process.execPath, ["--import", "tsx", "scripts/seed-demo-eval.ts"], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  demoEval.on("error", (err) => console.error(`demo evaluation: ${err.message}`));
  console.log(
    [
      "",
      `ParaVT Workbench is running on ${env.APP_URL}`,
      "  demo sign-in: demo@paravt.local / paravt-demo",
      `  videos under ${env.MEDIA_ROOTS} can be registered by path`,
      "  Ctrl-C stops web and workers.",
      "",
    ].join("\n"),
  );
}

main().catch((err) => {
  console.error(`\nnpm start: ${err.message}`);
  process.exit(1);
});
