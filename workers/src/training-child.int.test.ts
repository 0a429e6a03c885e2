// The checkpoint commit protocol and the lock-loss stop of training-child.ts (issue 37 item 4),
// on real folders and a real forked process. The whole story (Redis frozen under a real worker
// while it trains) is workers/faults/training-fence.fault.test.ts.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { commitCheckpoint, latestCheckpoint, prepareStaging, RunLostError, runTrainingChild } from "./training-child";

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
      controller.signal,
    );
    await expect(done).rejects.toThrow(RunLostError);
    await expect(done).rejects.toThrow(/its lock was not renewed for 2 s/);
    expect(childPid).toBeGreaterThan(0);
    // Gone (or a zombie about to be reaped): not training on.
    const stat = await fs.readFile(`/proc/${childPid}/stat`, "utf8").catch(() => null);
    expect(stat === null || stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z").toBe(true);
  });
});
