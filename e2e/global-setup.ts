// Starts one real worker process (same code as production) for the e2e run and stops it after.
// Its output goes to var/test-results/e2e-worker.log, which a failing spec quotes (support.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WORKER_LOG } from "./worker-log";

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Plain node (not npx) so that SIGTERM at teardown reaches the worker itself.
  const worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(import.meta.dirname, "..", "workers"),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  fs.mkdirSync(path.dirname(WORKER_LOG), { recursive: true });
  const log = fs.createWriteStream(WORKER_LOG);
  let output = "";
  worker.stdout.on("data", (c: Buffer) => (output += c.toString()));
  worker.stderr.on("data", (c: Buffer) => (output += c.toString()));
  worker.stdout.pipe(log);
  worker.stderr.pipe(log);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    worker.stdout.on("data", () => {
      if (output.includes("worker started")) {
        clearTimeout(timer);
        resolve();
      }
    });
    worker.on("exit", (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  return async () => {
    worker.kill("SIGTERM");
    await new Promise((r) => worker.once("exit", r));
  };
}
