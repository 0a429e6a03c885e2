// Shared by `npm start` and `npm test`: finds Postgres and Redis (already running locally, or
// started through docker/compose.yml), loads .env, and fails fast with a message that says
// exactly what to provide.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** KEY=VALUE lines of .env (if present) under variables already set in the environment. */
export function loadDotEnv(file = path.join(ROOT, ".env")) {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = line.match(/^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/);
    if (!m || line.trimStart().startsWith("#")) continue;
    const value = m[2].replace(/^(['"])(.*)\1$/, "$2");
    if (process.env[m[1]] === undefined) process.env[m[1]] = value;
  }
}

function canConnect(host, port, timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function dockerAvailable() {
  const res = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], { encoding: "utf8", timeout: 10_000 });
  return res.status === 0 && res.stdout.trim().length > 0;
}

async function waitFor(host, port, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(host, port)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not come up on ${host}:${port} within ${timeoutMs / 1000} s`);
}

async function assertReachable(name, url, defaultPort) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${name} is not a valid URL: ${url}`);
  }
  const port = Number(u.port || defaultPort);
  if (!(await canConnect(u.hostname, port, 2_000))) {
    throw new Error(
      `${name} points at ${u.hostname}:${port}, but nothing answers there. Start the service or fix ${name}.`,
    );
  }
}

/**
 * Makes DATABASE_URL and REDIS_URL point at live servers. Explicit variables win (and must
 * answer); otherwise local services on the standard ports; otherwise Docker compose; otherwise
 * a clear error naming the variables to set.
 */
export async function resolveServices({
  log = console.log,
  env = process.env,
  pgPort = 5432,
  redisPort = 6379,
  docker = dockerAvailable,
} = {}) {
  if (env === process.env) loadDotEnv();
  let pgUrl = env.DATABASE_URL;
  let redisUrl = env.REDIS_URL;
  if (pgUrl) await assertReachable("DATABASE_URL", pgUrl, 5432);
  if (redisUrl) await assertReachable("REDIS_URL", redisUrl, 6379);
  const missing = [];
  if (!pgUrl) {
    if (await canConnect("127.0.0.1", pgPort)) pgUrl = `postgresql://postgres@127.0.0.1:${pgPort}/postgres`;
    else missing.push("postgres");
  }
  if (!redisUrl) {
    if (await canConnect("127.0.0.1", redisPort)) redisUrl = `redis://127.0.0.1:${redisPort}/0`;
    else missing.push("redis");
  }
  if (missing.length) {
    if (!docker()) {
      throw new Error(
        [
          `No ${missing.join(" or ")} found on 127.0.0.1 and no Docker engine to start ${missing.length > 1 ? "them" : "it"}.`,
          "Provide the services through environment variables (or a .env file at the repository root):",
          "  DATABASE_URL=postgresql://USER:PASSWORD@HOST:5432/paravt   (Postgres 15+)",
          "  REDIS_URL=redis://HOST:6379/0                              (Redis 7, maxmemory-policy noeviction)",
          "or install Docker and run again: docker/compose.yml starts both.",
        ].join("\n"),
      );
    }
    log(`starting ${missing.join(" and ")} with docker compose (docker/compose.yml)…`);
    const up = spawnSync(
      "docker",
      ["compose", "-f", path.join(ROOT, "docker", "compose.yml"), "up", "-d", ...missing],
      {
        stdio: "inherit",
      },
    );
    if (up.status !== 0) throw new Error("docker compose up failed (see above)");
    if (missing.includes("postgres")) await waitFor("127.0.0.1", pgPort, "Postgres");
    if (missing.includes("redis")) await waitFor("127.0.0.1", redisPort, "Redis");
    pgUrl ??= `postgresql://postgres@127.0.0.1:${pgPort}/postgres`;
    redisUrl ??= `redis://127.0.0.1:${redisPort}/0`;
  }
  return { pgUrl, redisUrl };
}

/** Same server, another database name. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Same server, another Redis logical database index. */
export function withRedisDb(url, index) {
  const u = new URL(url);
  u.pathname = `/${index}`;
  return u.toString();
}

/** A persistent random AUTH_SECRET for the local demo (var/auth-secret, git-ignored). */
export function localAuthSecret() {
  const file = path.join(ROOT, "var", "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return fs.readFileSync(file, "utf8").trim();
}

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: "inherit", cwd: ROOT, ...opts });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${res.status ?? res.signal})`);
}
