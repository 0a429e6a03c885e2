// Tallies in the database (issue 42 item 3; the counters are evals-tally.ts'): `eval_tallies`
// holds a run's counters per question type and duration group, so its live summary and stored
// count read a handful of rows whatever the run's size.
//
// A run's tallies are a cache of its episode rows, valid while `runs.tallied` is true:
// - built from the rows the first time a live summary or the stored count of the run is read
//   (`ensureTallied`: a run stored before tallies existed, or any run the first time; only eval
//   and import runs are read that way, so a training run never pays for them);
// - kept since by every writer that inserts episodes through `insertTallied` (storeEpisode: eval
//   shards, ingested rollouts, RL rollouts): the episode's counters are added in the transaction
//   that inserts it;
// - marked stale by triggers (migration 20261128091955_eval_tallies) on any other change to what a
//   summary reads: an episode inserted without `insertTallied`, an episode deleted, a stored
//   episode's or sample's summary fields changed. The next read builds them again.
//
// Races: the build locks the run row (FOR UPDATE) before reading the rows. An episode insert
// holds a KEY SHARE lock on the run row until it commits (its foreign key), so either the insert
// committed first and the build counts it (what the insert added to the old tallies is deleted
// with them), or the insert waits for the build and then adds itself to the built tallies. `insertTallied`
// reads the samples' key fields FOR SHARE, so a sample update waits for the insert and its
// trigger then sees the new episode (or the insert waits and reads the updated sample).
import { Prisma, type QuestionType } from "@paravt/db";
import type { EvalSummary } from "../../contracts/evals";
import { db } from "../db";
import type { StoredTurn } from "./episode-format";
import { summaryRowPages, toSummaryRow } from "./evals-summary";
import { mergeTallies, summaryFromTallies, tallyRows, type Tally } from "./evals-tally";

type Tx = Prisma.TransactionClient;

/**
 * A build reads every episode of the run with its turns (8 s for 100k episodes on a loaded 2-core
 * machine, bench/evals); shards storing into the run wait for it, once.
 */
const BUILD_TX = { timeout: 15 * 60_000, maxWait: 30_000 } as const;

/** What a sample contributes to an episode's tally key (evals-summary.ts `durationCategoryOf`). */
interface SampleKey {
  questionType: QuestionType;
  metadata: { duration: unknown; durationCategory: unknown };
}

/**
 * The samples' key fields, locked FOR SHARE until the transaction ends (the header says why).
 * Only the two metadata fields are read: a sample's metadata may hold its subtitles.
 */
async function lockSampleKeys(tx: Tx, sampleIds: readonly string[]): Promise<Map<string, SampleKey>> {
  const ids = [...new Set(sampleIds)].sort();
  if (!ids.length) return new Map();
  const rows = await tx.$queryRaw<
    { id: string; questionType: QuestionType; duration: unknown; durationCategory: unknown }[]
  >`
    SELECT id, question_type AS "questionType", metadata -> 'duration' AS duration,
           metadata -> 'durationCategory' AS "durationCategory"
    FROM samples WHERE id = ANY(${ids}::text[]) ORDER BY id FOR SHARE`;
  return new Map(
    rows.map((r) => [
      r.id,
      { questionType: r.questionType, metadata: { duration: r.duration, durationCategory: r.durationCategory } },
    ]),
  );
}

/** One tally as a row of VALUES, in `eval_tallies`' column order after `run_id`. */
function tallyValues(t: Tally): Prisma.Sql {
  return Prisma.sql`(${t.questionType}::"QuestionType", ${t.duration ?? ""}::text, ${t.stored}::int,
    ${t.answered}::int, ${t.scored}::int, ${t.correct}::int, ${t.valueSum}::float8, ${t.valueSqSum}::float8,
    ${t.recall03}::int, ${t.recall05}::int, ${t.recall07}::int, ${t.formatJudged}::int,
    ${t.formatCompliant}::int, ${t.toolCalls}::int, ${t.toolUsed}::int)`;
}

/**
 * Adds `tallies` to the run's, in `tx`, when the run is tallied (else its first read builds them
 * from the rows, these included). One statement; keys in a fixed order (row locks in one order).
 */
async function addTallies(tx: Tx, runId: string, tallies: readonly Tally[]): Promise<void> {
  if (!tallies.length) return;
  const key = (t: Tally) => `${t.questionType}|${t.duration ?? ""}`;
  const rows = [...tallies].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const values = rows.map(tallyValues);
  await tx.$executeRaw`
    INSERT INTO eval_tallies AS t (run_id, question_type, duration, stored, answered, scored, correct, value_sum,
      value_sq_sum, recall_03, recall_05, recall_07, format_judged, format_compliant, tool_calls, tool_used)
    SELECT ${runId}, v.* FROM (VALUES ${Prisma.join(values)}) AS v
    WHERE EXISTS (SELECT 1 FROM runs WHERE id = ${runId} AND tallied)
    ON CONFLICT (run_id, question_type, duration) DO UPDATE SET
      stored = t.stored + EXCLUDED.stored, answered = t.answered + EXCLUDED.answered,
      scored = t.scored + EXCLUDED.scored, correct = t.correct + EXCLUDED.correct,
      value_sum = t.value_sum + EXCLUDED.value_sum, value_sq_sum = t.value_sq_sum + EXCLUDED.value_sq_sum,
      recall_03 = t.recall_03 + EXCLUDED.recall_03, recall_05 = t.recall_05 + EXCLUDED.recall_05,
      recall_07 = t.recall_07 + EXCLUDED.recall_07, format_judged = t.format_judged + EXCLUDED.format_judged,
      format_compliant = t.format_compliant + EXCLUDED.format_compliant,
      tool_calls = t.tool_calls + EXCLUDED.tool_calls, tool_used = t.tool_used + EXCLUDED.tool_used`;
}

/** An inserted episode as its tally reads it (the stored values: made storable, turns as stored). */
export interface TalliedEpisode {
  sampleId: string;
  status: "OK" | "ERROR";
  correct: boolean | null;
  score: number | null;
  toolCallCount: number;
  details: unknown;
  promptMode: string;
  turns: readonly StoredTurn[];
}

/**
 * Inserts episodes of one run and adds them to its tallies, in `tx`: `insert` stores the episodes
 * of `sampleIds` and returns those it stored (not those a unique key skipped). The transaction is
 * marked as keeping tallies (`paravt.keeps_tallies`), so the insert trigger leaves them valid.
 */
export async function insertTallied(
  tx: Tx,
  runId: string,
  sampleIds: readonly string[],
  insert: () => Promise<readonly TalliedEpisode[]>,
): Promise<void> {
  await tx.$queryRaw`SELECT set_config('paravt.keeps_tallies', 'on', true)`;
  const keys = await lockSampleKeys(tx, sampleIds);
  const inserted = await insert();
  const rows = inserted.flatMap((e) => {
    const sample = keys.get(e.sampleId);
    // Not one of the locked samples: the caller's mistake, and the whole transaction is undone.
    if (!sample) throw new Error(`insertTallied: sample ${e.sampleId} was not named`);
    return [toSummaryRow({ ...e, sample })];
  });
  await addTallies(tx, runId, tallyRows(rows));
}

/** Builds the run's tallies from its rows unless they are valid (the header says when and why). */
async function buildTallies(runId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const [run] = await tx.$queryRaw<{ tallied: boolean }[]>`SELECT tallied FROM runs WHERE id = ${runId} FOR UPDATE`;
    if (!run || run.tallied) return;
    await tx.evalTally.deleteMany({ where: { runId } });
    const all: Tally[] = [];
    for await (const page of summaryRowPages([runId], tx)) all.push(...tallyRows(page.map((p) => p.row)));
    await tx.$executeRaw`UPDATE runs SET tallied = true WHERE id = ${runId}`;
    await addTallies(tx, runId, mergeTallies(all));
  }, BUILD_TX);
}

/** Makes the runs' tallies valid (built from the rows where they are not). */
export async function ensureTallied(runIds: readonly string[]): Promise<void> {
  if (!runIds.length) return;
  const stale = await db().run.findMany({ where: { id: { in: [...runIds] }, tallied: false }, select: { id: true } });
  for (const r of stale) await buildTallies(r.id);
}

function toTally(t: Prisma.EvalTallyGetPayload<object>): Tally {
  const { runId: _runId, duration, ...counts } = t;
  return { ...counts, duration: duration === "" ? null : (duration as Tally["duration"]) };
}

/** The runs' tallies, keyed by run id (built first where needed). */
export async function runTallies(runIds: readonly string[]): Promise<Map<string, Tally[]>> {
  const out = new Map<string, Tally[]>(runIds.map((id) => [id, []]));
  if (!runIds.length) return out;
  await ensureTallied(runIds);
  for (const t of await db().evalTally.findMany({ where: { runId: { in: [...runIds] } } })) {
    out.get(t.runId)?.push(toTally(t));
  }
  return out;
}

/** Live summaries of runs from their tallies, keyed by run id (`samples`: what each run covers). */
export async function liveSummaries(
  runs: readonly { id: string; samples: number }[],
): Promise<Map<string, EvalSummary>> {
  const tallies = await runTallies(runs.map((r) => r.id));
  return new Map(runs.map((r) => [r.id, summaryFromTallies(tallies.get(r.id) ?? [], r.samples)]));
}

/** Episodes stored in the run (all rollouts, answered and errors), from its tallies. */
export async function storedCount(runId: string): Promise<number> {
  await ensureTallied([runId]);
  const agg = await db().evalTally.aggregate({ where: { runId }, _sum: { stored: true } });
  return agg._sum.stored ?? 0;
}
