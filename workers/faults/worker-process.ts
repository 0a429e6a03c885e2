// A real worker process (workers/src/main.ts, the production entry) for the fault suite, with short
// locks and a fast reconciler so that takeovers and repairs happen within seconds. Its output goes
// to var/faults/<name>.log, quoted when a test fails.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { FAULTS_DIR } from "./services";

export const LOCK_MS = 2_000;

export interface WorkerProcess {
  child: ChildProcess;
  log: string;
  /** SIGKILL to the worker and everything it forked (its own process group). */
  kill(): Promise<void>;
  /** SIGTERM: finish active jobs, then exit. */
  stop(): Promise<void>;
  output(): string;
}

export async function startWorkerProcess(name: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const log = path.join(FAULTS_DIR, `${name}.log`);
  const out = fs.openSync(log, "a");
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(import.meta.dirname, ".."),
    detached: true,
    env: {
      ...process.env,
      WORKER_QUEUES: "cpu",
      WORKER_CONCURRENCY: "2",
      WORKER_LOCK_MS: String(LOCK_MS),
      WORKER_STALLED_CHECK_MS: "1000",
      WORKER_RECONCILE_MS: "1000",
      WORKER_RECONCILE_GRACE_MS: "3000",
      ...env,
    },
    stdio: ["ignore", out, out],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const output = () => fs.readFileSync(log, "utf8");
  const deadline = Date.now() + 60_000;
  while (!output().includes("worker started")) {
    if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`worker did not start:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
    await exited;
  };
  return {
    child,
    log,
    output,
    kill,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      await kill();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
