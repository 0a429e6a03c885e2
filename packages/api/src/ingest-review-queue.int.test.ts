// A review queue built from an ingested (external) run (issue 41 item 15 on issue 11's runs): the
// rollouts a trainer elsewhere posted through the ingest router are episodes like the workbench's
// own, so the queue filters pick them, in sample order, and a review on one is kept. Real Postgres,
// the ingest service as it is (no change to it here).
import { closeEventBus } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-ingest-queue-${process.pid}`;
afterAll(async () => {
  await closeEventBus();
});

/** One rollout: right or wrong (oe, so `correct` is what the trainer says), with or without a tool call. */
function rollout(i: number, correct: boolean, tool: boolean) {
  const answer = `<think>\nlooked\n</think>\n<answer>${correct ? "green diamond" : "red square"}</answer>`;
  return {
    id: `step-1/rollout-${i}`,
    step: 1,
    index: i,
    k: i % 2 === 0 ? 8 : 64,
    sample: {
      key: `q${i}`,
      question: `Which shape came next? (${i})`,
      answer: "green diamond",
      questionType: "oe" as const,
    },
    finalText: answer,
    prediction: correct ? "green diamond" : "red square",
    correct,
    score: correct ? 1 : 0,
    rewardTerms: { reward: correct ? 1.5 : 0.5 },
    turns: tool
      ? [
          {
            index: 0,
            rawText:
              '<think>\nlook\n</think>\n<tool_call>\n{"name": "crop_video", "arguments": {"start_time": 1, "end_time": 5}}\n</tool_call>',
            toolCalls: [
              { index: 0, startS: 1, endS: 5, frameTimestamps: [1, 2, 3, 4], subAgentOutput: "a green diamond" },
            ],
          },
          { index: 1, rawText: answer },
        ]
      : [{ index: 0, rawText: answer }],
  };
}

describe("review queue of an ingested run", () => {
  it("queues the ingested run's wrong and small-K no-tool rollouts, and keeps a review on one", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "queue-run", name: "external GRPO" });
    const items = [
      rollout(0, true, true),
      rollout(1, false, true),
      rollout(2, false, false),
      rollout(3, true, false),
      rollout(4, false, true),
    ];
    const res = await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items });
    expect(res.counts.stored).toBe(5);

    const keysOf = async (filter: Parameters<typeof fx.asEditor.reviews.createQueue>[0]["filter"]) => {
      const { queue } = await fx.asEditor.reviews.createQueue({ projectId, runId: run.id, filter });
      const detail = await fx.asViewer.reviews.queue({ projectId, queueId: queue.id });
      return { queue, keys: detail.items.map((i) => i.sampleKey), items: detail.items };
    };
    const wrong = await keysOf({ kind: "wrong" });
    expect(wrong.keys).toEqual(["q1", "q2", "q4"]);
    // K 8 rollouts (even indices) that answered without a tool call: q2 only.
    expect((await keysOf({ kind: "no_tool_small_k", maxK: 16 })).keys).toEqual(["q2"]);

    const episodeId = wrong.items[0]!.episodeId;
    await fx.asEditor.reviews.update({ projectId, episodeId, status: "TRIAGED" });
    const detail = await fx.asViewer.reviews.queue({ projectId, queueId: wrong.queue.id });
    expect(detail.queue.progress).toEqual({ total: 3, OPEN: 2, TRIAGED: 1, RESOLVED: 0 });
    expect(detail.items[0]).toMatchObject({ episodeId, status: "TRIAGED" });
  });
});
