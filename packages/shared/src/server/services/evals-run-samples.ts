// An eval run's samples in launch order (issue 42 item 3): rows of `eval_run_samples` (run,
// ordinal, sample id), written once in the transaction that creates the run and read a shard's
// slice at a time. The run's config keeps only their number (`evalRunConfig.sampleCount`), so a
// read of the run (its page, the groups list, an event) never reads its ids, whatever its size.
import type { Prisma } from "@paravt/db";
import { db } from "../db";

/**
 * Ids per INSERT. Each statement binds the run id and one array of ids (unnested in Postgres), so
 * Postgres' 65,535 bind parameters never bind; the batches keep one statement's array (and the
 * memory it takes on both ends) bounded for a launch of millions of samples.
 */
export const RUN_SAMPLES_BATCH = 10_000;

/** Stores a run's sample ids in order (ordinal 0 first). Called once per run, in its creating transaction. */
export async function writeRunSamples(
  tx: Prisma.TransactionClient,
  runId: string,
  ids: readonly string[],
): Promise<void> {
  for (let from = 0; from < ids.length; from += RUN_SAMPLES_BATCH) {
    const batch = ids.slice(from, from + RUN_SAMPLES_BATCH);
    await tx.$executeRaw`
      INSERT INTO eval_run_samples (run_id, ordinal, sample_id)
      SELECT ${runId}, ${from}::int + (s.ord - 1)::int, s.sample_id
      FROM unnest(${batch}::text[]) WITH ORDINALITY AS s(sample_id, ord)`;
  }
}

/** The run's sample ids at ordinals [from, to), in order: one shard's samples. */
export async function runSampleSlice(runId: string, from: number, to: number): Promise<string[]> {
  const rows = await db().evalRunSample.findMany({
    where: { runId, ordinal: { gte: from, lt: to } },
    orderBy: { ordinal: "asc" },
    select: { sampleId: true },
  });
  return rows.map((r) => r.sampleId);
}

/**
 * How many of the run's samples still exist: one deleted since the launch (with its dataset) has
 * nothing to store, so the parent job expects a result for each of these only.
 */
export async function countExistingRunSamples(runId: string): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT r.sample_id)::int AS n
    FROM eval_run_samples r JOIN samples s ON s.id = r.sample_id
    WHERE r.run_id = ${runId}`;
  return row?.n ?? 0;
}
