// "Click a chart point -> that step's rollouts" (issue 9) on real Postgres: an RL run's episodes
// are addressed by rolloutIndex = step * 1000 + i, a step with rollouts lists them in order with
// their reward terms, a step without any points at the nearest one that has some, an episode
// knows its step and rollout, and nothing crosses a project boundary.
import { TRAINING_ROLLOUT_STRIDE } from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

/** Steps whose rollouts the seeded run kept; 3..5 and 7..9 kept none. */
const STEPS_WITH_ROLLOUTS = [1, 2, 6, 10];

/** An RL run with 2 rollouts at each of STEPS_WITH_ROLLOUTS, stored as train.rl stores them. */
async function seedRlRun(projectId: string) {
  const dataset = await db().dataset.create({ data: { projectId, name: `rl-${Math.random().toString(36).slice(2)}` } });
  const samples = await Promise.all(
    ["q-a", "q-b"].map((key, i) =>
      db().sample.create({
        data: {
          datasetId: dataset.id,
          key,
          question: `Question ${i}?`,
          options: ["yes", "no"],
          answer: i === 0 ? "A" : "B",
          questionType: "mcq",
        },
      }),
    ),
  );
  const run = await db().run.create({
    data: { projectId, kind: "rl", jobName: "train.rl", name: "para", config: {} },
  });
  for (const step of STEPS_WITH_ROLLOUTS) {
    for (let i = 0; i < 2; i++) {
      // Rollout 1 of a step answers right, rollout 0 wrong: the terms differ per row.
      const correct = i === 1;
      await db().episode.create({
        data: {
          runId: run.id,
          sampleId: samples[(step + i) % 2]!.id,
          rolloutIndex: step * TRAINING_ROLLOUT_STRIDE + i,
          k: 8,
          promptMode: "agentic_general",
          prediction: correct ? samples[(step + i) % 2]!.answer : "C",
          correct,
          score: correct ? 1 : 0,
          toolCallCount: i + 1,
          rewardTerms: {
            reward: (correct ? 1 : 0) + 0.5 + 0.1 * step,
            accReward: correct ? 1 : 0,
            formatReward: 0.5,
            toolReward: 0.1 * step,
            degenerate: false,
            formatCompliant: true,
            step,
            seed: 1000 + step * 10 + i,
            // Not a scalar: left out of the output.
            nested: { x: 1 },
          },
        },
      });
    }
  }
  return { run, samples };
}

describe("runs.stepRollouts / runs.episodeStep", () => {
  it("lists a step's rollouts in order with their reward terms and its neighbouring steps", async () => {
    const fx = await projectWithRoleCallers();
    const { run, samples } = await seedRlRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };

    const at6 = await fx.asViewer.runs.stepRollouts({ ...ref, step: 6 });
    expect({ step: at6.step, prev: at6.prev, next: at6.next, nearest: at6.nearest }).toEqual({
      step: 6,
      prev: 2,
      next: 10,
      nearest: null,
    });
    expect(at6.items.map((r) => [r.rollout, r.rolloutIndex, r.sample.key])).toEqual([
      [0, 6000, "q-a"],
      [1, 6001, "q-b"],
    ]);
    const [wrong, right] = at6.items;
    expect(wrong).toMatchObject({
      k: 8,
      status: "OK",
      prediction: "C",
      correct: false,
      toolCallCount: 1,
      sample: { id: samples[0]!.id, key: "q-a", answer: "A" },
    });
    expect(right).toMatchObject({ prediction: "B", correct: true, toolCallCount: 2 });
    expect(right!.rewardTerms).toEqual({
      reward: expect.closeTo(2.1, 12),
      accReward: 1,
      formatReward: 0.5,
      toolReward: expect.closeTo(0.6, 12),
      degenerate: false,
      formatCompliant: true,
      step: 6,
      seed: 1061,
    });
    const stored = await db().episode.findFirstOrThrow({ where: { runId: run.id, rolloutIndex: 6001 } });
    expect(right!.episodeId).toBe(stored.id);

    // The ends: nothing before step 1, nothing after step 10.
    const at1 = await fx.asViewer.runs.stepRollouts({ ...ref, step: 1 });
    expect([at1.prev, at1.next, at1.items.length]).toEqual([null, 2, 2]);
    const at10 = await fx.asViewer.runs.stepRollouts({ ...ref, step: 10 });
    expect([at10.prev, at10.next, at10.items.length]).toEqual([6, null, 2]);
  });

  it("answers a step without rollouts with the nearest step that has some", async () => {
    const fx = await projectWithRoleCallers();
    const { run } = await seedRlRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };
    const nearestOf = async (step: number) => {
      const r = await fx.asViewer.runs.stepRollouts({ ...ref, step });
      expect(r.items).toEqual([]);
      return [r.prev, r.next, r.nearest];
    };
    expect(await nearestOf(3)).toEqual([2, 6, 2]);
    expect(await nearestOf(5)).toEqual([2, 6, 6]);
    expect(await nearestOf(9)).toEqual([6, 10, 10]);
    // Halfway between two steps with rollouts: a tie goes to the earlier one.
    expect(await nearestOf(4)).toEqual([2, 6, 2]);
    expect(await nearestOf(8)).toEqual([6, 10, 6]);
    expect(await nearestOf(0)).toEqual([null, 1, 1]);
    expect(await nearestOf(500)).toEqual([10, null, 10]);

    // A run that kept nothing: no neighbours at all.
    const empty = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "empty", config: {} },
    });
    expect(await fx.asViewer.runs.stepRollouts({ projectId: fx.project.id, runId: empty.id, step: 1 })).toEqual({
      step: 1,
      items: [],
      prev: null,
      next: null,
      nearest: null,
    });
  });

  it("gives an RL episode its step and rollout, and null for an evaluation's episode", async () => {
    const fx = await projectWithRoleCallers();
    const { run, samples } = await seedRlRun(fx.project.id);
    const e = await db().episode.findFirstOrThrow({ where: { runId: run.id, rolloutIndex: 10_001 } });
    const where = await fx.asViewer.runs.episodeStep({ projectId: fx.project.id, episodeId: e.id });
    expect(where).toMatchObject({ run: { id: run.id, name: "para" }, step: 10, rollout: 1 });
    expect(where!.rewardTerms).toMatchObject({ accReward: 1, formatReward: 0.5, toolReward: 1 });

    const evalRun = await db().run.create({
      data: { projectId: fx.project.id, kind: "eval", jobName: "eval.run", name: "eval", config: {} },
    });
    const evalEpisode = await db().episode.create({
      data: { runId: evalRun.id, sampleId: samples[0]!.id, rolloutIndex: 0, k: 8, promptMode: "direct" },
    });
    expect(await fx.asViewer.runs.episodeStep({ projectId: fx.project.id, episodeId: evalEpisode.id })).toBeNull();
    // An eval run has no steps: asking for one is a clear bad request, not an empty list.
    expect(await codeOf(fx.asViewer.runs.stepRollouts({ projectId: fx.project.id, runId: evalRun.id, step: 1 }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("validates the step and hides runs and episodes of other projects", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const { run } = await seedRlRun(fx.project.id);
    const e = await db().episode.findFirstOrThrow({ where: { runId: run.id } });
    const ref = { projectId: fx.project.id, runId: run.id };

    expect(await codeOf(fx.asViewer.runs.stepRollouts({ ...ref, step: -1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asViewer.runs.stepRollouts({ ...ref, step: 1.5 }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asViewer.runs.stepRollouts({ ...ref, step: 3_000_000 }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOutsider.runs.stepRollouts({ ...ref, step: 1 }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.runs.stepRollouts({ ...ref, step: 1 }))).toBe("UNAUTHORIZED");
    // The run and the episode asked through a project the caller does belong to.
    expect(await codeOf(other.asOwner.runs.stepRollouts({ projectId: other.project.id, runId: run.id, step: 1 }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(other.asOwner.runs.episodeStep({ projectId: other.project.id, episodeId: e.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(fx.asOutsider.runs.episodeStep({ projectId: fx.project.id, episodeId: e.id }))).toBe(
      "NOT_FOUND",
    );
  });
});
