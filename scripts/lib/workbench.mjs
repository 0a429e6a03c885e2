// A real workbench for tests and benchmarks that talk to it over HTTP from another language (the
// Python SDK's pytest phase of `npm test`, bench/sdk): one worker process and `next start` on the
// existing production build, on a free port, with the caller's database and Redis. The same
// processes the e2e phase starts (e2e/global-setup.ts, e2e/playwright.config.ts).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { groupAlive } from "./children.mjs";
import { ROOT } from "./env.mjs";

/** A TCP port nothing listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a child in its own process group (so a stop reaches its children too), its output in
 * `logFile`. Resolves once `ready(outputSoFar)` is true; rejects when it exits first or after
 * `timeoutMs`, quoting its output.
 */
async function startChild(name, cmd, args, { cwd, env, logFile, ready, timeoutMs = 120_000 }) {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = fs.createWriteStream(logFile);
  let output = "";
  const keep = (c) => {
    output += c.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.on("exit", (code, signal) => (exited = code ?? signal));
  const deadline = Date.now() + timeoutMs;
  while (!(await ready(output).catch(() => false))) {
    if (exited !== null) throw new Error(`${name} exited (${exited}) before it was ready:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`${name} was not ready within ${timeoutMs / 1000} s:\n${output.slice(-4000)}`);
    }
    await delay(250);
  }
  return child;
}

/** SIGTERM to the child's group, SIGKILL to what still runs 10 s later. */
async function stopChild(child) {
  const pgid = child.pid;
  if (pgid === undefined) return;
  const signal = (sig) => {
    try {
      process.kill(-pgid, sig);
    } catch {
      // the group is already empty
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + 10_000;
  while (groupAlive(pgid) && Date.now() < deadline) await delay(50);
  if (groupAlive(pgid)) signal("SIGKILL");
}

/** Creates the database if needed and applies the migrations (prisma/scripts/migrate.ts). */
export function migrateDatabase(env) {
  const res = spawnSync("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`migrate failed:\n${res.stdout}\n${res.stderr}`);
}

/**
 * Starts one worker and `next start` (apps/web must be built) against `env`'s DATABASE_URL,
 * REDIS_URL, REDIS_PREFIX and DATA_DIR. Logs go to `<logDir>/<name>-worker.log` and
 * `<name>-web.log`. Returns the base URL and `stop()`.
 */
export async function startWorkbench({ env, logDir, name, port }) {
  fs.mkdirSync(logDir, { recursive: true });
  const webPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${webPort}`;
  const childEnv = { ...env, APP_URL: url };
  const worker = await startChild("worker", process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(ROOT, "workers"),
    env: childEnv,
    logFile: path.join(logDir, `${name}-worker.log`),
    ready: async (output) => output.includes("worker started"),
  });
  let web;
  try {
    web = await startChild(
      "web",
      process.execPath,
      [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(webPort)],
      {
        cwd: path.join(ROOT, "apps", "web"),
        env: childEnv,
        logFile: path.join(logDir, `${name}-web.log`),
        ready: async () => (await fetch(`${url}/api/health`)).ok,
      },
    );
  } catch (err) {
    await stopChild(worker);
    throw err;
  }
  return {
    url,
    async stop() {
      await Promise.all([stopChild(web), stopChild(worker)]);
    },
  };
}
