// The evals router on real Postgres and Redis: who may launch, read and import; launch
// validation; and the reference-import path end to end (rows, filters, transcript, summary,
// matrix). Launched flows land in Redis under this file's own prefix and are removed afterwards;
// running them is the workers' tests' job (workers/src/eval-jobs.int.test.ts).
import { db, evals, queue, tokens } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { callerFor, codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-evals-api-${process.pid}`;

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
});

async function messageOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(err)}`);
  return err.message;
}

/** A dataset of MCQ samples keyed q1..qN (durations short/medium/long in turn) with one video. */
async function seedDataset(projectId: string, name: string, n: number) {
  const video = await db().video.create({
    data: { projectId, name: `${name}.mp4`, source: "PATH", path: `/nonexistent/${name}-${Date.now()}.mp4` },
  });
  const dataset = await db().dataset.create({ data: { projectId, name } });
  const durations = ["short", "medium", "long"];
  for (let i = 1; i <= n; i++) {
    await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: `q${i}`,
        question: `Question ${i}?\nA. yes\nB. no`,
        options: ["yes", "no"],
        answer: "A",
        questionType: "mcq",
        metadata: { duration: durations[(i - 1) % 3]!, split: i <= 2 ? "dev" : "test" },
      },
    });
  }
  return dataset;
}

async function seedModels(projectId: string) {
  const endpoint = await db().model.create({
    data: {
      projectId,
      name: "qwen",
      kind: "OPENAI_COMPATIBLE",
      config: { baseUrl: "http://127.0.0.1:9/v1", servedModel: "qwen" },
    },
  });
  const external = await db().model.create({ data: { projectId, name: "paper", kind: "EXTERNAL", config: {} } });
  return { endpoint, external };
}

describe("evals.launch", () => {
  it("lets editors launch one run per combination in one group; viewers and strangers cannot", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const ds1 = await seedDataset(projectId, "mlvu", 5);
    const ds2 = await seedDataset(projectId, "lvbench", 3);
    const { endpoint } = await seedModels(projectId);
    const input = {
      projectId,
      name: "smoke",
      modelIds: [endpoint.id],
      datasetIds: [ds1.id, ds2.id],
      modes: ["direct" as const, "agentic_general" as const],
      ks: [16],
      shardSize: 2,
    };
    expect(await codeOf(fx.asViewer.evals.launch(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.evals.launch(input))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.evals.launch(input))).toBe("UNAUTHORIZED");

    const launched = await fx.asEditor.evals.launch(input);
    expect(launched.runs).toHaveLength(4);
    expect(launched.runs.every((r) => r.status === "QUEUED" && r.kind === "eval" && r.jobName === "eval.run")).toBe(
      true,
    );

    // Each run is a flow: a parent waiting for ceil(samples / shardSize) shards.
    const parent = await queue("cpu").getJob(launched.runs[0]!.id);
    expect(await parent!.getState()).toBe("waiting-children");
    expect((await parent!.getDependenciesCount()).unprocessed).toBe(3); // 5 samples, 2 per shard

    const group = await fx.asViewer.evals.group({ projectId, groupId: launched.group.id });
    expect(group.runs.map((r) => [r.dataset?.name, r.mode, r.k, r.withTool])).toEqual([
      ["mlvu", "direct", 16, false],
      ["mlvu", "agentic_general", 16, true],
      ["lvbench", "direct", 16, false],
      ["lvbench", "agentic_general", 16, true],
    ]);
    // SPEC §5 locked defaults were filled in.
    expect(group.runs[0]!.knobs).toMatchObject({ temperature: 0, maxTokens: 2048, maxTurns: 3, maxParallel: 5 });
    expect(group.runs[0]!.summary).toMatchObject({ samples: 5, stored: 0, errors: 0 });
    const listed = await fx.asViewer.evals.groups({ projectId });
    expect(listed.map((g) => g.id)).toEqual([launched.group.id]);

    // Cancelling removes the shards no worker has started.
    const runId = launched.runs[0]!.id;
    await fx.asEditor.runs.cancel({ projectId, runId });
    expect((await parent!.getDependenciesCount()).unprocessed ?? 0).toBe(0);
    expect((await fx.asViewer.evals.byId({ projectId, runId })).status).toBe("CANCELLED");
    for (const r of launched.runs.slice(1)) await fx.asEditor.runs.cancel({ projectId, runId: r.id });
  });

  it("applies the split filter and the sample limit when choosing samples", async () => {
    const fx = await projectWithRoleCallers();
    const ds = await seedDataset(fx.project.id, "videomme", 6);
    const { endpoint } = await seedModels(fx.project.id);
    const base = { projectId: fx.project.id, name: "f", modelIds: [endpoint.id], datasetIds: [ds.id] };
    const a = await fx.asEditor.evals.launch({ ...base, modes: ["direct"], ks: [8], split: "dev" });
    const b = await fx.asEditor.evals.launch({ ...base, modes: ["direct"], ks: [8], sampleLimit: 4 });
    const ra = await fx.asViewer.evals.byId({ projectId: fx.project.id, runId: a.runs[0]!.id });
    const rb = await fx.asViewer.evals.byId({ projectId: fx.project.id, runId: b.runs[0]!.id });
    expect(ra.summary.samples).toBe(2);
    expect(rb.summary.samples).toBe(4);
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, modes: ["direct"], ks: [8], split: "val" }))).toContain(
      'has no samples in split "val"',
    );
    for (const r of [...a.runs, ...b.runs]) await fx.asEditor.runs.cancel({ projectId: fx.project.id, runId: r.id });
  });

  it("refuses bad selections with readable reasons", async () => {
    const fx = await projectWithRoleCallers();
    const ds = await seedDataset(fx.project.id, "mmvu", 2);
    const { endpoint, external } = await seedModels(fx.project.id);
    const base = {
      projectId: fx.project.id,
      name: "bad",
      modelIds: [endpoint.id],
      datasetIds: [ds.id],
      modes: ["agentic_general" as const],
      ks: [64],
    };
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, modelIds: [external.id] }))).toContain(
      '"paper" is an external model',
    );
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, ks: [512] }))).toContain("K must be between 1 and 256");
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, ks: [0] }))).toContain("K must be between 1 and 256");
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, modelIds: [] }))).toContain("Pick at least one model");
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, modes: [] }))).toContain(
      "Pick at least one prompt mode",
    );
    expect(await messageOf(fx.asEditor.evals.launch({ ...base, ks: [8, 8] }))).toContain("K values are listed twice");
    expect(await codeOf(fx.asEditor.evals.launch({ ...base, datasetIds: ["nope"] }))).toBe("NOT_FOUND");
    expect(await db().run.count({ where: { projectId: fx.project.id } })).toBe(0);
  });

  it("lets a READ token read, a WRITE token import but not launch, and a LAUNCH token launch", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const ds = await seedDataset(projectId, "tok", 2);
    const { endpoint, external } = await seedModels(projectId);
    const asToken = async (scopes: ("READ" | "WRITE" | "LAUNCH")[]) => {
      const t = await fx.asOwner.tokens.create({ projectId, name: scopes.join("+"), scopes });
      return callerFor(await tokens.principalFromToken(t.secret));
    };
    const read = await asToken(["READ"]);
    const write = await asToken(["WRITE"]);
    const launch = await asToken(["LAUNCH"]);
    const input = {
      projectId,
      name: "t",
      modelIds: [endpoint.id],
      datasetIds: [ds.id],
      modes: ["direct" as const],
      ks: [4],
    };
    const file = {
      summary: {},
      results: [
        {
          id: "q1",
          answer: "A",
          pred: "A",
          correct: true,
          tool_calls: 0,
          score: 1,
          full_response: "<answer>A</answer>",
        },
      ],
    };
    const importInput = { projectId, name: "ref", datasetId: ds.id, modelId: external.id, file };

    expect(await codeOf(read.evals.groups({ projectId }))).toBe("OK");
    expect(await codeOf(read.evals.launch(input))).toBe("FORBIDDEN");
    expect(await codeOf(read.evals.importReference(importInput))).toBe("FORBIDDEN");
    expect(await codeOf(write.evals.launch(input))).toBe("FORBIDDEN");
    expect(await codeOf(write.evals.importReference(importInput))).toBe("OK");
    const launched = await launch.evals.launch(input);
    expect(launched.runs).toHaveLength(1);
    await fx.asEditor.runs.cancel({ projectId, runId: launched.runs[0]!.id });
  });
});

describe("evals.importReference and the read procedures", () => {
  // Reference rows (SPEC §6): q1..q6 match samples (q6 twice), x9 matches nothing, q5 is an error.
  const file = {
    summary: { accuracy: 0.5, total: 7 },
    results: [
      { id: "q1", answer: "A", pred: "A", correct: true, tool_calls: 2, score: 1, full_response: "<answer>A</answer>" },
      {
        id: "q2",
        answer: "A",
        pred: "B",
        correct: false,
        tool_calls: 0,
        score: 0,
        full_response: "<answer>B</answer>",
      },
      { id: 3, key: "q3", answer: "A", pred: "A", correct: 1, tool_calls: [{}, {}, {}], score: 1, full_response: "A" },
      {
        id: "q4",
        answer: "A",
        pred: "B",
        correct: false,
        tool_calls: 1,
        score: 0,
        full_response: "B",
        config: { k: 64 },
      },
      {
        id: "q5",
        answer: "A",
        pred: "",
        correct: false,
        tool_calls: 0,
        score: 0,
        full_response: "",
        error: "Connection reset by peer",
      },
      {
        id: "q6",
        answer: "A",
        pred: "A",
        correct: true,
        tool_calls: 0,
        score: 1,
        full_response: "A",
        duration: "long",
      },
      { id: "q6", answer: "A", pred: "B", correct: false, tool_calls: 0, score: 0, full_response: "B" },
      { id: "x9", answer: "A", pred: "A", correct: true, tool_calls: 0, score: 1, full_response: "A" },
    ],
  };

  it("stores one episode per matched row, errors as ERROR, reports unmatched and duplicate rows, and summarizes the rows", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const ds = await seedDataset(projectId, "videomme", 6);
    const { external, endpoint } = await seedModels(projectId);
    const input = { projectId, name: "paper row", datasetId: ds.id, modelId: external.id, file };
    expect(await codeOf(fx.asViewer.evals.importReference(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.evals.importReference(input))).toBe("NOT_FOUND");
    expect(
      await messageOf(fx.asEditor.evals.importReference({ ...input, file: { results: [{ answer: "A" }] } })),
    ).toContain("results[0]");

    const out = await fx.asEditor.evals.importReference(input);
    expect(out).toMatchObject({
      rows: 8,
      matched: 6,
      errors: 1,
      unmatched: ["x9"],
      unmatchedCount: 1,
      duplicates: ["q6"],
    });
    expect(out.run).toMatchObject({ kind: "import", status: "SUCCEEDED" });
    const runId = out.run.id;
    expect(await db().episode.count({ where: { runId } })).toBe(6);

    const run = await fx.asViewer.evals.byId({ projectId, runId });
    expect(run.imported).toBe(true);
    // Answered: q1 q2 q3 q4 q6 (q5 is an error). Correct: q1 q3 q6 -> 3/5.
    expect(run.summary).toMatchObject({ samples: 6, stored: 6, answered: 5, errors: 1 });
    expect(run.summary.mcq).toEqual({ n: 5, correct: 3, accuracy: 0.6 });
    // Durations cycle short, medium, long from q1: short {q1, q4}, medium {q2}, long {q3, q6}.
    expect(run.summary.byDuration).toEqual({
      short: { n: 2, correct: 1, accuracy: 0.5 },
      medium: { n: 1, correct: 0, accuracy: 0 },
      long: { n: 2, correct: 2, accuracy: 1 },
    });
    // Tool calls over answered rows: 2 + 0 + 3 + 1 + 0 = 6 -> 1.2; 3 of 5 used a tool.
    expect(run.summary.avgToolCalls).toBeCloseTo(1.2, 12);
    expect(run.summary.toolUsageRate).toBeCloseTo(0.6, 12);

    const page = (filters: Record<string, unknown>) =>
      fx.asViewer.evals.samples({ projectId, runId, ...filters }).then((p) => p.items.map((r) => r.key));
    expect(await page({})).toEqual(["q1", "q2", "q3", "q4", "q5", "q6"]);
    expect(await page({ outcome: "correct" })).toEqual(["q1", "q3", "q6"]);
    expect(await page({ outcome: "wrong" })).toEqual(["q2", "q4"]);
    expect(await page({ outcome: "error" })).toEqual(["q5"]);
    expect(await page({ minToolCalls: 1 })).toEqual(["q1", "q3", "q4"]);
    expect(await page({ maxToolCalls: 0 })).toEqual(["q2", "q5", "q6"]);
    expect(await page({ duration: "long" })).toEqual(["q3", "q6"]);
    expect(await page({ k: 64 })).toHaveLength(6);
    expect(await page({ k: 8 })).toEqual([]);
    const first = await fx.asViewer.evals.samples({ projectId, runId, limit: 4 });
    const second = await fx.asViewer.evals.samples({ projectId, runId, limit: 4, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((r) => r.key)).toEqual(["q1", "q2", "q3", "q4", "q5", "q6"]);
    expect(second.nextCursor).toBeNull();

    const q5 = (await fx.asViewer.evals.samples({ projectId, runId, outcome: "error" })).items[0]!;
    expect(q5).toMatchObject({ status: "ERROR", error: "Connection reset by peer", correct: null });
    const episode = await fx.asViewer.evals.episode({ projectId, episodeId: q5.episodeId });
    expect(episode).toMatchObject({ status: "ERROR", sample: { key: "q5" }, turns: [] });
    expect(await codeOf(fx.asOutsider.evals.episode({ projectId, episodeId: q5.episodeId }))).toBe("NOT_FOUND");

    // A second import of another model into the same group makes a two-row matrix.
    const other = await fx.asEditor.evals.importReference({
      ...input,
      name: "endpoint row",
      modelId: endpoint.id,
      mode: "direct",
      groupId: out.group.id,
      file: { summary: {}, results: file.results.slice(0, 2) },
    });
    expect(other.group).toEqual(out.group);
    const matrix = await fx.asViewer.evals.matrix({ projectId, groupId: out.group.id });
    expect(matrix.columns).toEqual([{ datasetId: ds.id, name: "videomme" }]);
    expect(matrix.rows.map((r) => [r.modelName, r.withTool, r.cells[ds.id]!.value])).toEqual([
      ["paper", true, 0.6],
      ["qwen", false, 0.5],
    ]);
    expect(await codeOf(fx.asViewer.evals.matrix({ projectId }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOutsider.evals.matrix({ projectId, groupId: out.group.id }))).toBe("NOT_FOUND");
  });
});
