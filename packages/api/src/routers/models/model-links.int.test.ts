// models.list / models.update on real Postgres (issue 41 item 7): a model's description (editable,
// stored in its config), the run that produced it and the evaluations that ran it.
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

describe("model description, producing run and evaluations", () => {
  it("stores an edited description, names the producing run and lists its evaluation groups", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const run = await db().run.create({
      data: { projectId, kind: "sft", jobName: "train.sft", name: "sft-a", status: "SUCCEEDED" },
    });
    // What train.sft registers (workers/src/handlers/handle-train-sft.ts): its run id in config.
    const produced = await db().model.create({
      data: { projectId, name: "sft-a", kind: "NANO_CHECKPOINT", config: { checkpoint: "/x", runId: run.id } },
    });
    const byHand = await fx.asEditor.models.create({
      projectId,
      name: "ext",
      config: { kind: "EXTERNAL", description: "reference trainer" },
    });
    const group = (id: string, name: string) => ({ group: { id, name } });
    await db().run.create({
      data: {
        projectId,
        kind: "eval",
        jobName: "eval.run",
        name: "e1",
        modelId: produced.id,
        config: group("g1", "first"),
      },
    });
    await db().run.create({
      data: {
        projectId,
        kind: "eval",
        jobName: "eval.run",
        name: "e2",
        modelId: produced.id,
        config: group("g1", "first"),
      },
    });
    await db().run.create({
      data: {
        projectId,
        kind: "eval",
        jobName: "eval.run",
        name: "e3",
        modelId: produced.id,
        config: group("g2", "second"),
        createdAt: new Date(Date.now() + 1000),
      },
    });

    const list = await fx.asViewer.models.list({ projectId });
    const a = list.find((m) => m.id === produced.id)!;
    expect(a).toMatchObject({ producedByRunId: run.id, description: "" });
    expect(a.evaluations.map((e) => [e.groupId, e.name])).toEqual([
      ["g2", "second"],
      ["g1", "first"],
    ]);
    expect(list.find((m) => m.id === byHand.id)).toMatchObject({
      producedByRunId: null,
      description: "reference trainer",
      evaluations: [],
    });

    const edited = await fx.asEditor.models.update({
      projectId,
      modelId: produced.id,
      description: "  SFT on seed 3  ",
    });
    expect(edited.description).toBe("SFT on seed 3");
    // The rest of the config is kept.
    expect(edited.config).toMatchObject({ checkpoint: "/x", runId: run.id, description: "SFT on seed 3" });
    expect(edited.evaluations).toHaveLength(2);
    const cleared = await fx.asEditor.models.update({ projectId, modelId: produced.id, description: "" });
    expect(cleared.description).toBe("");
    await expect(fx.asViewer.models.update({ projectId, modelId: produced.id, description: "x" })).rejects.toThrow();
  });
});
