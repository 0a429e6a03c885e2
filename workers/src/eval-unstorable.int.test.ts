// Issue 37 item 1, end to end: a model whose completions hold a NUL byte and lone surrogates (what
// Postgres cannot store as produced) used to fail its shard three times and the whole run. Real
// Postgres, Redis, workers, episode runner and video; a real HTTP server plays the model.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { db, evals, queue } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointModel, evalFixture, questionNumber, testKnobs } from "./eval-test-fixtures";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { startTestChatServer, type TestChatServer } from "./test-chat-server";
import { waitForRun } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-evals-unstorable-${process.pid}`;

let workers: RunningWorkers;
let tmp: string;
let llm: TestChatServer | undefined;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-evals-unstorable-"));
  workers = startWorkers({ queues: ["cpu"], concurrency: 1, quiet: true });
});

afterAll(async () => {
  await workers.close();
  await llm?.close();
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("unstorable model outputs", () => {
  it(
    "completes a run whose model answers with a NUL byte and lone surrogates, every sample stored and marked",
    { timeout: 120_000 },
    async () => {
      const fx = await evalFixture(tmp, 3);
      // Question 2 answers plainly; 1 and 3 wrap the answer in text Postgres refuses as is.
      llm = await startTestChatServer({
        reply: (r) =>
          questionNumber(r.question) === 2
            ? "<answer>A</answer>"
            : "<think>NUL\u0000 high\ud800 low\udc00</think><answer>A</answer>",
      });
      const model = await endpointModel(fx.access.projectId, llm.baseUrl, "nul");
      const { runs: launched } = await evals.launchEval(fx.access, {
        name: "nul",
        modelIds: [model.id],
        datasetIds: [fx.datasetId],
        modes: ["direct"],
        ks: [2],
        knobs: testKnobs(),
        shardSize: 3,
      });
      const runId = launched[0]!.id;
      const run = await waitForRun(runId, 90_000);
      expect(run).toMatchObject({ status: "SUCCEEDED", error: null, attempts: 1 });
      const episodes = await db().episode.findMany({
        where: { runId },
        include: { sample: true, turns: { orderBy: { index: "asc" } } },
      });
      expect(episodes).toHaveLength(3);
      for (const e of episodes) expect(e).toMatchObject({ status: "OK", prediction: "A", correct: true });
      const q1 = episodes.find((e) => e.sample.key === "q01")!;
      // The final text is the last turn's: stored once, in the turn, and read back with the episode.
      expect(q1.finalText).toBeNull();
      expect((await evals.getEpisode(fx.access, q1.id)).finalText).toContain("NUL\\u0000 high\\ud800 low\\udc00");
      expect(q1.turns[0]!.rawText).toContain("NUL\\u0000 high\\ud800 low\\udc00");
      expect((q1.details as { sanitized?: { escaped: string[] } }).sanitized?.escaped).toContain("turns[0].rawText");
      const q2 = episodes.find((e) => e.sample.key === "q02")!;
      expect((q2.details as { sanitized?: unknown }).sanitized).toBeUndefined();
      const out = await evals.getEvalRun(fx.access, runId);
      expect(out.summary).toMatchObject({ samples: 3, stored: 3, errors: 0 });
    },
  );
});
