// The fault suite's own Postgres and Redis: started from the machine's binaries on spare ports,
// with data under var/faults, so that stopping, killing and freezing them touches nothing else
// (not the test database other suites use, not the demo). The global setup starts them and
// writes their coordinates to FAULTS_* variables; tests use the functions below to inject faults.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const FAULTS_DIR = path.resolve(import.meta.dirname, "..", "..", "var", "faults");

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Postgres refuses to run as root: as root, its commands run as the `postgres` user. */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return isRoot() ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
}

/** The directory of initdb / pg_ctl: PG_BIN, `pg_config --bindir`, or Debian's layout. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const cfg = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (cfg.status === 0 && fs.existsSync(path.join(cfg.stdout.trim(), "initdb"))) return cfg.stdout.trim();
  const debian = "/usr/lib/postgresql";
  const versions = fs.existsSync(debian) ? fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions)
    if (fs.existsSync(path.join(debian, v, "bin", "initdb"))) return path.join(debian, v, "bin");
  throw new Error(
    "The fault suite needs PostgreSQL's server binaries (initdb, pg_ctl): install them or set PG_BIN " +
      "(docker/compose.yml alone is not enough: the suite stops and restarts its own server)",
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

export interface FaultServices {
  pgData: string;
  pgPort: number;
  redisPort: number;
  redisPidFile: string;
}

/** Coordinates of the running services (set by the global setup). */
export function services(): FaultServices {
  const need = (k: string) => {
    const v = process.env[k];
    if (!v) throw new Error(`${k} is not set: run the fault suite with \`npm run test:faults\``);
    return v;
  };
  return {
    pgData: need("FAULTS_PG_DATA"),
    pgPort: Number(need("FAULTS_PG_PORT")),
    redisPort: Number(need("FAULTS_REDIS_PORT")),
    redisPidFile: need("FAULTS_REDIS_PIDFILE"),
  };
}

function pgCtl(args: string[]): void {
  const [cmd, argv] = asPostgresUser(path.join(postgresBinDir(), "pg_ctl"), args);
  execFileSync(cmd, argv, { stdio: "pipe" });
}

export function initPostgres(s: FaultServices): void {
  fs.rmSync(s.pgData, { recursive: true, force: true });
  fs.mkdirSync(s.pgData, { recursive: true });
  if (isRoot()) execFileSync("chown", ["-R", "postgres", path.dirname(s.pgData)]);
  const [cmd, argv] = asPostgresUser(path.join(postgresBinDir(), "initdb"), [
    "-D",
    s.pgData,
    "-A",
    "trust",
    "-U",
    "postgres",
  ]);
  execFileSync(cmd, argv, { stdio: "pipe" });
}

export function startPostgres(s: FaultServices = services()): void {
  pgCtl([
    "-D",
    s.pgData,
    "-w",
    "-o",
    `-p ${s.pgPort} -k ${s.pgData} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "-l",
    path.join(s.pgData, "server.log"),
    "start",
  ]);
}

/** `immediate`: like a crash or kill -9 of the server; `fast`: an administrator's restart. */
export function stopPostgres(mode: "immediate" | "fast", s: FaultServices = services()): void {
  pgCtl(["-D", s.pgData, "-w", "-m", mode, "stop"]);
}

export function startRedis(s: FaultServices = services()): void {
  // Like the machines' Redis: nothing kept on disk, so a restart loses every queue.
  const child = spawn(
    "redis-server",
    [
      "--port",
      String(s.redisPort),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--maxmemory-policy",
      "noeviction",
      "--pidfile",
      s.redisPidFile,
      "--daemonize",
      "yes",
      "--dir",
      path.dirname(s.redisPidFile),
    ],
    { stdio: "ignore" },
  );
  child.unref();
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const ping = spawnSync("redis-cli", ["-p", String(s.redisPort), "ping"], { encoding: "utf8" });
    if (ping.stdout.trim() === "PONG") return;
    spawnSync("sleep", ["0.1"]);
  }
  throw new Error(`redis-server did not start on port ${s.redisPort}`);
}

function redisPid(s: FaultServices): number {
  return Number(fs.readFileSync(s.redisPidFile, "utf8").trim());
}

/** SIGKILL: connections drop, and every key (queues, locks) is gone when it comes back. */
export function killRedis(s: FaultServices = services()): void {
  const pid = redisPid(s);
  process.kill(pid, "SIGKILL");
  fs.rmSync(s.redisPidFile, { force: true });
  while (fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z")) {
    spawnSync("sleep", ["0.05"]);
  }
}

/** SIGSTOP / SIGCONT: connections stay open and nothing answers (a partition, a long GC pause). */
export function pauseRedis(s: FaultServices = services()): void {
  process.kill(redisPid(s), "SIGSTOP");
}
export function resumeRedis(s: FaultServices = services()): void {
  process.kill(redisPid(s), "SIGCONT");
}
