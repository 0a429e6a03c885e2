// The checkpoint commit protocol and the lock-loss stop of training-child.ts (issue 37 item 4),
// on real folders and a real forked process. The whole story (Redis frozen under a real worker
// while it trains) is workers/faults/training-fence.fault.test.ts.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  commitCheckpoint,
  latestCheckpoint,
  prepareStaging,
  RunLostError,
  runTrainingChild,
  stopStaleTrainer,
} from "./training-child";

const tmp = path.join(os.tmpdir(), `paravt-training-child-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

async function fakeCheckpoint(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "model.safetensors"), "weights");
  return dir;
}

describe("checkpoint commits", () => {
  it("publishes a staged checkpoint only while the delivery owns the run, never replacing a committed one", async () => {
    const runDir = path.join(tmp, "run-a");
    await fakeCheckpoint(path.join(runDir, "step-000002"));
    // A dead delivery's staged step 3: its step never reached the database.
    await fakeCheckpoint(path.join(runDir, "staging-1-1", "step-000003"));

    const staging = await prepareStaging(runDir);
    expect((await fs.readdir(runDir)).sort()).toEqual([path.basename(staging), "step-000002"].sort());
    expect(await latestCheckpoint(runDir)).toBe(path.join(runDir, "step-000002"));

    // A stale holder (its lock lost, a newer delivery holds the fencing token) publishes nothing.
    const staged3 = await fakeCheckpoint(path.join(staging, "step-000003"));
    await expect(commitCheckpoint(runDir, staged3, async () => false)).rejects.toBeInstanceOf(RunLostError);
    expect(await latestCheckpoint(runDir)).toBe(path.join(runDir, "step-000002"));

    // The owner publishes it, atomically, under its final name.
    expect(await commitCheckpoint(runDir, staged3, async () => true)).toBe(path.join(runDir, "step-000003"));
    expect(await latestCheckpoint(runDir)).toBe(path.join(runDir, "step-000003"));

    // A committed checkpoint is never replaced: the second copy is dropped.
    const before = (await fs.stat(path.join(runDir, "step-000003"))).mtimeMs;
    const again = await fakeCheckpoint(path.join(staging, "step-000003"));
    await fs.writeFile(path.join(again, "model.safetensors"), "other weights");
    await commitCheckpoint(runDir, again, async () => true);
    expect(await fs.readFile(path.join(runDir, "step-000003", "model.safetensors"), "utf8")).toBe("weights");
    expect((await fs.stat(path.join(runDir, "step-000003"))).mtimeMs).toBe(before);
    await expect(fs.stat(again)).rejects.toThrow();
  });
});

describe("a lost lock", () => {
  it("kills the training process and fails the attempt with RunLostError", async () => {
    const controller = new AbortController();
    let childPid = 0;
    const done = runTrainingChild<{ type: string; pid: number }, never>(
      fileURLToPath(new URL("./test-idle-child.ts", import.meta.url)),
      {},
      async (msg) => {
        childPid = msg.pid;
        controller.abort("its lock was not renewed for 2 s");
      },
      { signal: controller.signal },
    );
    await expect(done).rejects.toThrow(RunLostError);
    await expect(done).rejects.toThrow(/its lock was not renewed for 2 s/);
    expect(childPid).toBeGreaterThan(0);
    // Gone (or a zombie about to be reaped): not training on.
    const stat = await fs.readFile(`/proc/${childPid}/stat`, "utf8").catch(() => null);
    expect(stat === null || stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z").toBe(true);
  });
});

describe("one trainer per run on a machine", () => {
  it("stops the run's previous trainer before a new delivery forks its own", async () => {
    await fs.mkdir(tmp, { recursive: true });
    const pidFile = path.join(tmp, "trainer.pid");
    const child = fileURLToPath(new URL("./test-idle-child.ts", import.meta.url));
    let first = 0;
    let second = 0;
    let started!: () => void;
    const firstStarted = new Promise<void>((r) => (started = r));
    // A stale delivery's trainer: its worker lost the lock but has not stopped it yet.
    const stale = runTrainingChild<{ pid: number }, never>(
      child,
      {},
      async (msg) => {
        first = msg.pid;
        started();
      },
      { pidFile },
    );
    await firstStarted;
    await waitFor(async () => (await fs.stat(pidFile).catch(() => null)) !== null);

    const controller = new AbortController();
    const fresh = runTrainingChild<{ pid: number }, never>(
      child,
      {},
      async (msg) => {
        second = msg.pid;
        // The stale one is gone before this one started.
        expect(await alive(first)).toBe(false);
        controller.abort("test done");
      },
      { pidFile, signal: controller.signal },
    );
    await expect(stale).rejects.toThrow(/training process died/);
    await expect(fresh).rejects.toThrow(RunLostError);
    expect(second).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    // Nothing left to stop: the pid file names a process that is gone.
    expect(await stopStaleTrainer(pidFile)).toBeNull();
  });
});

async function alive(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

async function waitFor(fn: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
