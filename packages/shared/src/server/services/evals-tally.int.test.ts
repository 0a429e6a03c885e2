// Tallies against the real Postgres (issue 42 item 3): episodes stored the way shards store them
// (storeEpisode, then the progress report that reads the stored count), by several shards at once
// while pages read the live summary, give the summary computed from the rows; so does a run
// stored before tallies, and a run whose rows change behind the tallies' back (another writer's
// insert, a deleted episode, a re-imported sample's duration group), which the triggers catch.
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { evalKnobs, type EvalSummary } from "../../contracts/evals";
import { db } from "../db";
import { projectAccess } from "./access";
import { getEvalRun } from "./evals";
import {
  countStored,
  PROGRESS_WRITE_MS,
  reportStoredProgress,
  storeEpisode,
  type EpisodeRecord,
  type TurnRecord,
} from "./evals-store";
import { computeRunSummary } from "./evals-summary";
import { summaryDifference } from "./evals-tally.test-support";
import { liveSummaries } from "./evals-tally-store";

/** A deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const TYPES = ["mcq", "tvg", "oe"] as const;
/** Duration fields as datasets hold them: the benchmark's, another key, a length (not a group), none. */
const DURATIONS = [
  { duration: "short" },
  { duration: "Long" },
  { durationCategory: "medium" },
  { duration: 412.5 },
  {},
];

/** A project, a dataset of `n` samples of every type and duration field, and an eval run over them. */
async function evalRun(n: number) {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.editor.id }, fx.project.id);
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "tally" } });
  const sampleIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await db().sample.create({
      data: {
        datasetId: dataset.id,
        key: `q${String(i).padStart(3, "0")}`,
        question: `Question ${i}?`,
        answer: "A",
        questionType: TYPES[i % 3]!,
        metadata: { ...DURATIONS[i % DURATIONS.length], subtitles: "long text the tally never reads" },
      },
    });
    sampleIds.push(s.id);
  }
  const run = await db().run.create({
    data: {
      projectId: fx.project.id,
      kind: "eval",
      jobName: "eval.run",
      name: "tally",
      status: "RUNNING",
      config: {
        group: { id: `grp_tally_${Date.now()}`, name: "tally" },
        modelId: "m",
        datasetId: dataset.id,
        mode: "agentic_general",
        k: 4,
        knobs: evalKnobs.parse({}),
        sampleCount: sampleIds.length,
        shardSize: 10,
      },
    },
  });
  return { access, runId: run.id, sampleIds };
}

function turn(r: () => number, index: number): TurnRecord {
  const calls = pick(r, [0, 1, 2]);
  return {
    index,
    rawText: pick(r, [
      "<think>look</think>\n<answer>A</answer>",
      '<think>crop</think>\n<tool_call>{"name":"crop_video","arguments":{"start_time":1,"end_time":2}}</tool_call>',
      "no tags at all",
      "<answer>B</answer>",
    ]),
    forcedPrefix: pick(r, [null, "<think>"]),
    forcedFinal: r() < 0.2,
    parsedCalls: [],
    parseIssues: pick(r, [[], ["unclosed tag"], null]),
    promptTokens: 10,
    completionTokens: 5,
    timings: pick(r, [null, { finish: "stop" }, { finish: "length" }]),
    toolCalls: Array.from({ length: calls }, (_, c) => ({
      index: c,
      name: "crop_video",
      arguments: {},
      startS: 0,
      endS: 1,
      clamped: false,
      frameTimestamps: [0.5],
      subAgentOutput: null,
      // A call refused by max_parallel never ran: not counted.
      status: pick(r, ["OK", "OK", "REJECTED"] as const),
      error: null,
      // Now and then a value Postgres refuses (int4): the sample becomes an ERROR episode.
      durationMs: r() < 0.03 ? 1e12 : 3,
      details: null,
    })),
  };
}

/** A random episode of a sample: answered or an engine error, any verdict, score, turns. */
function record(r: () => number, sampleId: string, type: (typeof TYPES)[number]): EpisodeRecord {
  const error = r() < 0.12;
  const turns = r() < 0.15 ? [] : Array.from({ length: pick(r, [1, 2, 3]) }, (_, i) => turn(r, i));
  return {
    sampleId,
    rolloutIndex: 0,
    modelId: null,
    k: 4,
    promptMode: "agentic_general",
    status: error ? "ERROR" : "OK",
    error: error ? "connection reset" : null,
    finalText: turns.at(-1)?.rawText ?? "<answer>A</answer>",
    prediction: "A",
    score: r() < 0.1 ? null : type === "tvg" ? r() * 1.3 - 0.1 : type === "oe" ? r() * 10 : pick(r, [0, 1]),
    correct: error ? null : pick(r, [true, false, null]),
    overviewTimestamps: [0, 1],
    timings: null,
    tokenCounts: null,
    // An imported row's duration group lives in details: read when the sample has none.
    details: r() < 0.2 ? { duration: pick(r, ["short", "medium", "long"]) } : { engine: "openai" },
    turns,
  };
}

async function expectTallyEqualsRows(runId: string, samples: number): Promise<EvalSummary> {
  const expected = await computeRunSummary(runId, samples);
  const live = (await liveSummaries([{ id: runId, samples }])).get(runId)!;
  expect(summaryDifference(live, expected)).toBeNull();
  expect(await countStored(runId)).toBe(await db().episode.count({ where: { runId } }));
  return live;
}

const tallied = async (runId: string) => (await db().run.findUniqueOrThrow({ where: { id: runId } })).tallied;

describe("eval tallies", () => {
  it("equal the rows' summary after shards store at once while pages read the live summary", async () => {
    const n = 90;
    const { access, runId, sampleIds } = await evalRun(n);
    const r = rng(42);
    const records = sampleIds.map((id, i) => record(r, id, TYPES[i % 3]!));
    const shards = 5;
    let done = false;
    // What pages do meanwhile: the first one builds the tallies (from whatever is stored then).
    const reader = (async () => {
      let reads = 0;
      while (!done) {
        await getEvalRun(access, runId);
        reads++;
      }
      return reads;
    })();
    await Promise.all(
      Array.from({ length: shards }, async (_, s) => {
        for (let i = s; i < n; i += shards) {
          expect(await storeEpisode(runId, records[i]!)).toBe(true);
          await reportStoredProgress(runId, n);
        }
      }),
    );
    done = true;
    expect(await reader).toBeGreaterThan(0);
    // A falsely stalled shard storing a sample again: dropped with its counters.
    expect(await storeEpisode(runId, records[0]!)).toBe(false);
    expect(await tallied(runId)).toBe(true);
    const live = await expectTallyEqualsRows(runId, n);
    expect(live.stored).toBe(n);
    expect(live.errors).toBeGreaterThan(0);
    expect(live.byDuration).not.toBeNull();
    expect(live.grounding).not.toBeNull();
    expect(live.openEnded).not.toBeNull();
    expect(live.formatCompliance).not.toBeNull();
    expect((await getEvalRun(access, runId)).summary).toEqual(live);
    const progress = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(progress.message).toBe(`${n}/${n} samples`);
  });

  it("builds a run stored before tallies from its rows once, then keeps it", async () => {
    const { runId, sampleIds } = await evalRun(30);
    const r = rng(7);
    for (const [i, id] of sampleIds.slice(0, 20).entries()) await storeEpisode(runId, record(r, id, TYPES[i % 3]!));
    // As a run stored before the migration: rows, no tallies.
    await db().$executeRaw`UPDATE runs SET tallied = false WHERE id = ${runId}`;
    await db().evalTally.deleteMany({ where: { runId } });
    await expectTallyEqualsRows(runId, 30);
    expect(await tallied(runId)).toBe(true);
    for (const [i, id] of sampleIds.slice(20).entries()) await storeEpisode(runId, record(r, id, TYPES[(i + 20) % 3]!));
    expect(await tallied(runId)).toBe(true);
    await expectTallyEqualsRows(runId, 30);
  });

  it("are rebuilt after another writer's insert, a deleted episode or a sample's duration group changed", async () => {
    const { runId, sampleIds } = await evalRun(24);
    const r = rng(9);
    for (const [i, id] of sampleIds.slice(0, 20).entries()) await storeEpisode(runId, record(r, id, TYPES[i % 3]!));
    await expectTallyEqualsRows(runId, 24);

    // A trainer's reward terms written after the store: no summary field, the tallies stay.
    await db().episode.updateMany({ where: { runId }, data: { rewardTerms: { reward: 1 } } });
    expect(await tallied(runId)).toBe(true);

    // An episode inserted by a writer that does not keep tallies (a fixture, a bulk insert).
    await db().episode.create({
      data: { runId, sampleId: sampleIds[20]!, k: 4, promptMode: "agentic_general", correct: true, score: 1 },
    });
    expect(await tallied(runId)).toBe(false);
    await expectTallyEqualsRows(runId, 24);

    // An episode deleted.
    await db().episode.deleteMany({ where: { runId, sampleId: sampleIds[1]! } });
    expect(await tallied(runId)).toBe(false);
    await expectTallyEqualsRows(runId, 24);

    // A stored episode's verdict changed in place.
    await db().episode.updateMany({ where: { runId, sampleId: sampleIds[3]! }, data: { correct: false, score: 0 } });
    expect(await tallied(runId)).toBe(false);
    await expectTallyEqualsRows(runId, 24);

    // A re-imported dataset moves a sample to another duration group and another type.
    await db().sample.update({ where: { id: sampleIds[0]! }, data: { metadata: { duration: "medium" } } });
    expect(await tallied(runId)).toBe(false);
    await expectTallyEqualsRows(runId, 24);
    await db().sample.update({ where: { id: sampleIds[0]! }, data: { questionType: "oe" } });
    expect(await tallied(runId)).toBe(false);
    await expectTallyEqualsRows(runId, 24);
    // The same values written again (a re-import of an unchanged dataset): nothing to rebuild.
    await db().sample.update({ where: { id: sampleIds[0]! }, data: { metadata: { duration: "medium" } } });
    expect(await tallied(runId)).toBe(true);
  });
});

describe("eval progress (docs/scale.md: one hot row per eval run)", () => {
  it("writes the run row at most once per PROGRESS_WRITE_MS across shards, and always for the last sample", async () => {
    const { runId, sampleIds } = await evalRun(6);
    const r = rng(7);
    const message = async () => (await db().run.findUniqueOrThrow({ where: { id: runId } })).message;
    const store = async (i: number) => {
      expect(await storeEpisode(runId, record(r, sampleIds[i]!, TYPES[i % 3]!))).toBe(true);
      return reportStoredProgress(runId, 6);
    };
    expect(await store(0)).toBe(1);
    expect(await message()).toBe("1/6 samples");
    // Two shards storing at once within the interval: counted (each sees 2 or 3 stored, as the
    // inserts interleave), the row left as it is.
    expect(Math.max(...(await Promise.all([store(1), store(2)])))).toBe(3);
    expect(await message()).toBe("1/6 samples");
    // Once the interval has passed, the next report writes the row again.
    await new Promise((res) => setTimeout(res, PROGRESS_WRITE_MS + 100));
    expect(await store(3)).toBe(4);
    expect(await message()).toBe("4/6 samples");
    expect(await store(4)).toBe(5);
    expect(await message()).toBe("4/6 samples");
    // The last sample is always written, whatever the interval.
    expect(await store(5)).toBe(6);
    expect(await message()).toBe("6/6 samples");
    expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).progress).toBe(0.99);
  });
});

describe("episode sample keys (the samples page's order)", () => {
  it("copy the sample's key on insert, follow a changed key, and replace a written one", async () => {
    const { runId, sampleIds } = await evalRun(3);
    const r = rng(3);
    await storeEpisode(runId, record(r, sampleIds[0]!, "mcq"));
    await db().episode.create({ data: { runId, sampleId: sampleIds[1]!, k: 4, promptMode: "agentic_general" } });
    const keys = async () =>
      (await db().episode.findMany({ where: { runId }, orderBy: { sampleKey: "asc" }, include: { sample: true } })).map(
        (e) => [e.sampleKey, e.sample.key],
      );
    expect(await keys()).toEqual([
      ["q000", "q000"],
      ["q001", "q001"],
    ]);
    await db().sample.update({ where: { id: sampleIds[0]! }, data: { key: "q999" } });
    await db().episode.updateMany({ where: { runId, sampleId: sampleIds[1]! }, data: { sampleKey: "zzz" } });
    expect(await keys()).toEqual([
      ["q001", "q001"],
      ["q999", "q999"],
    ]);
  });
});
