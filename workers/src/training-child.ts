// What train.sft and train.rl share: the compute runs in a child process (a native crash fails
// one attempt, not the worker) and its messages are relayed here, next to the database, in order.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { backendName, DEVICE_CHOICES, selectDevice } from "@paravt/kernels";

export interface CheckpointBounds {
  /**
   * Resume no later than this step: the last step whose metrics are stored. The trainer saves
   * checkpoint k right after sending step k, so a kill in between leaves a checkpoint the database
   * has not caught up with; resuming there would lose step k's metrics and rollouts.
   */
  maxStep?: number | null;
  /** A file the trainer writes last into a checkpoint; a folder without it is incomplete. */
  requiredFile?: string;
}

/** Latest complete `step-NNNNNN` checkpoint of a run, to continue after a crash or a lost lock. */
export async function latestCheckpoint(outDir: string, bounds: CheckpointBounds = {}): Promise<string | undefined> {
  const names = await fs.readdir(outDir).catch(() => [] as string[]);
  const steps = names
    .filter((n) => /^step-\d+$/.test(n))
    .filter((n) => bounds.maxStep == null || Number(n.slice(5)) <= bounds.maxStep)
    .sort()
    .reverse();
  for (const name of steps) {
    const dir = path.join(outDir, name);
    if (!bounds.requiredFile) return dir;
    const complete = await fs.stat(path.join(dir, bounds.requiredFile)).then(
      () => true,
      () => false,
    );
    if (complete) return dir;
  }
  return undefined;
}

/**
 * Checkpoints are committed, not just written (issue 37 item 4). The trainer writes each one into
 * a staging folder of its delivery (`<run>/staging-<pid>-<time>/step-NNNNNN`) and tells the
 * worker; the worker moves it to `<run>/step-NNNNNN` only after the step's metrics and rollouts are
 * stored and only while it still owns the run (its fencing token). So a `step-*` folder of the run
 * always has its step in the database: a resumed run never trains a committed step again (the race
 * in which a killed worker's trainer had written step k+1 before the database had it is gone), and a
 * stale holder whose lock was lost cannot publish a checkpoint at all.
 */
export async function prepareStaging(runDir: string): Promise<string> {
  await fs.mkdir(runDir, { recursive: true });
  // Earlier deliveries' uncommitted checkpoints: never resumed from, so removed.
  for (const name of await fs.readdir(runDir)) {
    if (name.startsWith("staging-")) await fs.rm(path.join(runDir, name), { recursive: true, force: true });
  }
  const staging = path.join(runDir, `staging-${process.pid}-${Date.now()}`);
  await fs.mkdir(staging, { recursive: true });
  return staging;
}

/** The worker lost the run (its lock, or a newer delivery holds the fencing token). */
export class RunLostError extends Error {
  override name = "RunLostError";
}

/**
 * Moves a staged checkpoint into the run folder. Call it in message order, after the step's rows
 * are stored. Returns the committed folder.
 */
export async function commitCheckpoint(
  runDir: string,
  stagedDir: string,
  ownsRun: () => Promise<boolean>,
): Promise<string> {
  if (!(await ownsRun())) throw new RunLostError("Another delivery owns this run now: checkpoint not committed");
  const target = path.join(runDir, path.basename(stagedDir));
  try {
    await fs.rename(stagedDir, target);
  } catch (err) {
    // A committed folder of the same step exists (its step was stored and checkpointed before):
    // committed checkpoints are never replaced.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw err;
    await fs.rm(stagedDir, { recursive: true, force: true });
  }
  return target;
}

/**
 * For the child processes: exit when the parent worker is gone. Node keeps a forked child alive
 * after its parent is SIGKILLed (only its sends fail), and an orphaned trainer would go on writing
 * checkpoints that the next attempt then resumes from with steps missing in the database.
 */
export function exitWithParent(): void {
  process.on("disconnect", () => process.exit(1));
}

/**
 * For the training children: train on the backend the parent worker resolved at start (the fork
 * below passes it as PARAVT_DEVICE).
 */
export function useWorkerDevice(): void {
  // eslint-disable-next-line no-restricted-properties -- set by runTrainingChild's fork, read once here
  const requested = DEVICE_CHOICES.find((d) => d === process.env.PARAVT_DEVICE) ?? "cpu";
  selectDevice(requested);
}

/** What a message handler decides: finish with a result, record the attempt's failure, or go on. */
export type Relay<R> = { done: R } | { fail: Error } | void;

/** A trainer process as recorded in its run's pid file: pid reuse is told apart by start time. */
interface TrainerRecord {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
  startTicks: string;
  host: string;
}

/** The start time of a live (not zombie) process, or null (gone, a zombie, or no /proc). */
async function liveStartTicks(pid: number): Promise<string | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return null;
  // "pid (comm) state ppid ...": fields after the last ")" start with the state (field 3).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[0] === "Z" ? null : (fields[19] ?? null);
}

/**
 * At most one trainer per run on a machine. A new delivery of a training job exists only because
 * the previous one lost the job's lock, so a trainer of the run still alive here is stale: its
 * worker's watchdog will stop it, but the lock can expire and the job be handed out again a moment
 * before that (a loaded machine). This stops it first and waits until it is gone. Returns its pid,
 * or null when there was none (a trainer on another machine is kept out by the fencing token).
 */
export async function stopStaleTrainer(pidFile: string): Promise<number | null> {
  const record = await fs
    .readFile(pidFile, "utf8")
    .then((t) => JSON.parse(t) as TrainerRecord)
    .catch(() => null);
  if (!record || record.host !== os.hostname()) return null;
  if ((await liveStartTicks(record.pid)) !== record.startTicks) return null;
  try {
    process.kill(record.pid, "SIGKILL");
  } catch {
    return null;
  }
  const deadline = Date.now() + 10_000;
  while ((await liveStartTicks(record.pid)) === record.startTicks) {
    if (Date.now() > deadline) throw new Error(`The run's previous training process ${record.pid} does not stop`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return record.pid;
}

async function recordTrainer(pidFile: string, pid: number): Promise<void> {
  const startTicks = await liveStartTicks(pid);
  if (startTicks === null) return;
  const record: TrainerRecord = { pid, startTicks, host: os.hostname() };
  await fs.writeFile(pidFile, JSON.stringify(record));
}

export interface TrainingChildOptions {
  /** Aborted when the job's lock is lost: the child is killed and the attempt fails with RunLostError. */
  signal?: AbortSignal;
  /** The run's trainer pid file (`<run>/trainer.pid`): a stale trainer is stopped before this one starts. */
  pidFile?: string;
}

/**
 * Forks `childPath` (under tsx), sends it `{type: "start", options}` and feeds its messages to
 * `onMessage` one at a time, each after the previous one's writes. A handler that throws (the run
 * was cancelled, or its row is gone) kills the child and that error fails the attempt; a child that
 * dies without `done` (native crash, OOM kill) fails it with a retryable error, so the retry
 * resumes from the latest checkpoint.
 */
export async function runTrainingChild<M, R>(
  childPath: string,
  options: unknown,
  onMessage: (msg: M, child: ChildProcess) => Promise<Relay<R>>,
  { signal, pidFile }: TrainingChildOptions = {},
): Promise<R> {
  if (pidFile) await stopStaleTrainer(pidFile);
  if (signal?.aborted) throw new RunLostError(`Not started: ${String(signal.reason ?? "the job's lock was lost")}`);
  return new Promise((resolve, reject) => {
    // tsx is passed explicitly: the parent may run under a test runner with other loader flags.
    const child = fork(childPath, [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // The child trains on the backend this worker resolved at start (useWorkerDevice), never
      // re-deciding "auto" on its own.
      // eslint-disable-next-line no-restricted-properties -- the child inherits the worker's environment
      env: { ...process.env, PARAVT_DEVICE: backendName() },
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
    // The worker lost the job's lock: another worker may be training the same run already.
    const stop = () => {
      failure = new RunLostError(
        `Stopped the training process: ${String(signal?.reason ?? "the job's lock was lost")}`,
      );
      child.kill("SIGKILL");
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });
    child.on("exit", () => signal?.removeEventListener("abort", stop));
    if (pidFile && child.pid !== undefined) void recordTrainer(pidFile, child.pid).catch(() => undefined);
    child.send({ type: "start", options });
  });
}
