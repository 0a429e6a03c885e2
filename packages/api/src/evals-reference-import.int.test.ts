// Importing the reference evaluator's output files on real Postgres, into datasets whose samples are
// what @paravt/benchmarks loads from tiny copies of the datasets the reference reads. The rows are
// written as ParaVT's paravt/eval/driver.py::_make_result (lines 320-337) and utils.py::base_result +
// error (lines 198-207) write them, in the `{summary, results}` file of utils.py::run_dataset.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBenchmark, type LoadBenchmarkOptions } from "@paravt/benchmarks";
import { db, evals, queue } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { touchVideos, writeParquet } from "../../benchmarks/test/helpers";
import { projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-evals-refimport-${process.pid}`;

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
});

/** A dataset as the benchmark import stores it: source {kind: benchmark, …} and the loader's samples. */
async function importedDataset(projectId: string, name: string, options: LoadBenchmarkOptions) {
  const loaded = await loadBenchmark(options);
  const dataset = await db().dataset.create({
    data: {
      projectId,
      name,
      source: {
        kind: "benchmark",
        benchmark: options.benchmark,
        dir: options.dir,
        split: loaded.split,
        subtitles: false,
      },
    },
  });
  for (const s of loaded.samples) {
    await db().sample.create({
      data: {
        datasetId: dataset.id,
        key: s.key,
        question: s.question,
        options: s.options ?? undefined,
        answer: s.answer,
        questionType: s.questionType,
        metadata: s.metadata,
      },
    });
  }
  return dataset;
}

async function videommeCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "paravt-refimport-"));
  made.push(dir);
  const q = [
    ["fFjv93ACGo8", "001-1", "C"],
    ["fFjv93ACGo8", "001-2", "A"],
    ["fFjv93ACGo8", "001-3", "A"],
    ["zzzzzzzzzzz", "002-1", "B"],
    ["yyyyyyyyyyy", "003-1", "D"],
  ];
  await writeParquet(dir, "videomme/test-00000-of-00001.parquet", [
    { name: "duration", kind: "string", data: q.map(() => "short") },
    { name: "videoID", kind: "string", data: q.map((r) => r[0]) },
    { name: "question_id", kind: "string", data: q.map((r) => r[1]) },
    { name: "question", kind: "string", data: q.map((r) => `Question ${r[1]}?`) },
    { name: "options", kind: "strings", data: q.map(() => ["A. w", "B. x", "C. y", "D. z"]) },
    { name: "answer", kind: "string", data: q.map((r) => r[2]) },
  ]);
  await touchVideos(dir, ["data/fFjv93ACGo8.mp4", "data/zzzzzzzzzzz.mp4", "data/yyyyyyyyyyy.mp4"]);
  return dir;
}

const mcqRow = (id: string, answer: string, pred: string, toolCalls: number, final: string) => ({
  id,
  answer,
  pred,
  correct: pred === answer,
  tool_calls: toolCalls,
  score: pred === answer ? 1.0 : 0.0,
  full_response: final.slice(0, 500),
  duration: "short",
});

describe("evals.importReference on the reference evaluator's files", () => {
  it("matches Video-MME rows by videoID and answer, stores errors and API errors as ERROR, reports skips per reason", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const dir = await videommeCopy();
    const dataset = await importedDataset(projectId, "Video-MME", { benchmark: "videomme", dir });
    const model = await db().model.create({ data: { projectId, name: "ParaVT-8B", kind: "EXTERNAL", config: {} } });
    const file = {
      summary: { dataset: "videomme", total: 6, errors: 1, accuracy: 0.5 },
      results: [
        mcqRow("fFjv93ACGo8", "C", "C", 2, "<think>the clip shows three</think><answer>C</answer>"),
        mcqRow("fFjv93ACGo8", "A", "B", 0, "<answer>B</answer>"),
        mcqRow("fFjv93ACGo8", "A", "A", 1, "<answer>A</answer>"),
        {
          id: "zzzzzzzzzzz",
          answer: "B",
          pred: "",
          correct: false,
          tool_calls: 0,
          score: 0.0,
          error: "api error: timed out",
        },
        // driver.py line 475: the call failed after a tool round; _score read "[" as the letter
        mcqRow("yyyyyyyyyyy", "D", "[", 1, "[API error: Connection error.]"),
        mcqRow("nosuchvideo", "A", "A", 0, "A"),
      ],
    };
    const out = await fx.asEditor.evals.importReference({
      projectId,
      name: "ParaVT-8B (paper)",
      datasetId: dataset.id,
      modelId: model.id,
      file,
    });
    expect(out).toMatchObject({
      rows: 6,
      matched: 3,
      errors: 2,
      errorKinds: { rowError: 1, apiError: 1 },
      skipped: 3,
      skippedByReason: { ambiguous: 2, unmatched: 1 },
      unmatched: ["nosuchvideo"],
      unmatchedCount: 1,
      duplicates: [],
    });
    expect(out.run.message).toBe("Imported 3 of 6 rows (2 errors); skipped 3: 2 ambiguous, 1 unmatched");
    const episodes = await db().episode.findMany({
      where: { runId: out.run.id },
      include: { sample: { select: { key: true } } },
      orderBy: { sample: { key: "asc" } },
    });
    expect(episodes.map((e) => [e.sample.key, e.status, e.correct, e.score, e.error])).toEqual([
      ["001-1", "OK", true, 1, null],
      ["002-1", "ERROR", null, null, "api error: timed out"],
      ["003-1", "ERROR", null, null, "[API error: Connection error.]"],
    ]);
    const run = await fx.asViewer.evals.byId({ projectId, runId: out.run.id });
    expect(run.summary).toMatchObject({ stored: 3, answered: 1, errors: 2 });
  });

  it("refuses a reference file of another benchmark, and summary_all.json, without storing anything", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const dataset = await importedDataset(projectId, "Video-MME", { benchmark: "videomme", dir: await videommeCopy() });
    const model = await db().model.create({ data: { projectId, name: "paper", kind: "EXTERNAL", config: {} } });
    const attempt = (file: unknown) =>
      fx.asEditor.evals.importReference({ projectId, name: "x", datasetId: dataset.id, modelId: model.id, file }).then(
        () => null,
        (e: unknown) => e,
      );
    const charades = await attempt({
      summary: { dataset: "charades", total: 1 },
      results: [
        {
          id: 0,
          answer: "[0.0, 6.9]",
          pred: "0.0-7.0",
          correct: null,
          tool_calls: 0,
          score: 0.98,
          full_response: "0.0 - 7.0",
          key: "A.mp4>>>x>>>[0.0, 6.9]",
          pred_text: "0.0 - 7.0",
        },
      ],
    });
    expect(charades).toBeInstanceOf(TRPCError);
    expect((charades as TRPCError).code).toBe("BAD_REQUEST");
    expect((charades as TRPCError).message).toMatch(
      /reference output of "charades" \(Charades-STA.*but the dataset is videomme/,
    );
    const summaryAll = await attempt({
      videomme: { dataset: "videomme", total: 6 },
      mlvu: { dataset: "mlvu", total: 2 },
    });
    expect((summaryAll as TRPCError).message).toMatch(/summary_all\.json/);
    expect(await db().run.count({ where: { projectId, kind: "import" } })).toBe(0);
  });
});
