#!/usr/bin/env node
// `npm test`: every test, against the TEST database and Redis db index (never the demo's).
//   1. unit + integration tests (vitest, real Postgres and Redis),
//   2. the fault suite (workers/faults: its own Postgres and Redis, stopped, killed and frozen
//      under a real worker process during an evaluation and a training run),
//   3. e2e tests (Playwright in Debian Chromium against a production build of the web app and a
//      real worker process),
//   4. the Python SDK's tests (pytest, sdk/python/tests) against the same production build and a
//      real worker, on their own database and Redis db.
// Ends with one summary line "N passed, N failed" over every runner.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { resolveServices, ROOT, run, withDatabase, withRedisDb } from "./lib/env.mjs";
import { migrateDatabase, startWorkbench } from "./lib/workbench.mjs";

const only = process.argv[2]; // optional: "unit" (vitest only), "faults", "e2e" or "python"
// After "python": arguments handed to pytest (`node scripts/test.mjs python -k two_processes`).
const pytestArgs = only === "python" ? process.argv.slice(3) : [];
// With "e2e", further arguments are spec files (or name filters) handed to Playwright.
const specs = only === "e2e" ? process.argv.slice(3) : [];

async function main() {
  const { pgUrl, redisUrl } = await resolveServices();
  const base = {
    ...process.env,
    NODE_ENV: "test",
    AUTH_SECRET: "test-only-secret-test-only-secret-0123456789",
    // Test files share a database under different Redis prefixes, and the e2e database keeps rows
    // of earlier runs: a worker's run reconciler would take those rows for lost jobs. The fault
    // suite (faults/) runs it against its own database.
    WORKER_RECONCILE_MS: "0",
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
  };
  const outDir = path.join(ROOT, "var", "test-results");
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  run("npm", ["run", "--silent", "-w", "@paravt/db", "generate"], { env: base });
  // The C++ compute core (N-API addon + C++ test binaries); a no-op when up to date.
  run(process.execPath, ["kernels/scripts/build.mjs"], { env: base });

  const totals = { passed: 0, failed: 0, skipped: 0 };
  let ok = true;

  if (only === undefined || only === "unit") {
    const env = {
      ...base,
      DATABASE_URL: withDatabase(pgUrl, "paravt_test"),
      // Redis db 15 and its own key prefix: flushing it can never touch the demo's queues.
      REDIS_URL: withRedisDb(redisUrl, 15),
      REDIS_PREFIX: "paravt-test",
      DATA_DIR: path.join(ROOT, "var", "test-data"),
    };
    run("npx", ["--no-install", "tsx", "scripts/flush-redis.ts"], { env });
    const report = path.join(outDir, "vitest.json");
    const res = spawnSync(
      "npx",
      ["--no-install", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      { stdio: "inherit", cwd: ROOT, env },
    );
    ok &&= res.status === 0;
    if (fs.existsSync(report)) {
      const r = JSON.parse(fs.readFileSync(report, "utf8"));
      totals.passed += r.numPassedTests;
      totals.failed += r.numFailedTests;
      totals.skipped += r.numPendingTests + r.numTodoTests;
    } else ok = false;
  }

  if (only === undefined || only === "faults") {
    // The suite's global setup starts and stops its own services (workers/faults/services.ts).
    const report = path.join(outDir, "faults.json");
    const res = spawnSync(
      "npx",
      [
        "--no-install",
        "vitest",
        "run",
        "-c",
        "workers/faults/vitest.config.ts",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${report}`,
      ],
      { stdio: "inherit", cwd: ROOT, env: base },
    );
    ok &&= res.status === 0;
    if (fs.existsSync(report)) {
      const r = JSON.parse(fs.readFileSync(report, "utf8"));
      totals.passed += r.numPassedTests;
      totals.failed += r.numFailedTests;
      totals.skipped += r.numPendingTests + r.numTodoTests;
    } else ok = false;
  }

  if (only === undefined || only === "e2e") {
    const env = {
      ...base,
      DATABASE_URL: withDatabase(pgUrl, "paravt_e2e_test"),
      REDIS_URL: withRedisDb(redisUrl, 14),
      REDIS_PREFIX: "paravt-e2e",
      DATA_DIR: path.join(ROOT, "var", "e2e-data"),
      E2E_PORT: process.env.E2E_PORT ?? "3100",
    };
    env.APP_URL = `http://localhost:${env.E2E_PORT}`;
    run("npx", ["--no-install", "tsx", "scripts/flush-redis.ts"], { env });
    run("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], { env });
    run("npx", ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"], { env });
    const report = path.join(outDir, "playwright.json");
    const res = spawnSync("npx", ["--no-install", "playwright", "test", "-c", "e2e/playwright.config.ts", ...specs], {
      stdio: "inherit",
      cwd: ROOT,
      env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    ok &&= res.status === 0;
    if (fs.existsSync(report)) {
      const s = JSON.parse(fs.readFileSync(report, "utf8")).stats;
      totals.passed += s.expected;
      totals.failed += s.unexpected + s.flaky;
      totals.skipped += s.skipped;
    } else ok = false;
  }

  if (only === undefined || only === "python") {
    const r = await pythonTests({ base, pgUrl, redisUrl, outDir });
    ok &&= r.ok;
    totals.passed += r.passed;
    totals.failed += r.failed;
    totals.skipped += r.skipped;
  }

  console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok && totals.failed === 0 ? 0 : 1);
}

/** Counts of a pytest JUnit XML report (its <testsuite> totals). */
function junitCounts(xml) {
  const suite = /<testsuite\b([^>]*)>/.exec(xml);
  if (!suite) return null;
  const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite[1])?.[1] ?? 0);
  const failed = attr("failures") + attr("errors");
  const skipped = attr("skipped");
  return { passed: attr("tests") - failed - skipped, failed, skipped };
}

/**
 * The Python SDK's pytest suite against a real workbench: `next start` on the production build (the
 * e2e phase's, or built here) and one worker (scripts/lib/workbench.mjs) on database
 * `paravt_py_test` and Redis db 13, a fresh user with two projects and tokens
 * (scripts/sdk-python-fixture.ts) handed to pytest as PARAVT_TEST_*. No install: the SDK is on
 * PYTHONPATH (it has no dependencies).
 */
async function pythonTests({ base, pgUrl, redisUrl, outDir }) {
  const failed = { ok: false, passed: 0, failed: 1, skipped: 0 };
  const pytest = spawnSync("python3", ["-m", "pytest", "--version"], { encoding: "utf8" });
  if (pytest.status !== 0) {
    console.error("\npython tests: python3 with pytest is required (python3 -m pip install pytest)");
    return failed;
  }
  const env = {
    ...base,
    DATABASE_URL: withDatabase(pgUrl, "paravt_py_test"),
    // Redis db 13 with its own prefix; the phase queues no jobs, so there is nothing to flush.
    REDIS_URL: withRedisDb(redisUrl, 13),
    REDIS_PREFIX: "paravt-py-test",
    DATA_DIR: path.join(ROOT, "var", "py-test-data"),
  };
  migrateDatabase(env);
  run("npx", ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"], { env });
  const workbench = await startWorkbench({ env, logDir: outDir, name: "python" });
  try {
    const made = spawnSync("npx", ["--no-install", "tsx", "scripts/sdk-python-fixture.ts"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`sdk-python-fixture failed:\n${made.stdout}\n${made.stderr}`);
    const fixture = JSON.parse(made.stdout.trim().split("\n").pop());
    const report = path.join(outDir, "pytest.xml");
    // Only what the tests need: no PARAVT_* or RANK of the caller's shell reaches the SDK.
    const pyEnv = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(PARAVT_|RANK$|LOCAL_RANK$)/.test(k)),
    );
    const res = spawnSync(
      "python3",
      ["-m", "pytest", "sdk/python/tests", "-q", "-p", "no:cacheprovider", `--junitxml=${report}`, ...pytestArgs],
      {
        stdio: "inherit",
        cwd: ROOT,
        env: {
          ...pyEnv,
          PYTHONPATH: path.join(ROOT, "sdk", "python"),
          PYTHONDONTWRITEBYTECODE: "1",
          PARAVT_TEST_URL: workbench.url,
          PARAVT_TEST_PROJECT: fixture.projectId,
          PARAVT_TEST_TOKEN: fixture.token,
          PARAVT_TEST_OTHER_PROJECT: fixture.otherProjectId,
          PARAVT_TEST_OTHER_TOKEN: fixture.otherToken,
        },
      },
    );
    const counts = fs.existsSync(report) ? junitCounts(fs.readFileSync(report, "utf8")) : null;
    if (!counts) return failed;
    return { ok: res.status === 0, ...counts };
  } finally {
    await workbench.stop();
  }
}

main().catch((err) => {
  console.error(`\nnpm test: ${err.message}`);
  process.exit(1);
});
