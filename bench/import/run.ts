// Imports at the size of real ones (issue 42 item 4), through the services and a real worker
// process, each against the code it replaced, in the same run on the same rows:
//   1. a benchmark copy: a Charades-STA copy of N queries as lmms-lab ships it, imported by the
//      `dataset.import` job (samples written 1000 per statement); baseline: the replaced sample
//      loop (one Prisma upsert per sample, 100 per batch transaction) writing the same samples
//      into a second dataset, timed alone (no loading, no video registration: favours it);
//   2. the reference evaluator's `charades.json` for those N queries, imported by the request +
//      the `eval.import` job (episodes 1000 per INSERT); baseline: the replaced import, one
//      interactive transaction holding the run and every episode (Prisma's default limit 5 s; given
//      30 minutes here so that it finishes and can be timed).
//   npx tsx bench/import/run.ts [--sizes 20000,100000] [--reps 1] [--no-before]
// Needs Postgres and Redis; creates and migrates its own database paravt_bench_import, uses Redis
// db 10 / prefix paravt-bench-import, DATA_DIR and MEDIA_ROOTS under bench/out/import/.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareBenchDatabase, ROOT as root } from "../lib/bench-db";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "20000,100000" },
    reps: { type: "string", default: "1" },
    "no-before": { type: "boolean", default: false },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const REPS = Number(values.reps);

const out = path.join(root, "bench", "out", "import");
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_import";
Object.assign(process.env, {
  DATABASE_URL: `${PG_BASE}/${DB_NAME}`,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/10",
  REDIS_PREFIX: "paravt-bench-import",
  DATA_DIR: path.join(out, "data"),
  MEDIA_ROOTS: path.join(out, "media"),
  AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-secret-bench-secret-bench-secret-0123",
});
prepareBenchDatabase(DB_NAME);

// Imported after the environment is set (the clients read it on first use).
const { loadBenchmark, matchReferenceOutput } = await import("@paravt/benchmarks");
const { datasets, db, evals, projectAccess, queue, closeQueues, redis } = await import("@paravt/shared/server");
const { createProjectWithRoles } = await import("@paravt/db/factories");
const { charadesReferenceOutput, writeCharadesCopy } =
  await import("../../packages/benchmarks/test/charades-reference");
type Access = Awaited<ReturnType<typeof projectAccess>>;

const log = (msg: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** A real worker process on the cpu queue (as `npm start` runs it). */
function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(root, "workers"),
    env: { ...process.env, WORKER_QUEUES: "cpu", WORKER_CONCURRENCY: "1", WORKER_RECONCILE_MS: "0" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.on("exit", (code) => code && log(`worker exited with ${code}`));
  return child;
}

/** The run once finished; then waits for the project's other runs (the placeholder videos' probes). */
async function waitFinished(runId: string) {
  for (;;) {
    const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
    if (r.status === "SUCCEEDED" || r.status === "FAILED" || r.status === "CANCELLED") return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function waitIdle(projectId: string) {
  while (await db().run.count({ where: { projectId, status: { in: ["QUEUED", "RUNNING"] } } })) {
    await new Promise((res) => setTimeout(res, 250));
  }
}

/**
 * A project with a Charades-STA copy of `n` queries imported by the dataset.import job (timed),
 * and the reference output file for it.
 */
async function setup(n: number) {
  const dir = path.join(out, "media", `charades-${n}`);
  fs.rmSync(dir, { recursive: true, force: true });
  await writeCharadesCopy(dir, n);
  const { owner, project } = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: owner.id }, project.id);
  const t0 = Date.now();
  const { dataset, runId } = await datasets.importBenchmark(access, {
    name: `Charades-STA ${n}`,
    benchmark: "charades_sta",
    path: dir,
    subtitles: false,
  });
  const run = await waitFinished(runId);
  const totalMs = Date.now() - t0;
  if (run.status !== "SUCCEEDED") throw new Error(`dataset import ${run.status}: ${run.error}`);
  const jobMs = run.finishedAt!.getTime() - run.startedAt!.getTime();
  await waitIdle(project.id);
  const loaded = await loadBenchmark({ benchmark: "charades_sta", dir });
  const model = await db().model.create({
    data: { projectId: project.id, name: "ParaVT-8B", kind: "EXTERNAL", config: {} },
  });
  // As uploaded: the file's text, parsed by the API before the service sees it.
  const text = JSON.stringify(charadesReferenceOutput(loaded.samples, { errorEvery: 97, apiErrorEvery: 101 }));
  return { access, datasetId: dataset.id, modelId: model.id, text, samples: loaded.samples, jobMs, totalMs };
}

type LoadedSample = Awaited<ReturnType<typeof setup>>["samples"][number];

/**
 * The sample loop this change replaced (workers/src/benchmark-import.ts before issue 42 item 4),
 * kept as the baseline: one Prisma upsert per sample, 100 per batch transaction, into a fresh
 * dataset of the same project.
 */
async function samplesBefore(access: Access, samples: readonly LoadedSample[]): Promise<number> {
  const { id: datasetId } = await db().dataset.create({
    data: { projectId: access.projectId, name: `before ${samples.length}`, source: {} },
  });
  const t0 = Date.now();
  for (let start = 0; start < samples.length; start += 100) {
    await db().$transaction(
      samples.slice(start, start + 100).map((s) => {
        const data = {
          videoId: null,
          question: s.question,
          options: s.options ?? undefined,
          answer: s.answer,
          questionType: s.questionType,
          metadata: { ...s.metadata, benchmark: s.benchmark, split: s.split } as object,
        };
        return db().sample.upsert({
          where: { datasetId_key: { datasetId, key: s.key } },
          create: { datasetId, key: s.key, ...data },
          update: data,
        });
      }),
    );
  }
  return Date.now() - t0;
}

/**
 * The import this change replaced (services/evals-import.ts before issue 42 item 4), kept here as
 * the baseline: match, then the run and every episode in one interactive transaction, then the
 * summary. Only its transaction limit is raised (from Prisma's 5 s) so that it can be timed.
 */
async function importBefore(access: Access, datasetId: string, modelId: string, file: unknown) {
  const parsed = evals.parseReferenceFile(file);
  const samples = await db().sample.findMany({
    where: { datasetId },
    select: { id: true, key: true, answer: true, metadata: true },
  });
  const { matched, report } = matchReferenceOutput(parsed, {
    benchmark: "charades_sta",
    split: "test",
    samples: samples.map((s) => ({ ...s, metadata: (s.metadata ?? {}) as Record<string, never> })),
  });
  const now = new Date();
  const t0 = Date.now();
  const run = await db().$transaction(
    async (tx) => {
      const created = await tx.run.create({
        data: {
          projectId: access.projectId,
          createdById: access.principal.userId,
          modelId,
          kind: "import",
          jobName: "eval.import",
          name: "before",
          config: { group: { id: "grp_before", name: "before" }, modelId, datasetId, mode: "agentic_general", k: 64 },
          status: "SUCCEEDED",
          progress: 1,
          message: evals.importMessage(report),
          startedAt: now,
          finishedAt: now,
        },
      });
      await tx.episode.createMany({
        data: matched.map(({ result: r, sampleId, failure }) => ({
          runId: created.id,
          sampleId,
          modelId,
          rolloutIndex: 0,
          k: 64,
          promptMode: "agentic_general",
          status: failure === null ? ("OK" as const) : ("ERROR" as const),
          error: failure === null ? null : failure.reason.slice(0, 4000),
          finalText: r.fullResponse,
          prediction: r.pred,
          score: failure === null ? r.score : null,
          correct: failure === null ? r.correct : null,
          toolCallCount: r.toolCalls,
          details: JSON.parse(
            JSON.stringify({ imported: true, finalTextTruncatedAt: 500, index: r.index, id: r.id, key: r.key }),
          ),
        })),
      });
      return created;
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
  const txMs = Date.now() - t0;
  await evals.computeRunSummary(run.id, matched.length);
  return { rows: matched.length, txMs };
}

interface Row {
  size: number;
  rep: number;
  what: "samples" | "episodes";
  path: "job" | "before";
  rows: number;
  requestS: number;
  jobS: number | null;
  totalS: number;
  rowsPerS: number;
  txS: number | null;
}

fs.mkdirSync(path.join(out, "media"), { recursive: true });
const worker = startWorker();
const results: Row[] = [];
try {
  await queue("cpu").obliterate({ force: true });
  for (const size of SIZES) {
    for (let rep = 1; rep <= REPS; rep++) {
      log(`importing a benchmark copy of ${size} queries through dataset.import (rep ${rep})`);
      const fx = await setup(size);
      results.push({
        size,
        rep,
        what: "samples",
        path: "job",
        rows: size,
        requestS: 0,
        jobS: fx.jobMs / 1000,
        totalS: fx.totalMs / 1000,
        rowsPerS: size / (fx.totalMs / 1000),
        txS: null,
      });
      log(`dataset.import: job ${secs(fx.jobMs)} s, total ${secs(fx.totalMs)} s`);
      if (!values["no-before"]) {
        const ms = await samplesBefore(fx.access, fx.samples);
        results.push({
          size,
          rep,
          what: "samples",
          path: "before",
          rows: size,
          requestS: 0,
          jobS: null,
          totalS: ms / 1000,
          rowsPerS: size / (ms / 1000),
          txS: null,
        });
        log(`samples before: ${secs(ms)} s`);
      }

      log(`importing the reference output of ${size} rows through the request + eval.import`);
      const t0 = Date.now();
      const res = await evals.importReference(fx.access, {
        name: `job ${size}`,
        datasetId: fx.datasetId,
        modelId: fx.modelId,
        mode: "agentic_general",
        k: 64,
        file: JSON.parse(fx.text) as unknown,
      });
      const requestMs = Date.now() - t0;
      const run = await waitFinished(res.run.id);
      const totalMs = Date.now() - t0;
      if (run.status !== "SUCCEEDED") throw new Error(`import ${run.status}: ${run.error}`);
      const jobMs = run.finishedAt!.getTime() - run.startedAt!.getTime();
      results.push({
        size,
        rep,
        what: "episodes",
        path: "job",
        rows: res.matched,
        requestS: requestMs / 1000,
        jobS: jobMs / 1000,
        totalS: totalMs / 1000,
        rowsPerS: res.matched / (totalMs / 1000),
        txS: null,
      });
      log(`eval.import: request ${secs(requestMs)} s, job ${secs(jobMs)} s, total ${secs(totalMs)} s`);
      if (!values["no-before"]) {
        const b0 = Date.now();
        const before = await importBefore(fx.access, fx.datasetId, fx.modelId, JSON.parse(fx.text) as unknown);
        const bMs = Date.now() - b0;
        results.push({
          size,
          rep,
          what: "episodes",
          path: "before",
          rows: before.rows,
          requestS: bMs / 1000,
          jobS: null,
          totalS: bMs / 1000,
          rowsPerS: before.rows / (bMs / 1000),
          txS: before.txMs / 1000,
        });
        log(`reference import before: total ${secs(bMs)} s, its transaction ${secs(before.txMs)} s`);
      }
      // Each size in its own project; the rows are not needed afterwards.
      await db().project.delete({ where: { id: fx.access.projectId } });
    }
  }
} finally {
  worker.kill("SIGTERM");
  await closeQueues();
  await redis().quit();
  await db().$disconnect();
}

fs.writeFileSync(path.join(out, "import-bench.json"), JSON.stringify(results, null, 1));
const PATHS = {
  samples: { job: "benchmark copy: dataset.import job", before: "benchmark copy: upsert loop (before)" },
  episodes: {
    job: "reference output: request + eval.import job",
    before: "reference output: one transaction (before)",
  },
};
const line = (r: Row) =>
  `| ${r.size.toLocaleString("en")} | ${PATHS[r.what][r.path]} | ${r.rep} | ${r.requestS ? r.requestS.toFixed(1) : ""} | ${r.jobS === null ? "" : r.jobS.toFixed(1)} | ${r.txS === null ? "" : `${r.txS.toFixed(1)}${r.txS > 5 ? " (> 5 s)" : ""}`} | ${r.totalS.toFixed(1)} | ${Math.round(r.rowsPerS).toLocaleString("en")} |`;
process.stdout.write(
  [
    "| rows | import | rep | request s | job s | transaction s | total s | rows/s |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(line),
  ].join("\n") + "\n",
);
