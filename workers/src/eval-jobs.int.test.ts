// Evaluation runs end to end: real Postgres rows, real BullMQ flows in Redis, real workers, the
// real episode runner (@paravt/agent) decoding a real video with ffmpeg, and a real HTTP server
// speaking the OpenAI chat API in place of a vLLM deployment.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunEvent } from "@paravt/shared";
import { db, evals, onRunEvents, queue, runs } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointModel, evalFixture, questionNumber, testKnobs } from "./eval-test-fixtures";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { startTestChatServer, type TestChatServer } from "./test-chat-server";
import { waitForRun, waitUntil } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-evals-${process.pid}`;

let workers: RunningWorkers;
let tmp: string;
const servers: TestChatServer[] = [];

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-evals-"));
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
});

afterAll(async () => {
  await workers.close();
  await Promise.all(servers.map((s) => s.close()));
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function server(opts: Parameters<typeof startTestChatServer>[0]) {
  const s = await startTestChatServer(opts);
  servers.push(s);
  return s;
}

const knobs = testKnobs;

describe("evaluation jobs", () => {
  it(
    "evaluates every sample once through sharded workers, storing full trajectories and a summary from the rows",
    { timeout: 120_000 },
    async () => {
      const fx = await evalFixture(tmp, 5);
      // Odd questions: one crop_video round, then the right letter. Even ones: a wrong letter at once.
      const llm = await server({
        reply: (r) => {
          const n = questionNumber(r.question) ?? 0;
          if (n % 2 === 0) return "<answer>B</answer>";
          if (r.assistantTurns === 0) {
            return `<think>Look closer.</think>\n<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "eval-fixture.mp4", "start_time": 1, "end_time": 4}}\n</tool_call>`;
          }
          return "<think>It is the test pattern.</think><answer>A</answer>";
        },
      });
      const model = await endpointModel(fx.access.projectId, llm.baseUrl);
      const events: RunEvent[] = [];
      const stop = await onRunEvents(fx.access.projectId, (e) => events.push(e));
      const { runs: launched } = await evals.launchEval(fx.access, {
        name: "e2e",
        modelIds: [model.id],
        datasetIds: [fx.datasetId],
        modes: ["agentic_general"],
        ks: [4],
        knobs: knobs(),
        shardSize: 2,
      });
      const runId = launched[0]!.id;
      const run = await waitForRun(runId, 90_000);
      await new Promise((r) => setTimeout(r, 200)); // pub/sub delivery is asynchronous
      await stop();

      expect(run).toMatchObject({ status: "SUCCEEDED", progress: 1, error: null, attempts: 1 });
      expect(run.message).toBe("5 samples · accuracy 60.0% · 0 errors");
      const episodes = await db().episode.findMany({
        where: { runId },
        include: { sample: true, turns: { include: { toolCalls: true }, orderBy: { index: "asc" } } },
      });
      expect(episodes).toHaveLength(5);
      expect(new Set(episodes.map((e) => e.sampleId))).toEqual(new Set(fx.sampleIds));

      const q1 = episodes.find((e) => e.sample.key === "q01")!;
      expect(q1).toMatchObject({ status: "OK", correct: true, prediction: "A", score: 1, toolCallCount: 1, k: 4 });
      expect(q1.overviewTimestamps).toHaveLength(4);
      expect(q1.turns).toHaveLength(2);
      const call = q1.turns[0]!.toolCalls[0]!;
      expect(call).toMatchObject({ name: "crop_video", status: "OK", startS: 1, endS: 4, clamped: false });
      // SPEC §1.4: 1 fps over [1, 4] -> 3 frames.
      expect(call.frameTimestamps).toHaveLength(3);
      expect((call.details as { response: string }).response).toContain("3");
      // Evaluator dispatch (SPEC §5): the crop's frames went back into the main agent's context.
      const second = llm.requests.find((r) => questionNumber(r.question) === 1 && r.assistantTurns === 1)!;
      expect(second.imageCount).toBe(4 + 3);
      const q2 = episodes.find((e) => e.sample.key === "q02")!;
      expect(q2).toMatchObject({ status: "OK", correct: false, prediction: "B", toolCallCount: 0 });

      const out = await evals.getEvalRun(fx.access, runId);
      expect(out.summary).toMatchObject({ samples: 5, stored: 5, answered: 5, errors: 0 });
      expect(out.summary.mcq).toEqual({ n: 5, correct: 3, accuracy: 0.6 });
      // Odd keys are "short" (all right), even ones "long" (all wrong).
      expect(out.summary.byDuration).toEqual({
        short: { n: 3, correct: 3, accuracy: 1 },
        medium: { n: 0, correct: 0, accuracy: null },
        long: { n: 2, correct: 0, accuracy: 0 },
      });
      expect(out.summary.avgToolCalls).toBeCloseTo(0.6, 12);
      expect(out.summary.toolUsageRate).toBeCloseTo(0.6, 12);
      expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).summary).toEqual(out.summary);

      const mine = events.filter((e) => e.runId === runId);
      expect(mine.map((e) => e.status).slice(0, 2)).toEqual(["QUEUED", "RUNNING"]);
      expect(mine.at(-1)!.status).toBe("SUCCEEDED");
      const progress = mine.map((e) => e.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      // Progress names stored rows; two workers storing at once may skip a count, never all of them.
      expect(mine.some((e) => /^[1-4]\/5 samples$/.test(e.message ?? ""))).toBe(true);
    },
  );

  it(
    "stores every sample of a dead endpoint as ERROR with the reason, and still completes the run",
    { timeout: 120_000 },
    async () => {
      const fx = await evalFixture(tmp, 3);
      // A port that was just listening and is now closed: connections are refused.
      const dead = await startTestChatServer({ reply: () => "" });
      await dead.close();
      const model = await endpointModel(fx.access.projectId, dead.baseUrl, "dead");
      const { runs: launched } = await evals.launchEval(fx.access, {
        name: "dead",
        modelIds: [model.id],
        datasetIds: [fx.datasetId],
        modes: ["direct"],
        ks: [2],
        knobs: knobs(),
        shardSize: 3,
      });
      const runId = launched[0]!.id;
      const run = await waitForRun(runId, 90_000);
      expect(run.status).toBe("SUCCEEDED");
      const episodes = await db().episode.findMany({ where: { runId } });
      expect(episodes).toHaveLength(3);
      for (const e of episodes) {
        expect(e).toMatchObject({ status: "ERROR", correct: null, score: null, prediction: null });
        expect(e.error).toMatch(/main_agent \(network\): cannot reach http:\/\/127\.0\.0\.1:\d+/);
      }
      const out = await evals.getEvalRun(fx.access, runId);
      expect(out.summary).toMatchObject({ stored: 3, answered: 0, errors: 3, avgToolCalls: null });
      expect(out.summary.mcq).toEqual({ n: 0, correct: 0, accuracy: null });
    },
  );

  it(
    "stops a cancelled run: queued shards are removed, the running one stops between samples, nothing more is stored",
    { timeout: 120_000 },
    async () => {
      const fx = await evalFixture(tmp, 8);
      const llm = await server({ reply: () => "<answer>A</answer>", delayMs: 700 });
      const model = await endpointModel(fx.access.projectId, llm.baseUrl, "slow");
      const { runs: launched } = await evals.launchEval(fx.access, {
        name: "cancel",
        modelIds: [model.id],
        datasetIds: [fx.datasetId],
        modes: ["direct"],
        ks: [2],
        knobs: knobs(),
        shardSize: 2,
      });
      const runId = launched[0]!.id;
      await waitUntil("a first stored sample", async () => (await evals.countStored(runId)) >= 1, 60_000);
      const cancelled = await runs.cancelRun(fx.access, runId);
      expect(cancelled.status).toBe("CANCELLED");
      const atCancel = await evals.countStored(runId);
      const asked = llm.requests.length;
      // Four shards, two workers: the two shards not started yet were removed from the queue.
      const parent = await queue("cpu").getJob(runId);
      expect((await parent!.getDependenciesCount()).unprocessed).toBeLessThanOrEqual(2);

      // The shards that were running see the cancel and end; the parent is then released and skipped.
      await waitUntil(
        "the flow to drain",
        async () => {
          const state = parent ? await parent.getState() : "unknown";
          return state === "completed" || state === "unknown";
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const stored = await evals.countStored(runId);
      // In-flight episodes are aborted, not stored (one may have been storing at that instant).
      expect(stored - atCancel).toBeLessThanOrEqual(1);
      expect(stored).toBeLessThan(8);
      // At most the two running shards may each have sent a request in the moment the cancel
      // event was on its way; none went on to later samples.
      expect(llm.requests.length - asked).toBeLessThanOrEqual(2);
      const row = await db().run.findUniqueOrThrow({ where: { id: runId } });
      expect(row.status).toBe("CANCELLED");
      expect(row.summary).toBeNull();
    },
  );
});

describe("evaluation settings the runner refuses", () => {
  it("fail the run once with the runner's reason instead of an error per sample", { timeout: 60_000 }, async () => {
    const fx = await evalFixture(tmp, 3);
    const llm = await server({ reply: () => "<answer>A</answer>" });
    const model = await endpointModel(fx.access.projectId, llm.baseUrl, "templated");
    const { runs: launched } = await evals.launchEval(fx.access, {
      name: "bad template",
      modelIds: [model.id],
      datasetIds: [fx.datasetId],
      modes: ["direct"],
      ks: [2],
      knobs: knobs({ prompts: { user: "{frames} {questoin}" } }),
      shardSize: 3,
    });
    const run = await waitForRun(launched[0]!.id);
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(/^shard 0: Invalid evaluation settings: [\s\S]*questoin/);
    expect(await evals.countStored(run.id)).toBe(0);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("a nano checkpoint", () => {
  it("is evaluated through the same jobs on the compute core", { timeout: 180_000 }, async () => {
    const fx = await evalFixture(tmp, 1);
    const checkpoint = fileURLToPath(new URL("../../packages/nano/checkpoints/default", import.meta.url));
    const model = await db().model.create({
      data: { projectId: fx.access.projectId, name: "nano", kind: "NANO_CHECKPOINT", config: { checkpoint } },
    });
    const { runs: launched } = await evals.launchEval(fx.access, {
      name: "nano",
      modelIds: [model.id],
      datasetIds: [fx.datasetId],
      modes: ["agentic_general"],
      ks: [4],
      knobs: knobs({ dispatch: "subagent", maxTokens: 64, maxTurns: 1 }),
      shardSize: 1,
    });
    const run = await waitForRun(launched[0]!.id, 150_000);
    expect(run.status).toBe("SUCCEEDED");
    const e = await db().episode.findFirstOrThrow({ where: { runId: run.id }, include: { turns: true } });
    expect(e.status).toBe("OK");
    expect(e.turns.length).toBeGreaterThanOrEqual(1);
    expect((e.details as { engine: string }).engine).toContain("nano:");
  });
});
