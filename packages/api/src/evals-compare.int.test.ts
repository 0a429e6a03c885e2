// Side-by-side comparison (issue 8) through the evals router on real Postgres and Redis: "run
// now" makes one-sample runs on the queue, compare returns each run's episode on the sample,
// the flipped filter, the pickers' reads and who may do what. Episodes are stored through the
// workers' own store function (running the engines is the workers' tests' job).
import { db, evals, queue } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-evals-compare-${process.pid}`;

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
});

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
    return { code: "OK", message: "" };
  } catch (err) {
    if (err instanceof TRPCError) return { code: err.code, message: err.message };
    throw err;
  }
}
const codeOf = async (p: Promise<unknown>) => (await failure(p)).code;

async function seed(projectId: string, name = "mlvu", n = 5) {
  const video = await db().video.create({
    data: { projectId, name: `${name}.mp4`, source: "PATH", path: `/nonexistent/${name}-${Date.now()}.mp4` },
  });
  const dataset = await db().dataset.create({ data: { projectId, name } });
  const samples = [];
  for (let i = 1; i <= n; i++) {
    samples.push(
      await db().sample.create({
        data: {
          datasetId: dataset.id,
          videoId: video.id,
          key: `q${i}`,
          question: `Question ${i}?`,
          options: ["yes", "no"],
          answer: "A",
          questionType: "mcq",
        },
      }),
    );
  }
  const model = (m: string) =>
    db().model.create({
      data: {
        projectId,
        // Models are unique by name in a project; the first seed's keep the plain names.
        name: name === "mlvu" ? m : `${name}-${m}`,
        kind: "OPENAI_COMPATIBLE",
        config: { baseUrl: "http://127.0.0.1:9/v1", servedModel: m },
      },
    });
  return { video, dataset, samples, a: await model("model-a"), b: await model("model-b") };
}

/** Reference rows (SPEC §6) for q1..q5: `correct` per key, "error" for an infrastructure error. */
function referenceFile(outcomes: Record<string, boolean | "error">) {
  return {
    summary: {},
    results: Object.entries(outcomes).map(([id, o]) => ({
      id,
      answer: "A",
      pred: o === true ? "A" : "B",
      correct: o === true,
      tool_calls: 0,
      score: o === true ? 1 : 0,
      full_response: "",
      ...(o === "error" ? { error: "Connection reset" } : {}),
    })),
  };
}

describe("evals.compareRun and evals.compare", () => {
  it("runs one sample on two models through the queue and shows both episodes side by side", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const { dataset, samples, a, b } = await seed(projectId);
    const q3 = samples[2]!;
    const input = {
      projectId,
      sampleId: q3.id,
      models: [
        { modelId: a.id, mode: "agentic_general" as const, k: 8 },
        { modelId: b.id, mode: "direct" as const, k: 16, knobs: { temperature: 0.5 } },
      ],
    };
    expect(await codeOf(fx.asViewer.evals.compareRun(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.evals.compareRun(input))).toBe("NOT_FOUND");
    expect(
      (await failure(fx.asEditor.evals.compareRun({ ...input, models: input.models.slice(0, 1) }))).message,
    ).toContain("Pick at least two models");

    const launched = await fx.asEditor.evals.compareRun(input);
    expect(launched.sampleId).toBe(q3.id);
    expect(launched.runs).toHaveLength(2);
    for (const r of launched.runs) {
      // One sample, one shard: the flow's parent waits for exactly one child.
      const run = await fx.asViewer.evals.byId({ projectId, runId: r.id });
      expect(run.summary.samples).toBe(1);
      expect(run.dataset?.id).toBe(dataset.id);
      const parent = await queue("cpu").getJob(r.id);
      expect((await parent!.getDependenciesCount()).unprocessed).toBe(1);
    }
    const [ra, rb] = launched.runs;
    expect((await fx.asViewer.evals.byId({ projectId, runId: rb!.id })).knobs?.temperature).toBe(0.5);

    // Before any worker: both columns, no episode yet.
    const runIds = [ra!.id, rb!.id];
    const before = await fx.asViewer.evals.compare({ projectId, sampleId: q3.id, runIds });
    expect(before.columns.map((c) => [c.run.model?.name, c.episode])).toEqual([
      ["model-a", null],
      ["model-b", null],
    ]);

    // What the shards would store: model-a crops twice and is right, model-b answers wrong.
    const base = {
      sampleId: q3.id,
      rolloutIndex: 0,
      status: "OK" as const,
      error: null,
      overviewTimestamps: [0, 7.5],
      tokenCounts: null,
      details: null,
    };
    const call = (index: number, startS: number, endS: number) => ({
      index,
      name: "crop_video",
      arguments: { start_time: startS, end_time: endS },
      startS,
      endS,
      clamped: false,
      frameTimestamps: [startS, endS],
      subAgentOutput: `saw ${index}`,
      status: "OK" as const,
      error: null,
      durationMs: 12,
      details: null,
    });
    await evals.storeEpisode(ra!.id, {
      ...base,
      modelId: a.id,
      k: 8,
      promptMode: "agentic_general",
      finalText: "<answer>A</answer>",
      prediction: "A",
      score: 1,
      correct: true,
      timings: { totalMs: 1234.5, framesMs: 10, mainMs: 1000, subAgentMs: 200 },
      turns: [
        {
          index: 0,
          rawText: "<tool_call>…</tool_call>",
          forcedPrefix: null,
          forcedFinal: false,
          parsedCalls: [],
          parseIssues: [],
          promptTokens: 10,
          completionTokens: 5,
          timings: null,
          toolCalls: [call(0, 1, 3), call(1, 4, 6)],
        },
        {
          index: 1,
          rawText: "<answer>A</answer>",
          forcedPrefix: null,
          forcedFinal: false,
          parsedCalls: [],
          parseIssues: [],
          promptTokens: 20,
          completionTokens: 3,
          timings: null,
          toolCalls: [],
        },
      ],
    });
    await evals.storeEpisode(rb!.id, {
      ...base,
      modelId: b.id,
      k: 16,
      promptMode: "direct",
      finalText: "<answer>B</answer>",
      prediction: "B",
      score: 0,
      correct: false,
      timings: null,
      turns: [],
    });

    const after = await fx.asViewer.evals.compare({ projectId, sampleId: q3.id, runIds });
    expect(after.sample).toMatchObject({ key: "q3", answer: "A", datasetName: "mlvu", options: ["yes", "no"] });
    const [ca, cb] = after.columns;
    expect(ca).toMatchObject({ latencyMs: 1234.5, toolCalls: 2, episode: { prediction: "A", correct: true } });
    expect(ca!.episode!.turns.map((t) => t.toolCalls.map((c) => [c.startS, c.endS]))).toEqual([
      [
        [1, 3],
        [4, 6],
      ],
      [],
    ]);
    expect(cb).toMatchObject({ latencyMs: null, toolCalls: 0, episode: { prediction: "B", correct: false } });

    // The order of the columns is the order asked for.
    const flipped = await fx.asViewer.evals.compare({ projectId, sampleId: q3.id, runIds: [rb!.id, ra!.id] });
    expect(flipped.columns.map((c) => c.run.id)).toEqual([rb!.id, ra!.id]);

    // The picker lists both runs on the dataset with their episode on the sample.
    const on = await fx.asViewer.evals.runsOn({ projectId, sampleId: q3.id });
    expect(on.map((r) => [r.id, r.episodeId !== null, r.correct]).sort()).toEqual(
      [
        [ra!.id, true, true],
        [rb!.id, true, false],
      ].sort(),
    );
    expect((await fx.asViewer.evals.runsOn({ projectId, sampleId: samples[0]!.id })).every((r) => !r.episodeId)).toBe(
      true,
    );
    expect((await fx.asViewer.evals.findSamples({ projectId, query: "Q3" })).map((s) => s.key)).toEqual(["q3"]);

    expect(await codeOf(fx.asOutsider.evals.compare({ projectId, sampleId: q3.id, runIds }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asViewer.evals.compare({ projectId, sampleId: "nope", runIds }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asViewer.evals.compare({ projectId, sampleId: q3.id, runIds: [ra!.id, ra!.id] }))).toBe(
      "BAD_REQUEST",
    );
    for (const r of launched.runs) await fx.asEditor.runs.cancel({ projectId, runId: r.id });
  });

  it("stores a typed question in the ad-hoc dataset and runs it; refuses bad questions before creating anything", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const { video, a, b } = await seed(projectId, "clips", 1);
    const models = [
      { modelId: a.id, mode: "direct" as const, k: 8 },
      { modelId: b.id, mode: "direct" as const, k: 8 },
    ];
    const adhoc = { videoId: video.id, question: "What colour is the car?", questionType: "mcq" as const };
    const refused = await failure(
      fx.asEditor.evals.compareRun({ projectId, models, adhoc: { ...adhoc, options: ["red", "blue"], answer: "C" } }),
    );
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    expect(refused.message).toContain("The answer must be one of A, B");
    expect((await failure(fx.asEditor.evals.compareRun({ projectId, models, adhoc: { ...adhoc } }))).message).toContain(
      "Give at least two options",
    );
    expect(
      await codeOf(
        fx.asEditor.evals.compareRun({
          projectId,
          models,
          adhoc: { ...adhoc, videoId: "nope", options: ["r", "b"], answer: "A" },
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(await db().dataset.count({ where: { projectId, name: "Ad-hoc questions" } })).toBe(0);

    const first = await fx.asEditor.evals.compareRun({
      projectId,
      models,
      adhoc: { ...adhoc, options: ["red", "blue"], answer: "B" },
    });
    const second = await fx.asEditor.evals.compareRun({
      projectId,
      models,
      adhoc: { videoId: video.id, question: "Describe the scene", questionType: "oe" },
    });
    const adhocSamples = await db().sample.findMany({
      where: { dataset: { projectId, name: "Ad-hoc questions" } },
      orderBy: { key: "asc" },
    });
    expect(adhocSamples.map((s) => [s.id, s.questionType, s.answer, s.options])).toEqual([
      [first.sampleId, "mcq", "B", ["red", "blue"]],
      [second.sampleId, "oe", "", null],
    ]);
    const cmp = await fx.asViewer.evals.compare({
      projectId,
      sampleId: second.sampleId,
      runIds: second.runs.map((r) => r.id),
    });
    expect(cmp.sample).toMatchObject({ datasetName: "Ad-hoc questions", question: "Describe the scene" });
    expect(cmp.sample.video?.id).toBe(video.id);
    for (const r of [...first.runs, ...second.runs]) await fx.asEditor.runs.cancel({ projectId, runId: r.id });
  });
});

describe("evals.launch with sampleIds", () => {
  it("restricts the runs to the named samples and refuses samples of other datasets", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const { dataset, samples, a } = await seed(projectId);
    const other = await seed(projectId, "other", 1);
    const base = { projectId, name: "one", modelIds: [a.id], datasetIds: [dataset.id], modes: ["direct" as const] };
    const launched = await fx.asEditor.evals.launch({ ...base, ks: [8], sampleIds: [samples[1]!.id] });
    const run = await db().run.findUniqueOrThrow({ where: { id: launched.runs[0]!.id } });
    expect((run.config as { sampleCount: number }).sampleCount).toBe(1);
    const stored = await db().evalRunSample.findMany({ where: { runId: run.id }, orderBy: { ordinal: "asc" } });
    expect(stored.map((s) => [s.ordinal, s.sampleId])).toEqual([[0, samples[1]!.id]]);
    const refused = await failure(
      fx.asEditor.evals.launch({ ...base, ks: [16], sampleIds: [samples[0]!.id, other.samples[0]!.id] }),
    );
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.message).toContain("1 of the named samples belong to none of the chosen datasets");
    expect(await db().run.count({ where: { projectId } })).toBe(1);
    await fx.asEditor.runs.cancel({ projectId, runId: run.id });
  });
});

describe("evals.samples flippedAgainst", () => {
  it("lists the samples whose correctness differs between two runs, by direction", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const { dataset, a, b } = await seed(projectId);
    const importRun = async (modelId: string, outcomes: Record<string, boolean | "error">) =>
      (
        await fx.asEditor.evals.importReference({
          projectId,
          name: "ref",
          datasetId: dataset.id,
          modelId,
          file: referenceFile(outcomes),
        })
      ).run.id;
    // Baseline X: q1 right, q2 wrong, q3 right, q4 right, q5 wrong.
    const x = await importRun(a.id, { q1: true, q2: false, q3: true, q4: true, q5: false });
    // This run: q1 wrong (right -> wrong), q2 right (wrong -> right), q3 right, q4 error, q5 wrong.
    const y = await importRun(b.id, { q1: false, q2: true, q3: true, q4: "error", q5: false });
    const keys = (filters: Record<string, unknown>) =>
      fx.asViewer.evals.samples({ projectId, runId: y, ...filters }).then((p) => p.items.map((r) => r.key));
    expect(await keys({ flippedAgainst: x, flipDirection: "right_to_wrong" })).toEqual(["q1"]);
    expect(await keys({ flippedAgainst: x, flipDirection: "wrong_to_right" })).toEqual(["q2"]);
    expect(await keys({ flippedAgainst: x, flipDirection: "any" })).toEqual(["q1", "q2"]);
    expect(await keys({ flippedAgainst: x })).toEqual(["q1", "q2"]);
    // Seen from the other side, the directions swap.
    const fromX = await fx.asViewer.evals.samples({
      projectId,
      runId: x,
      flippedAgainst: y,
      flipDirection: "right_to_wrong",
    });
    expect(fromX.items.map((r) => r.key)).toEqual(["q2"]);
    // Combined with the other filters.
    expect(await keys({ flippedAgainst: x, outcome: "correct" })).toEqual(["q2"]);

    expect(await codeOf(fx.asViewer.evals.samples({ projectId, runId: y, flippedAgainst: y }))).toBe("BAD_REQUEST");
    const elsewhere = await seed(projectId, "elsewhere", 1);
    const z = (
      await fx.asEditor.evals.importReference({
        projectId,
        name: "z",
        datasetId: elsewhere.dataset.id,
        modelId: a.id,
        file: referenceFile({ q1: true }),
      })
    ).run.id;
    expect((await failure(fx.asViewer.evals.samples({ projectId, runId: y, flippedAgainst: z }))).message).toContain(
      "is on another dataset",
    );
    expect(await codeOf(fx.asViewer.evals.samples({ projectId, runId: y, flippedAgainst: "nope" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.evals.samples({ projectId, runId: y, flippedAgainst: x }))).toBe("NOT_FOUND");
    // The pickers: both runs are on the dataset.
    expect((await fx.asViewer.evals.runsOn({ projectId, datasetId: dataset.id })).map((r) => r.id).sort()).toEqual(
      [x, y].sort(),
    );
  });
});
