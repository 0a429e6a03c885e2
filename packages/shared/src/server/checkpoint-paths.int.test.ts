// Checkpoint confinement on model create (issue 37 item 6), against the real Postgres and the real
// DATA_DIR: two projects, a run checkpoint written where train.sft writes it, symlinks out.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { afterAll, describe, expect, it } from "vitest";
import { ValidationError } from "../errors";
import { confineCheckpoint } from "./checkpoint-paths";
import { db } from "./db";
import { serverEnv } from "./env";
import { projectAccess } from "./services/access";
import { createModel } from "./services/models";

const cleanup: string[] = [];
afterAll(async () => {
  for (const p of cleanup) await fs.rm(p, { recursive: true, force: true });
});

/** A project with a finished training run whose checkpoint lies in DATA_DIR/checkpoints/<run>. */
async function projectWithCheckpoint() {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: "sft", status: "SUCCEEDED" },
  });
  const runDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);
  cleanup.push(runDir);
  const checkpoint = path.join(runDir, "step-000001");
  await fs.mkdir(checkpoint, { recursive: true });
  await fs.writeFile(path.join(checkpoint, "config.json"), "{}");
  return { access, runDir, checkpoint };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).message;
}

const nano = (checkpoint: string) => ({ kind: "NANO_CHECKPOINT" as const, checkpoint });

describe("a NANO_CHECKPOINT model's directory", () => {
  it("may be the project's own run checkpoint, never another project's", async () => {
    const a = await projectWithCheckpoint();
    const b = await projectWithCheckpoint();
    const own = await createModel(a.access, { name: "own", config: nano(a.checkpoint) });
    expect(own.config).toEqual({ checkpoint: await fs.realpath(a.checkpoint) });

    const stolen = await refusal(createModel(b.access, { name: "stolen", config: nano(a.checkpoint) }));
    expect(stolen).toContain("is not allowed");
    // Another project's run and a run id that does not exist get the same answer.
    const unknownRun = path.join(serverEnv().DATA_DIR, "checkpoints", "no-such-run", "step-000001");
    expect(await refusal(createModel(b.access, { name: "x", config: nano(unknownRun) }))).toBe(
      stolen.replace(a.checkpoint, unknownRun),
    );
    // Nor the checkpoints directory itself (every project's runs below it), nor `..` out of its own run.
    await refusal(createModel(b.access, { name: "all", config: nano(path.join(serverEnv().DATA_DIR, "checkpoints")) }));
    const dotdot = path.join(b.runDir, "..", path.basename(a.runDir), "step-000001");
    expect(await refusal(createModel(b.access, { name: "dotdot", config: nano(dotdot) }))).toContain("is not allowed");
    expect(await db().model.count({ where: { projectId: b.access.projectId } })).toBe(0);
  });

  it("refuses a path outside the allowed roots alike whether it exists or not, naming no server path", async () => {
    const { access } = await projectWithCheckpoint();
    const existing = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-ckpt-"));
    cleanup.push(existing);
    const missing = path.join(existing, "nothing-here");
    const exists = await refusal(createModel(access, { name: "e", config: nano(existing) }));
    const absent = await refusal(createModel(access, { name: "m", config: nano(missing) }));
    expect(absent).toBe(exists.replace(existing, missing));
    for (const message of [exists, absent]) {
      expect(message).not.toContain(serverEnv().DATA_DIR);
      expect(message).not.toMatch(/ENOENT|no such file/i);
    }
    expect(await refusal(createModel(access, { name: "r", config: nano("relative/dir") }))).toContain("absolute");
  });

  it("may not leave its root through a symbolic link", async () => {
    const { access, runDir } = await projectWithCheckpoint();
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-ckpt-"));
    cleanup.push(outside);
    const link = path.join(runDir, "escape");
    await fs.symlink(outside, link);
    const message = await refusal(createModel(access, { name: "link", config: nano(link) }));
    expect(message).toContain("is not allowed");
    expect(message).not.toContain(outside);
    // Inside its own root, a missing directory is simply missing.
    expect(await refusal(confineCheckpoint(access.projectId, path.join(runDir, "step-000009")))).toContain(
      "No checkpoint directory",
    );
  });

  it("may be a checkpoint committed with nano, given as a path or a file:// URI", async () => {
    const { access } = await projectWithCheckpoint();
    const committed = path.resolve(import.meta.dirname, "../../../nano/checkpoints/default");
    expect(await confineCheckpoint(access.projectId, committed)).toBe(await fs.realpath(committed));
    expect(await confineCheckpoint(access.projectId, `file://${committed}`)).toBe(await fs.realpath(committed));
    const file = path.join(committed, "config.json");
    expect(await refusal(confineCheckpoint(access.projectId, file))).toContain("is not a directory");
  });
});
