// Starts one real worker process (same code as production) for the e2e run and stops it after.
import { spawn } from "node:child_process";
import path from "node:path";

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Plain node (not npx) so that SIGTERM at teardown reaches the worker itself.
  const worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(import.meta.dirname, "..", "workers"),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  worker.stdout.on("data", (c: Buffer) => (output += c.toString()));
  worker.stderr.on("data", (c: Buffer) => (output += c.toString()));
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
