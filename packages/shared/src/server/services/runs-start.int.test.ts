// When a run's clock starts (issue 41: the runs table showed 0:00 for every evaluation, whose
// parent job's attempt reset the start its shards had set). Real Postgres.
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { startRunPart } from "./evals-store";
import { startRunAttempt } from "./runs";

async function queuedRun(kind: "eval" | "sft") {
  const fx = await createProjectWithRoles(db());
  return db().run.create({
    data: {
      projectId: fx.project.id,
      kind,
      jobName: kind === "eval" ? "eval.run" : "train.sft",
      name: "r",
      config: {},
    },
  });
}

describe("startRunAttempt", () => {
  it("keeps the start of a run its shards already moved to RUNNING, and counts the attempt", async () => {
    const run = await queuedRun("eval");
    const part = await startRunPart(run.id);
    const shardStart = part!.startedAt!;
    await new Promise((r) => setTimeout(r, 20));
    const parent = await startRunAttempt(run.id);
    expect(parent!.status).toBe("RUNNING");
    expect(parent!.attempts).toBe(1);
    expect(parent!.startedAt!.getTime()).toBe(shardStart.getTime());
    expect(parent!.updatedAt.getTime()).toBeGreaterThan(shardStart.getTime());
  });

  it("starts the clock of a queued run (first attempt or a retry) now", async () => {
    const run = await queuedRun("sft");
    const before = Date.now();
    const first = await startRunAttempt(run.id);
    expect(first!.startedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // A retry goes back to QUEUED with the reason; its attempt restarts the clock.
    await db().run.update({ where: { id: run.id }, data: { status: "QUEUED" } });
    await new Promise((r) => setTimeout(r, 20));
    const retry = await startRunAttempt(run.id);
    expect(retry!.attempts).toBe(2);
    expect(retry!.startedAt!.getTime()).toBeGreaterThan(first!.startedAt!.getTime());
  });

  it("skips a finished run or a missing one", async () => {
    const run = await queuedRun("sft");
    await db().run.update({ where: { id: run.id }, data: { status: "SUCCEEDED" } });
    expect(await startRunAttempt(run.id)).toBeNull();
    expect(await startRunAttempt("no-such-run")).toBeNull();
  });
});
