// Eval reads at the size of real runs (issue 42 item 3): a samples page (`evals.listSamples`, 50
// rows, the first page and one in the middle) and the groups list (`evals.listGroups`) of a live
// run of N episodes (live summary from the run's tallies, the run's small config (its sample ids
// are rows of `eval_run_samples`), the page one range of the (run, sample key, rollout, id)
// index), against the reads they replaced on the same run, kept here: the summary from every
// episode row with its turns (paged: one query for 100k rows exceeds Postgres' 65,535 bind
// parameters), the page through a join with the samples and Prisma's cursor. Then what a shard pays per
// stored episode: the store (episode + tally in one transaction) and the stored count (tallies vs
// the COUNT(*) it replaced).
//   npx tsx bench/evals/run.ts [--episodes 100000] [--reps 50] [--before-reps 5] [--stores 200]
// Needs Postgres; drops, creates and migrates its own database paravt_bench_evals.
import { parseArgs } from "node:util";
import { benchEvalRunConfig } from "../lib/eval-config";
import { pct, prepareBenchDatabase, time } from "../lib/bench-db";

const { values } = parseArgs({
  options: {
    episodes: { type: "string", default: "100000" },
    reps: { type: "string", default: "50" },
    "before-reps": { type: "string", default: "5" },
    stores: { type: "string", default: "200" },
  },
});
const N = Number(values.episodes);
const REPS = Number(values.reps);
const BEFORE_REPS = Number(values["before-reps"]);
const STORES = Number(values.stores);
const PAGE = 50;

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_evals";
process.env.DATABASE_URL = `${PG_BASE}/${DB_NAME}`;
process.env.REDIS_URL ??= "redis://127.0.0.1:6379/11";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
// A fresh database each time: the runs of earlier invocations would share its caches and disk.
prepareBenchDatabase(DB_NAME, { fresh: true });

// Imported after DATABASE_URL is set (the client reads it on first use).
const { db, evals, projectAccess } = await import("@paravt/shared/server");
const { evalRunConfig } = await import("@paravt/shared");
const { createProjectWithRoles } = await import("@paravt/db/factories");

/**
 * One project, a dataset of N + STORES samples (60 % multiple choice with VideoMME duration groups,
 * 20 % grounding, 20 % open-ended; 400 characters of subtitles in the metadata) and a RUNNING eval
 * run with N episodes of two turns each (a tool call, then the answer; 5 % ERROR), written by
 * `INSERT … SELECT generate_series`, then ANALYZE. Three small finished runs share the group.
 */
async function seed() {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.editor.id }, fx.project.id);
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "bench" } });
  const tag = fx.project.id;
  await db().$executeRawUnsafe(
    `INSERT INTO samples (id, dataset_id, key, question, answer, question_type, metadata)
     SELECT $1 || '_s' || g, $2, 'q' || lpad(g::text, 7, '0'), 'Question ' || g || '? ' || repeat('What happens? ', 10), 'A',
            (CASE WHEN g % 5 < 3 THEN 'mcq' WHEN g % 5 = 3 THEN 'tvg' ELSE 'oe' END)::"QuestionType",
            jsonb_build_object('duration', (ARRAY['short', 'medium', 'long'])[1 + g % 3], 'subtitles', repeat('sub ', 100))
     FROM generate_series(1, $3::int) AS g`,
    tag,
    dataset.id,
    N + STORES,
  );
  const sampleIds = Array.from({ length: N }, (_, i) => `${tag}_s${i + 1}`);
  const group = { id: `grp_bench_${tag}`, name: "bench" };
  const config = benchEvalRunConfig({ group, modelId: "bench", datasetId: dataset.id, sampleCount: N });
  const run = await db().run.create({
    data: {
      projectId: fx.project.id,
      kind: "eval",
      jobName: "eval.run",
      name: "bench live",
      status: "RUNNING",
      config,
    },
  });
  await writeSamples(run.id, sampleIds);
  await db().$executeRawUnsafe(
    `INSERT INTO episodes (id, run_id, sample_id, k, prompt_mode, status, error, prediction, score, correct,
                           tool_call_count, overview_timestamps, details)
     SELECT $1 || '_e' || g, $2, $1 || '_s' || g, 64, 'agentic_general',
            (CASE WHEN g % 20 = 0 THEN 'ERROR' ELSE 'OK' END)::"EpisodeStatus",
            CASE WHEN g % 20 = 0 THEN 'connection reset' END, 'A',
            CASE WHEN g % 20 = 0 THEN NULL ELSE random() END,
            CASE WHEN g % 20 = 0 OR g % 33 = 0 THEN NULL ELSE random() < 0.6 END,
            g % 4, ARRAY(SELECT generate_series(0, 63)::float8 * 10), '{"engine": "openai"}'::jsonb
     FROM generate_series(1, $3::int) AS g`,
    tag,
    run.id,
    N,
  );
  await db().$executeRawUnsafe(
    `INSERT INTO turns (id, episode_id, index, raw_text, parse_issues, timings, forced_final)
     SELECT $1 || '_t' || g || '_' || i, $1 || '_e' || g, i,
            '<think>' || repeat('the clock is on the wall, look closer. ', 12) || '</think>' || E'\\n' ||
            CASE WHEN i = 0 THEN '<tool_call>{"name": "crop_video", "arguments": {"start_time": 10, "end_time": 20}}</tool_call>'
                 ELSE '<answer>A</answer>' END,
            '[]'::jsonb, '{"finish": "stop"}'::jsonb, false
     FROM generate_series(1, $2::int) AS g, generate_series(0, 1) AS i
     WHERE g % 20 <> 0`,
    tag,
    N,
  );
  for (let i = 0; i < 3; i++) {
    const finished = await db().run.create({
      data: {
        projectId: fx.project.id,
        kind: "eval",
        jobName: "eval.run",
        name: `bench finished ${i}`,
        status: "SUCCEEDED",
        config: { ...config, sampleCount: 10 },
        summary: JSON.parse(JSON.stringify(evals.summarize([], 10))),
      },
    });
    await writeSamples(finished.id, sampleIds.slice(0, 10));
  }
  await db().$executeRawUnsafe(
    "ANALYZE samples; ANALYZE episodes; ANALYZE turns; ANALYZE runs; ANALYZE eval_run_samples",
  );
  return { access, runId: run.id, tag };
}

/** A run's sample ids in `eval_run_samples`, as a launch writes them. */
function writeSamples(runId: string, ids: string[]) {
  return db().$transaction((tx) => evals.writeRunSamples(tx, runId, ids), { timeout: 120_000 });
}

const fmt = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 99).toFixed(0)}`;

const t0 = performance.now();
const { access, runId, tag } = await seed();
console.error(`seeded ${N.toLocaleString()} episodes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// The one-time build of the tallies from the rows (a run stored before tallies existed).
const tb = performance.now();
await evals.ensureTallied([runId]);
const buildS = (performance.now() - tb) / 1000;
console.error(`tallies built from the rows in ${buildS.toFixed(1)} s`);

// Same summary both ways (the tallies are exact up to float rounding).
const fromRows = await evals.computeRunSummary(runId, N);
const fromTallies = (await evals.liveSummaries([{ id: runId, samples: N }])).get(runId)!;
if (
  fromRows.stored !== fromTallies.stored ||
  Math.abs(fromRows.mcq!.accuracy! - fromTallies.mcq!.accuracy!) > 1e-12 ||
  Math.abs(fromRows.grounding!.mIoU - fromTallies.grounding!.mIoU) > 1e-12
)
  throw new Error("the two summaries disagree");

const pageInput = (cursor?: string) => ({ runId, limit: PAGE, ...(cursor ? { cursor } : {}) });
const middle = `${tag}_e${Math.floor(N / 2)}`;

// The reads this change replaced (evals.ts before issue 42 item 3), kept here as the baseline: the
// run rows with their whole config parsed (which then held the launch's sample ids; they are rows
// of `eval_run_samples` now, so this part of the baseline is small here too), the live summary
// from every episode row with its turns, and the page ordered through a join with the samples,
// paged by Prisma's cursor.
const runInclude = {
  createdBy: { select: { email: true } },
  model: { select: { id: true, name: true, kind: true } },
} as const;
async function outputsBefore(rows: { id: string; config: unknown; summary: unknown }[]) {
  const live: string[] = [];
  const datasetIds = new Set<string>();
  for (const r of rows) {
    const settings = evalRunConfig.safeParse(r.config);
    if (settings.success) datasetIds.add(settings.data.datasetId);
    if (settings.success && r.summary === null) live.push(r.id);
  }
  await db().dataset.findMany({ where: { id: { in: [...datasetIds] } }, select: { id: true, name: true } });
  const rowsOf = await evals.summaryRowsOf(live);
  return live.map((id) => evals.summarize(rowsOf.get(id) ?? [], N));
}
async function pageBefore(cursor?: string) {
  const r = await db().run.findFirst({
    where: { id: runId, projectId: access.projectId, kind: { in: ["eval", "import"] } },
    include: runInclude,
  });
  await outputsBefore([r!]);
  return db().episode.findMany({
    where: { runId, AND: [{}, {}, {}, {}, {}, {}, {}] },
    include: {
      sample: {
        select: { key: true, question: true, questionType: true, answer: true, metadata: true, videoId: true },
      },
    },
    orderBy: [{ sample: { key: "asc" } }, { rolloutIndex: "asc" }, { id: "asc" }],
    take: PAGE + 1,
    ...(cursor ? { cursor: { id: cursor } } : {}),
  });
}
async function groupsBefore() {
  const rows = await db().run.findMany({
    where: { projectId: access.projectId, kind: { in: ["eval", "import"] } },
    include: runInclude,
    orderBy: { createdAt: "desc" },
    take: 20 * 64,
  });
  return outputsBefore(rows);
}
// Same pages and summary both ways.
const [b1, a1] = [await pageBefore(middle), await evals.listSamples(access, pageInput(middle))];
if (
  b1
    .slice(0, PAGE)
    .map((e) => e.id)
    .join() !== a1.items.map((e) => e.episodeId).join()
)
  throw new Error("the two reads page differently");
const reads: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  ["samples page (first 50)", () => pageBefore(), () => evals.listSamples(access, pageInput())],
  ["samples page (50 at the middle)", () => pageBefore(middle), () => evals.listSamples(access, pageInput(middle))],
  ["evals.groups (limit 20)", groupsBefore, () => evals.listGroups(access, { limit: 20 })],
];
const rows: string[] = [];
for (const [label, before, after] of reads) {
  const b = await time(before, BEFORE_REPS);
  const a = await time(after, REPS);
  rows.push(`| ${label} | ${fmt(b)} | ${fmt(a)} | ${(pct(b, 50) / pct(a, 50)).toFixed(0)}x |`);
  console.error(rows.at(-1));
}

// A shard's write side at this size: store one episode (into the tallies too), then read the count.
let next = N;
const store = () =>
  evals.storeEpisode(runId, {
    sampleId: `${tag}_s${++next}`,
    rolloutIndex: 0,
    modelId: null,
    k: 64,
    promptMode: "agentic_general",
    status: "OK",
    error: null,
    finalText: "<answer>A</answer>",
    prediction: "A",
    score: 1,
    correct: true,
    overviewTimestamps: [0, 10, 20],
    timings: null,
    tokenCounts: null,
    details: { engine: "openai" },
    turns: [0, 1].map((index) => ({
      index,
      rawText: `<think>${"look closer. ".repeat(40)}</think>\n${index ? "<answer>A</answer>" : '<tool_call>{"name": "crop_video", "arguments": {"start_time": 1, "end_time": 2}}</tool_call>'}`,
      forcedPrefix: null,
      forcedFinal: false,
      parsedCalls: [],
      parseIssues: [],
      promptTokens: 100,
      completionTokens: 50,
      timings: { finish: "stop" },
      toolCalls: [],
    })),
  });
// The write it replaced: the same episode as one nested create (no tally), into another live run
// of the project (an insert without the tallies' flag marks its run's tallies stale).
const other = await db().run.create({
  data: { projectId: access.projectId, kind: "eval", jobName: "eval.run", name: "bench writes", status: "RUNNING" },
});
let nextOther = N;
const storeBefore = () =>
  db().episode.create({
    data: {
      runId: other.id,
      sampleId: `${tag}_s${++nextOther}`,
      k: 64,
      promptMode: "agentic_general",
      prediction: "A",
      score: 1,
      correct: true,
      overviewTimestamps: [0, 10, 20],
      details: { engine: "openai" },
      turns: {
        create: [0, 1].map((index) => ({
          index,
          rawText: `<think>${"look closer. ".repeat(40)}</think>\n${index ? "<answer>A</answer>" : '<tool_call>{"name": "crop_video", "arguments": {"start_time": 1, "end_time": 2}}</tool_call>'}`,
          parseIssues: [],
          timings: { finish: "stop" },
          promptTokens: 100,
          tokenCount: 50,
        })),
      },
    },
  });
const storeB = await time(storeBefore, STORES - 1);
const storeT = await time(store, STORES - 1);
const countBefore = await time(() => db().episode.count({ where: { runId } }), REPS);
const countAfter = await time(() => evals.countStored(runId), REPS);
rows.push(
  `| store one episode (nested create vs episode + tally in one transaction) | ${fmt(storeB)} | ${fmt(storeT)} | ${(pct(storeB, 50) / pct(storeT, 50)).toFixed(1)}x |`,
);
rows.push(
  `| stored count (COUNT(*) vs tallies) | ${fmt(countBefore)} | ${fmt(countAfter)} | ${(pct(countBefore, 50) / pct(countAfter, 50)).toFixed(0)}x |`,
);
const check = (await evals.liveSummaries([{ id: runId, samples: N }])).get(runId)!;
if (check.stored !== (await db().episode.count({ where: { runId } }))) throw new Error("tallies lost a store");

console.log(
  [
    `${N.toLocaleString()} episodes in one live run; tallies built once from the rows in ${buildS.toFixed(1)} s`,
    "",
    "| read | before (ms, p50 / p99) | after (ms, p50 / p99) | before / after (p50) |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n"),
);
await db().$disconnect();
