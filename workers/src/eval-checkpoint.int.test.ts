// openEvalEngine with a nano checkpoint (issue 37 item 6): the directory is confined again when
// the engine opens it, so a model row that points at another project's run checkpoint (written
// before the create-time check, or by hand) evaluates nothing, and the refusal does not tell
// whether a path outside the allowed roots exists. Real Postgres rows, real DATA_DIR.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { db, serverEnv } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { openEvalEngine } from "./eval-sample";
import { projectWithOwnerAccess } from "./test-fixtures";

const cleanup: string[] = [];
afterAll(async () => {
  for (const p of cleanup) await fs.rm(p, { recursive: true, force: true });
});

async function nanoRow(projectId: string, checkpoint: string) {
  return db().model.create({
    data: {
      projectId,
      name: `nano ${path.basename(checkpoint)} ${Math.random()}`,
      kind: "NANO_CHECKPOINT",
      config: { checkpoint },
    },
  });
}

async function openError(projectId: string, checkpoint: string): Promise<string> {
  const err = await openEvalEngine(await nanoRow(projectId, checkpoint), null).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, checkpoint).toBeInstanceOf(Error);
  return (err as Error).message;
}

describe("openEvalEngine with a nano checkpoint", () => {
  it("refuses another project's run checkpoint and answers alike for paths that do not exist", async () => {
    const a = await projectWithOwnerAccess();
    const b = await projectWithOwnerAccess();
    const runA = await db().run.create({
      data: { projectId: a.access.projectId, kind: "sft", jobName: "train.sft", name: "sft", status: "SUCCEEDED" },
    });
    const runDir = path.join(serverEnv().DATA_DIR, "checkpoints", runA.id);
    cleanup.push(runDir);
    // A real checkpoint of project A (the committed default, copied where train.sft writes).
    const committed = path.resolve(import.meta.dirname, "../../packages/nano/checkpoints/default");
    const checkpoint = path.join(runDir, "step-000001");
    await fs.cp(committed, checkpoint, { recursive: true });

    const stolen = await openError(b.access.projectId, checkpoint);
    expect(stolen).toContain("is not allowed");
    const missing = path.join(os.tmpdir(), `paravt-no-such-checkpoint-${Date.now()}`);
    expect(await openError(b.access.projectId, missing)).toBe(stolen.replace(checkpoint, missing));
    expect(await openError(b.access.projectId, "/etc")).toBe(stolen.replace(checkpoint, "/etc"));
  });

  it("names no server file when an allowed directory is not a loadable checkpoint", async () => {
    const a = await projectWithOwnerAccess();
    const run = await db().run.create({
      data: { projectId: a.access.projectId, kind: "sft", jobName: "train.sft", name: "sft", status: "SUCCEEDED" },
    });
    const dir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id, "step-000001");
    cleanup.push(path.dirname(dir));
    await fs.mkdir(dir, { recursive: true });
    const message = await openError(a.access.projectId, dir);
    expect(message).toMatch(/cannot be loaded/);
    expect(message).not.toContain(path.join(dir, "config.json"));
  });
});
