// The Python SDK benchmark (bench/sdk/README.md): a real workbench (`next start` on the production
// build and one worker, scripts/lib/workbench.mjs) on its own database `paravt_bench_sdk` and Redis
// db 12, a fresh user, project and token (scripts/sdk-python-fixture.ts), then bench/sdk/bench.py:
// a 10,000-step, 100,000-point run logged with the SDK against the same points written as JSON
// Lines and uploaded with `npx paravt ingest`. Results: bench/out/sdk/results.json.
//
//   node bench/sdk/run.mjs [--steps 10000] [--repeat 3] [--no-build]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { resolveServices, ROOT, run, withDatabase, withRedisDb } from "../../scripts/lib/env.mjs";
import { migrateDatabase, startWorkbench } from "../../scripts/lib/workbench.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};

const outDir = path.join(ROOT, "bench", "out", "sdk");
fs.mkdirSync(outDir, { recursive: true });
const { pgUrl, redisUrl } = await resolveServices();
const env = {
  ...process.env,
  NODE_ENV: "production",
  AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-secret-bench-only-secret-0123456789",
  WORKER_RECONCILE_MS: "0",
  NEXT_TELEMETRY_DISABLED: "1",
  TURBO_TELEMETRY_DISABLED: "1",
  DATABASE_URL: withDatabase(pgUrl, "paravt_bench_sdk"),
  REDIS_URL: withRedisDb(redisUrl, 12),
  REDIS_PREFIX: "paravt-bench-sdk",
  DATA_DIR: path.join(outDir, "data"),
};
migrateDatabase(env);
if (!args.includes("--no-build")) {
  // A turbo cache hit when apps/web and its dependencies are unchanged since the last build.
  run("npx", ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"], { env });
}
const workbench = await startWorkbench({ env, logDir: outDir, name: "bench" });
let status = 1;
try {
  const made = spawnSync("npx", ["--no-install", "tsx", "scripts/sdk-python-fixture.ts"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`sdk-python-fixture failed:\n${made.stdout}\n${made.stderr}`);
  const fixture = JSON.parse(made.stdout.trim().split("\n").pop());
  const bench = spawnSync(
    "python3",
    [
      "bench/sdk/bench.py",
      "--url",
      workbench.url,
      "--token",
      fixture.token,
      "--project",
      fixture.projectId,
      "--root",
      ROOT,
      "--steps",
      option("steps", "10000"),
      "--repeat",
      option("repeat", "3"),
      "--out",
      path.join(outDir, "results.json"),
    ],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PARAVT_|RANK$|LOCAL_RANK$)/.test(k))),
        PYTHONPATH: path.join(ROOT, "sdk", "python"),
      },
    },
  );
  status = bench.status ?? 1;
} finally {
  await workbench.stop();
}
process.exit(status);
