// The GRPO group inspector (issue 41 item 14) on real Postgres: a step's stored rollouts sorted
// into their GRPO groups by the place train.rl recorded (group, index, size, advantage), each
// group's reward mean and std, one group's rollouts with their episodes in group order, older
// runs (no recorded place) grouped by sample with advantages "not recorded", and the bounds.
import { TRAINING_ROLLOUT_STRIDE } from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

async function seedSamples(projectId: string) {
  const dataset = await db().dataset.create({ data: { projectId, name: `rl-${Math.random().toString(36).slice(2)}` } });
  return Promise.all(
    ["q-a", "q-b"].map((key, i) =>
      db().sample.create({
        data: {
          datasetId: dataset.id,
          key,
          question: `Question ${i}?`,
          options: ["yes", "no"],
          answer: "A",
          questionType: "mcq",
        },
      }),
    ),
  );
}

/**
 * Step 3 of a run with 2 prompts x 3 rollouts, stored as train.rl stores them: batch position i,
 * group i / 3. Rewards of group 0: 1, 0, 0.5; group 1: 0.2 each (advantage 0).
 */
async function seedRecordedRun(projectId: string) {
  const samples = await seedSamples(projectId);
  const run = await db().run.create({ data: { projectId, kind: "rl", jobName: "train.rl", name: "para", config: {} } });
  const rewards = [1, 0, 0.5, 0.2, 0.2, 0.2];
  const advantages = [1.2247, -1.2247, 0, 0, 0, 0];
  for (const [i, reward] of rewards.entries()) {
    const group = Math.floor(i / 3);
    await db().episode.create({
      data: {
        runId: run.id,
        sampleId: samples[group]!.id,
        rolloutIndex: 3 * TRAINING_ROLLOUT_STRIDE + i,
        k: group === 0 ? 16 : 8,
        promptMode: "agentic_general",
        prediction: reward === 1 ? "A" : "B",
        correct: reward === 1,
        rewardTerms: {
          reward,
          accReward: reward === 1 ? 1 : 0,
          formatReward: 0,
          toolReward: 0,
          step: 3,
          seed: i,
          group,
          groupIndex: i % 3,
          groupSize: 3,
          advantage: advantages[i]!,
        },
      },
    });
  }
  return { run, samples };
}

describe("runs.stepGroup", () => {
  it("sorts a step's rollouts into their groups and opens one with its episodes in group order", async () => {
    const fx = await projectWithRoleCallers();
    const { run, samples } = await seedRecordedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id, step: 3 };

    const first = await fx.asViewer.runs.stepGroup(ref);
    expect(first.recorded).toBe(true);
    expect(first.groups).toEqual([
      {
        group: 0,
        sampleKey: "q-a",
        k: 16,
        stored: 3,
        groupSize: 3,
        rewardMean: 0.5,
        rewardStd: expect.closeTo(Math.sqrt(1 / 6), 12),
      },
      {
        group: 1,
        sampleKey: "q-b",
        k: 8,
        stored: 3,
        groupSize: 3,
        rewardMean: expect.closeTo(0.2, 12),
        rewardStd: expect.closeTo(0, 12),
      },
    ]);
    // Default: the first group.
    expect(first.group?.group).toBe(0);
    expect(first.sample).toMatchObject({ id: samples[0]!.id, key: "q-a", answer: "A" });
    expect(first.rollouts.map((r) => [r.rollout, r.groupIndex, r.advantage])).toEqual([
      [0, 0, 1.2247],
      [1, 1, -1.2247],
      [2, 2, 0],
    ]);
    const stored = await db().episode.findFirstOrThrow({ where: { runId: run.id, rolloutIndex: 3001 } });
    expect(first.rollouts[1]!.episode).toMatchObject({ id: stored.id, prediction: "B", correct: false });
    expect(first.rollouts[0]!.rewardTerms).toMatchObject({ reward: 1, accReward: 1 });

    const second = await fx.asViewer.runs.stepGroup({ ...ref, group: 1 });
    expect(second.group).toMatchObject({ group: 1, sampleKey: "q-b" });
    expect(second.rollouts.map((r) => r.rollout)).toEqual([3, 4, 5]);
    expect(second.sample?.id).toBe(samples[1]!.id);
    // A group the step does not have is a clear 404.
    expect(await codeOf(fx.asViewer.runs.stepGroup({ ...ref, group: 7 }))).toBe("NOT_FOUND");
  });

  it("groups an older run's rollouts by sample and says advantages were not recorded", async () => {
    const fx = await projectWithRoleCallers();
    const samples = await seedSamples(fx.project.id);
    const run = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "old", config: {} },
    });
    // The 2-per-step layout of before: rollouts 0 and 1 of the same prompt, then one at step 4.
    for (const [index, step] of [
      [0, 2],
      [1, 2],
      [0, 4],
    ] as const) {
      await db().episode.create({
        data: {
          runId: run.id,
          sampleId: samples[step === 2 ? 1 : 0]!.id,
          rolloutIndex: step * TRAINING_ROLLOUT_STRIDE + index,
          k: 8,
          promptMode: "agentic_general",
          rewardTerms: { reward: index, accReward: index, formatReward: 0, toolReward: 0, step, seed: index },
        },
      });
    }
    const g = await fx.asViewer.runs.stepGroup({ projectId: fx.project.id, runId: run.id, step: 2 });
    expect(g.recorded).toBe(false);
    expect(g.groups).toEqual([
      { group: 0, sampleKey: "q-b", k: 8, stored: 2, groupSize: null, rewardMean: 0.5, rewardStd: 0.5 },
    ]);
    expect(g.rollouts.map((r) => [r.rollout, r.groupIndex, r.advantage])).toEqual([
      [0, null, null],
      [1, null, null],
    ]);
    expect([g.prev, g.next]).toEqual([null, 4]);

    // A step that stored nothing: no groups, nothing open.
    const none = await fx.asViewer.runs.stepGroup({ projectId: fx.project.id, runId: run.id, step: 3 });
    expect({ groups: none.groups, group: none.group, sample: none.sample, rollouts: none.rollouts }).toEqual({
      groups: [],
      group: null,
      sample: null,
      rollouts: [],
    });
    expect([none.prev, none.next]).toEqual([2, 4]);
  });

  it("refuses other kinds of runs, other projects and bad steps", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const { run } = await seedRecordedRun(fx.project.id);
    const evalRun = await db().run.create({
      data: { projectId: fx.project.id, kind: "eval", jobName: "eval.run", name: "eval", config: {} },
    });
    expect(await codeOf(fx.asViewer.runs.stepGroup({ projectId: fx.project.id, runId: evalRun.id, step: 1 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(fx.asViewer.runs.stepGroup({ projectId: fx.project.id, runId: run.id, step: -1 }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(fx.asViewer.runs.stepGroup({ projectId: fx.project.id, runId: run.id, step: 3, group: 1000 })),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOutsider.runs.stepGroup({ projectId: fx.project.id, runId: run.id, step: 3 }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(other.asOwner.runs.stepGroup({ projectId: other.project.id, runId: run.id, step: 3 }))).toBe(
      "NOT_FOUND",
    );
  });
});
