// What train.sft and train.rl share: the compute runs in a child process (a native crash fails
// one attempt, not the worker) and its messages are relayed here, next to the database, in order.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";

/** Latest `step-NNNNNN` checkpoint of a run, to continue after a crash or a lost lock. */
export async function latestCheckpoint(outDir: string): Promise<string | undefined> {
  const names = await fs.readdir(outDir).catch(() => [] as string[]);
  const steps = names.filter((n) => /^step-\d+$/.test(n)).sort();
  return steps.length ? path.join(outDir, steps.at(-1)!) : undefined;
}

/** What a message handler decides: finish with a result, record the attempt's failure, or go on. */
export type Relay<R> = { done: R } | { fail: Error } | void;

/**
 * Forks `childPath` (under tsx), sends it `{type: "start", options}` and feeds its messages to
 * `onMessage` one at a time, each after the previous one's writes. A handler that throws (the run
 * was cancelled, or its row is gone) kills the child and that error fails the attempt; a child that
 * dies without `done` (native crash, OOM kill) fails it with a retryable error, so the retry
 * resumes from the latest checkpoint.
 */
export function runTrainingChild<M, R>(
  childPath: string,
  options: unknown,
  onMessage: (msg: M, child: ChildProcess) => Promise<Relay<R>>,
): Promise<R> {
  return new Promise((resolve, reject) => {
    // tsx is passed explicitly: the parent may run under a test runner with other loader flags.
    const child = fork(childPath, [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let settled = false;
    let failure: Error | null = null;
    let chain = Promise.resolve();
    const settle = (fn: () => void) => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    child.on("message", (msg: M) => {
      chain = chain.then(async () => {
        if (settled) return;
        try {
          const out = await onMessage(msg, child);
          if (out && "done" in out) settle(() => resolve(out.done));
          else if (out && "fail" in out) failure = out.fail;
        } catch (err) {
          failure = err as Error;
          child.kill("SIGKILL");
        }
      });
    });
    child.on("exit", (code, signal) => {
      void chain.then(() =>
        settle(() =>
          reject(
            failure ??
              new Error(
                `The training process died (${signal ?? `exit code ${code}`}); the job retries from its last checkpoint`,
              ),
          ),
        ),
      );
    });
    child.send({ type: "start", options });
  });
}
