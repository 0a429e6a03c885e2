// A worker killed (SIGKILL) in the middle of an evaluation: another worker takes its shards over
// after their locks expire, resumes each shard after its last stored sample, and the run ends
// with every sample stored exactly once.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { db, evals, queue } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { endpointModel, evalFixture, questionNumber, testKnobs } from "./eval-test-fixtures";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { startTestChatServer, type TestChatServer } from "./test-chat-server";
import { waitForRun, waitUntil } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-eval-crash-${process.pid}`;
const LOCK_MS = 2_000;
const SAMPLES = 12;

let child: ChildProcess | undefined;
let rescuer: RunningWorkers | undefined;
let llm: TestChatServer | undefined;
let tmp: string | undefined;

afterAll(async () => {
  child?.kill("SIGKILL");
  await rescuer?.close();
  await llm?.close();
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe("an evaluation whose worker is killed", () => {
  it(
    "is finished by another worker with every sample stored exactly once and none evaluated again",
    { timeout: 180_000 },
    async () => {
      tmp = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-eval-crash-"));
      const fx = await evalFixture(tmp, SAMPLES);
      // Slow enough that the kill lands with samples done, in flight and still to do.
      llm = await startTestChatServer({ reply: () => "<answer>A</answer>", delayMs: 250 });
      const model = await endpointModel(fx.access.projectId, llm.baseUrl);
      const { runs: launched } = await evals.launchEval(fx.access, {
        name: "crash",
        modelIds: [model.id],
        datasetIds: [fx.datasetId],
        modes: ["direct"],
        ks: [2],
        knobs: testKnobs({ maxTokens: 64 }),
        shardSize: 4,
      });
      const runId = launched[0]!.id;

      child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(import.meta.dirname, ".."),
        env: {
          ...process.env,
          WORKER_QUEUES: "cpu",
          WORKER_CONCURRENCY: "2",
          WORKER_LOCK_MS: String(LOCK_MS),
          WORKER_STALLED_CHECK_MS: "1000",
        },
        stdio: "ignore",
      });
      await waitUntil(
        "the child worker to store a few samples",
        async () => (await evals.countStored(runId)) >= 3,
        90_000,
      );
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      // A write or request the child sent just before it died can still land after its exit
      // (Postgres commits a statement it already received), so read both counts once they settle.
      const { beforeKill, askedBeforeKill } = await settledCounts(runId, llm);
      expect(beforeKill).toBeLessThan(SAMPLES);

      rescuer = startWorkers({ queues: ["cpu"], concurrency: 2, lockMs: 30_000, stalledCheckMs: 1_000, quiet: true });
      const run = await waitForRun(runId, 150_000);
      expect(run.status).toBe("SUCCEEDED");

      // Exactly once: one row per sample, nothing duplicated, nothing missing.
      const rows = await db().episode.findMany({ where: { runId }, select: { sampleId: true, status: true } });
      expect(rows).toHaveLength(SAMPLES);
      expect(new Set(rows.map((r) => r.sampleId))).toEqual(new Set(fx.sampleIds));
      expect(rows.every((r) => r.status === "OK")).toBe(true);
      // Resumed, not restarted: the rescuer asked only about samples without a row, i.e. at most
      // the two that were in flight when the worker died were asked twice.
      const perQuestion = new Map<number, number>();
      for (const r of llm.requests)
        perQuestion.set(questionNumber(r.question)!, (perQuestion.get(questionNumber(r.question)!) ?? 0) + 1);
      expect(perQuestion.size).toBe(SAMPLES);
      expect(llm.requests.length).toBeLessThanOrEqual(SAMPLES + 2);
      expect(llm.requests.length - askedBeforeKill).toBe(SAMPLES - beforeKill);

      const out = await evals.getEvalRun(fx.access, runId);
      expect(out.summary).toMatchObject({ samples: SAMPLES, stored: SAMPLES, answered: SAMPLES, errors: 0 });
      expect(out.summary.mcq).toEqual({ n: SAMPLES, correct: SAMPLES, accuracy: 1 });
    },
  );
});

/** Stored samples and model requests once neither has changed for a second. */
async function settledCounts(runId: string, server: TestChatServer) {
  let last = { beforeKill: -1, askedBeforeKill: -1 };
  for (;;) {
    const now = { beforeKill: await evals.countStored(runId), askedBeforeKill: server.requests.length };
    if (now.beforeKill === last.beforeKill && now.askedBeforeKill === last.askedBeforeKill) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
