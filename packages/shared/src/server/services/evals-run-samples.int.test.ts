// An eval run's sample ids as rows of `eval_run_samples` (issue 42 item 3) against the real test
// database and Redis: a launch writes them in order in the run's transaction (across several
// INSERT batches), its config keeps only their number, each queued shard reads exactly its slice,
// the parent counts the ones still present, and deleting the run removes them. Then the data move
// of migration 20261128204704_eval_run_samples on rows stored the way the code before it wrote them.
import fs from "node:fs";
import { createProjectWithRoles } from "@paravt/db/factories";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalLaunchInput } from "../../contracts/evals";
import { db } from "../db";
import { closeQueues, findJob, queue } from "../queues";
import { redis } from "../redis";
import { projectAccess, type ProjectAccess } from "./access";
import { closeEvalFlows, getEvalRun, launchEval, shardJobId, shardRanges } from "./evals";
import { countExistingRunSamples, RUN_SAMPLES_BATCH, runSampleSlice } from "./evals-run-samples";
import { getRunConfig } from "./runs";

process.env.REDIS_PREFIX = `paravt-test-run-samples-${process.pid}`;

let access: ProjectAccess;
let projectId: string;

beforeAll(async () => {
  const fx = await createProjectWithRoles(db());
  projectId = fx.project.id;
  access = await projectAccess({ kind: "user", userId: fx.editor.id }, projectId);
});

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await queue("gpu").obliterate({ force: true });
  await closeEvalFlows();
  await closeQueues();
  redis().disconnect();
});

/**
 * A dataset of `n` samples whose keys run against their ids (id `<tag>_s<g>`, key
 * `q<n + 1 - g>`), so that key order, the launch's order, is not the ids' order.
 */
async function dataset(n: number) {
  const d = await db().dataset.create({ data: { projectId, name: `samples ${n} ${Math.random()}` } });
  await db().$executeRaw`
    INSERT INTO samples (id, dataset_id, key, question, answer, question_type)
    SELECT ${d.id} || '_s' || g, ${d.id}, 'q' || lpad((${n}::int + 1 - g)::text, 6, '0'), 'Which?', 'A', 'mcq'
    FROM generate_series(1, ${n}::int) AS g`;
  const inKeyOrder = Array.from({ length: n }, (_, i) => `${d.id}_s${n - i}`);
  return { id: d.id, inKeyOrder };
}

async function launch(datasetId: string, shardSize: number) {
  const model = await db().model.create({
    data: {
      projectId,
      name: `m ${Math.random()}`,
      kind: "OPENAI_COMPATIBLE",
      config: { baseUrl: "http://127.0.0.1:9/v1" },
    },
  });
  const input = evalLaunchInput.parse({
    projectId,
    name: "samples",
    modelIds: [model.id],
    datasetIds: [datasetId],
    modes: ["agentic_general"],
    ks: [4],
    shardSize,
  });
  const { runs } = await launchEval(access, input);
  return runs[0]!.id;
}

const storedRows = (runId: string) => db().evalRunSample.findMany({ where: { runId }, orderBy: { ordinal: "asc" } });

describe("an eval run's samples", () => {
  it("are its rows in launch order; each shard reads its slice; the run's reads need only the count", async () => {
    const n = RUN_SAMPLES_BATCH + 2_345; // two INSERT batches
    const shardSize = 1_000;
    const ds = await dataset(n);
    const runId = await launch(ds.id, shardSize);

    const rows = await storedRows(runId);
    expect(rows).toHaveLength(n);
    expect(rows.every((r, i) => r.ordinal === i)).toBe(true);
    expect(rows.map((r) => r.sampleId)).toEqual(ds.inKeyOrder);

    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    const config = run.config as Record<string, unknown>;
    expect(config.sampleCount).toBe(n);
    expect(config).not.toHaveProperty("sampleIds");
    expect(JSON.stringify(config).length).toBeLessThan(2_000);

    // The flow queued one shard per slice; each reads exactly its samples, in order.
    const ranges = shardRanges(n, shardSize);
    expect(ranges).toHaveLength(Math.ceil(n / shardSize));
    for (const [i, range] of ranges.entries()) {
      const job = await findJob("eval.shard", shardJobId(runId, i));
      expect(job?.job.data).toMatchObject({ runId, shard: i, ...range });
      expect(await runSampleSlice(runId, range.from, range.to)).toEqual(ds.inKeyOrder.slice(range.from, range.to));
    }
    expect(await runSampleSlice(runId, n, n + shardSize)).toEqual([]);

    // The run page and the groups list read the count from the config.
    expect((await getEvalRun(access, runId)).summary.samples).toBe(n);
    expect((await getRunConfig(access, runId)).sampleCount).toBe(n);
  });

  it("counts those still present; deleting the run removes them", async () => {
    const ds = await dataset(7);
    const runId = await launch(ds.id, 3);
    expect(await countExistingRunSamples(runId)).toBe(7);
    // Samples deleted since the launch keep their places (shards stay [from, to)); the parent expects fewer.
    await db().sample.deleteMany({ where: { id: { in: [ds.inKeyOrder[1]!, ds.inKeyOrder[5]!] } } });
    expect(await countExistingRunSamples(runId)).toBe(5);
    expect(await runSampleSlice(runId, 0, 3)).toEqual(ds.inKeyOrder.slice(0, 3));

    await db().run.delete({ where: { id: runId } });
    expect(await storedRows(runId)).toEqual([]);
  });
});

describe("migration 20261128204704_eval_run_samples", () => {
  // Its data move (the INSERT and the UPDATE after the generated DDL), run again in a transaction
  // that is rolled back, on rows as the code before it stored them.
  const sql = fs.readFileSync(
    new URL("../../../../../prisma/migrations/20261128204704_eval_run_samples/migration.sql", import.meta.url),
    "utf8",
  );
  const statements = sql
    .split("\n")
    .filter((l) => !l.startsWith("--"))
    .join("\n")
    .split(";")
    .map((s) => s.trim())
    .filter((s) => /^(INSERT INTO "eval_run_samples"|UPDATE "runs")/.test(s));

  it("moves an eval run's config.sampleIds to rows in order and leaves their count; other runs untouched", async () => {
    expect(statements).toHaveLength(2);
    const ids = ["s-c", "s-a", "s-b", "s-a2"];
    const evalRun = await db().run.create({
      data: {
        projectId,
        kind: "eval",
        jobName: "eval.run",
        name: "before the move",
        config: { group: { id: "g", name: "g" }, sampleIds: ids, shardSize: 2 },
      },
    });
    // An ingested trainer's verbatim config may use the key for something else.
    const other = await db().run.create({
      data: { projectId, kind: "rl", jobName: "external", name: "ingested", config: { sampleIds: ["x"] } },
    });
    class Rollback extends Error {}
    const seen = await db()
      .$transaction(async (tx) => {
        for (const s of statements) await tx.$executeRawUnsafe(s);
        const rows = await tx.evalRunSample.findMany({
          where: { runId: { in: [evalRun.id, other.id] } },
          orderBy: { ordinal: "asc" },
        });
        const runs = await tx.run.findMany({ where: { id: { in: [evalRun.id, other.id] } } });
        throw Object.assign(new Rollback(), { rows, runs });
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
        return err as Rollback & {
          rows: { runId: string; ordinal: number; sampleId: string }[];
          runs: { id: string; config: unknown }[];
        };
      });
    expect(seen.rows.map((r) => [r.runId, r.ordinal, r.sampleId])).toEqual(ids.map((id, i) => [evalRun.id, i, id]));
    expect(seen.runs.find((r) => r.id === evalRun.id)!.config).toEqual({
      group: { id: "g", name: "g" },
      sampleCount: 4,
      shardSize: 2,
    });
    expect(seen.runs.find((r) => r.id === other.id)!.config).toEqual({ sampleIds: ["x"] });
    // Rolled back.
    expect(await storedRows(evalRun.id)).toEqual([]);
  });
});
