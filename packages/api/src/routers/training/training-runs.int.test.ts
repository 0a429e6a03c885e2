// training.runs on real Postgres (issue 41 item 8): the Training tab lists SFT and RL runs only,
// filtered by kind and status, with the last loss / mean reward, steps and the model produced.
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

describe("training.runs", () => {
  it("lists SFT and RL runs apart from jobs and evals, with their headline figures", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const sft = await db().run.create({
      data: { projectId, kind: "sft", jobName: "train.sft", name: "sft-a", status: "SUCCEEDED", config: { steps: 3 } },
    });
    const rl = await db().run.create({
      data: { projectId, kind: "rl", jobName: "train.rl", name: "rl-a", status: "RUNNING", config: { steps: 10 } },
    });
    await db().run.create({ data: { projectId, kind: "job", jobName: "video.probe", name: "probe" } });
    await db().run.create({ data: { projectId, kind: "eval", jobName: "eval.run", name: "eval" } });
    await db().metric.createMany({
      data: [
        { runId: sft.id, step: 1, name: "loss", value: 2.5 },
        { runId: sft.id, step: 3, name: "loss", value: 1.25 },
        { runId: sft.id, step: 3, name: "lr", value: 0.001 },
        { runId: rl.id, step: 1, name: "reward_mean", value: 0.1 },
        { runId: rl.id, step: 4, name: "reward_mean", value: 0.5 },
        { runId: rl.id, step: 5, name: "kl", value: 0.01 },
      ],
    });
    const model = await db().model.create({
      data: { projectId, name: "sft-a", kind: "NANO_CHECKPOINT", config: { checkpoint: "/x", runId: sft.id } },
    });

    const all = await fx.asViewer.training.runs({ projectId });
    expect(all.map((r) => r.name).sort()).toEqual(["rl-a", "sft-a"]);
    const bySft = all.find((r) => r.id === sft.id)!;
    expect(bySft).toMatchObject({
      kind: "sft",
      totalSteps: 3,
      lastStep: 3,
      lastLoss: 1.25,
      lastReward: null,
      producedModel: { id: model.id, name: "sft-a" },
    });
    expect(all.find((r) => r.id === rl.id)).toMatchObject({
      kind: "rl",
      totalSteps: 10,
      lastStep: 5,
      lastLoss: null,
      lastReward: 0.5,
      producedModel: null,
    });

    expect((await fx.asViewer.training.runs({ projectId, kind: "rl" })).map((r) => r.id)).toEqual([rl.id]);
    expect((await fx.asViewer.training.runs({ projectId, status: "SUCCEEDED" })).map((r) => r.id)).toEqual([sft.id]);
    expect(await fx.asViewer.training.runs({ projectId, kind: "rl", status: "SUCCEEDED" })).toEqual([]);
  });
});
