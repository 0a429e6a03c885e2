// The sample grid (issue 41 item 13) on real Postgres rows, through the evals and datasets
// routers: the grid lists exactly the episodes the samples table lists, in its order, under every
// filter (outcome, question type, tool calls, K, flipped), page by page; each card's outcome fields
// are the table row's; windows, overview timestamps and texts are capped; the flip state agrees
// with the flipped filter; and the dataset grid pages a dataset's samples.
import type { Prisma } from "@paravt/db";
import {
  evalKnobs,
  evalRunConfig,
  GRID_OVERVIEW_CAP,
  GRID_TEXT_CAP,
  type EvalSampleGridInput,
  type FlipDirection,
} from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { beforeAll, describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-evals-grid-${process.pid}`;

type Verdict = { status?: "OK" | "ERROR"; correct: boolean | null; score?: number | null };
interface SeedEpisode extends Verdict {
  key: string;
  k?: number;
  toolCallCount?: number;
  overview?: number[];
  /** Per turn, its calls' windows (null: a call rejected before a window was read). */
  turns?: ([number, number] | null)[][];
}

const SAMPLES = [
  { key: "a1", type: "mcq" as const, answer: "A" },
  { key: "a2", type: "mcq" as const, answer: "B" },
  { key: "a3", type: "mcq" as const, answer: "C" },
  { key: "g1", type: "tvg" as const, answer: "[12.0, 22.0]" },
  { key: "g2", type: "tvg" as const, answer: "[40.0, 50.0]" },
  { key: "o1", type: "oe" as const, answer: "x".repeat(GRID_TEXT_CAP + 50) },
  { key: "o2", type: "oe" as const, answer: "a red cup" },
];

async function seedDataset(projectId: string, name: string) {
  const video = await db().video.create({
    data: {
      projectId,
      name: `${name}.mp4`,
      source: "PATH",
      path: `/nonexistent/${name}-${Date.now()}-${Math.random()}.mp4`,
      status: "READY",
      durationS: 80,
      assets: { thumbnail: "thumbnail.jpg", filmstrip: { index: "filmstrip.json", sheets: ["filmstrip-0.jpg"] } },
    },
  });
  const dataset = await db().dataset.create({ data: { projectId, name } });
  const ids = new Map<string, string>();
  for (const s of SAMPLES) {
    const row = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: s.key,
        question: `Question ${s.key}?\nA. yes\nB. no`,
        options: s.type === "mcq" ? ["yes", "no"] : undefined,
        answer: s.answer,
        questionType: s.type,
        metadata: s.key === "a1" ? { visibleAtK: { "4": false, "8": true } } : {},
      },
    });
    ids.set(s.key, row.id);
  }
  return { dataset, video, ids };
}

async function seedRun(
  projectId: string,
  modelId: string,
  seeded: Awaited<ReturnType<typeof seedDataset>>,
  episodes: SeedEpisode[],
) {
  const config = evalRunConfig.parse({
    group: { id: `grp_grid_${process.pid}_${Math.random().toString(36).slice(2)}`, name: "grid" },
    modelId,
    datasetId: seeded.dataset.id,
    mode: "agentic_general",
    k: 8,
    knobs: evalKnobs.parse({}),
    sampleCount: seeded.ids.size,
    shardSize: 8,
  });
  const run = await db().run.create({
    data: {
      projectId,
      modelId,
      kind: "eval",
      jobName: "eval.run",
      name: "grid run",
      status: "SUCCEEDED",
      progress: 1,
      config: JSON.parse(JSON.stringify(config)) as Prisma.InputJsonValue,
    },
  });
  for (const e of episodes) {
    const error = e.status === "ERROR";
    await db().episode.create({
      data: {
        runId: run.id,
        sampleId: seeded.ids.get(e.key)!,
        modelId,
        k: e.k ?? 8,
        promptMode: "agentic_general",
        status: error ? "ERROR" : "OK",
        error: error ? "Connection reset by peer" : null,
        prediction: error ? null : e.key.startsWith("g") ? "15.0 - 30.0" : "A",
        correct: error ? null : e.correct,
        score: error ? null : (e.score ?? (e.correct ? 1 : 0)),
        toolCallCount: e.toolCallCount ?? 0,
        overviewTimestamps: e.overview ?? [0, 10, 20, 30, 40, 50, 60, 70],
        turns: {
          create: (e.turns ?? []).map((calls, index) => ({
            index,
            rawText: `turn ${index}`,
            toolCalls: {
              create: calls.map((w, call) => ({
                index: call,
                name: "crop_video",
                arguments: {},
                startS: w ? w[0] : null,
                endS: w ? w[1] : null,
                status: w ? "OK" : "REJECTED",
              })),
            },
          })),
        },
      },
    });
  }
  return run.id;
}

describe("evals.sampleGrid and datasets.sampleGrid", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let seeded: Awaited<ReturnType<typeof seedDataset>>;
  let runId: string;
  let baselineId: string;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    const model = await db().model.create({
      data: { projectId, name: "m", kind: "OPENAI_COMPATIBLE", config: { baseUrl: "http://127.0.0.1:9/v1" } },
    });
    seeded = await seedDataset(projectId, "grid-set");
    const k64 = Array.from({ length: 64 }, (_, i) => i * 1.25);
    runId = await seedRun(projectId, model.id, seeded, [
      {
        key: "a1",
        correct: true,
        toolCallCount: 4,
        // Turn 0: two windows; turn 1: one window, one rejected call, one with end <= start.
        turns: [
          [
            [8, 16],
            [20, 30],
          ],
          [[72, 80], null, [50, 50]],
        ],
      },
      { key: "a2", correct: false, toolCallCount: 1, turns: [[[5, 9]]], overview: k64, k: 64 },
      { key: "a3", status: "ERROR", correct: null },
      { key: "g1", correct: true, score: 0.62, toolCallCount: 2, turns: [[[10, 14]], [[13, 25]]] },
      { key: "g2", correct: false, score: 0.1 },
      { key: "o1", correct: null, score: 0.4 },
      { key: "o2", correct: true, score: 1, toolCallCount: 3, turns: [[[1, 2]]] },
    ]);
    // The baseline: a1 wrong (wrong -> right here), a2 right (right -> wrong), a3 right (an error
    // here: not comparable), g1 right (unchanged), g2 wrong (unchanged), o1 missing, o2 error.
    baselineId = await seedRun(projectId, model.id, seeded, [
      { key: "a1", correct: false },
      { key: "a2", correct: true },
      { key: "a3", correct: true },
      { key: "g1", correct: true, score: 0.8 },
      { key: "g2", correct: false, score: 0 },
      { key: "o2", status: "ERROR", correct: null },
    ]);
  });

  type Filters = Omit<EvalSampleGridInput, "projectId" | "runId" | "limit" | "cursor" | "compareWith">;

  /** Every card of the grid under `filters`, following the cursor `limit` at a time. */
  async function allCards(filters: Filters, limit: number, compareWith?: string) {
    const out = [];
    let cursor: string | undefined;
    do {
      const page = await fx.asViewer.evals.sampleGrid({
        projectId,
        runId,
        ...filters,
        limit,
        ...(cursor ? { cursor } : {}),
        ...(compareWith ? { compareWith } : {}),
      });
      expect(page.items.length).toBeLessThanOrEqual(limit);
      out.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }

  async function tableRows(filters: Filters) {
    return (await fx.asViewer.evals.samples({ projectId, runId, ...filters, limit: 200 })).items;
  }

  it("lists the table's episodes, in its order, with its outcome, under every filter and page size", async () => {
    const cases: Filters[] = [
      {},
      { outcome: "correct" },
      { outcome: "wrong" },
      { outcome: "error" },
      { questionType: "tvg" },
      { minToolCalls: 2 },
      { maxToolCalls: 0 },
      { k: 64 },
      { outcome: "wrong", questionType: "mcq" },
      { flippedAgainst: baselineId, flipDirection: "any" },
    ];
    for (const filters of cases) {
      const rows = await tableRows(filters);
      for (const limit of [1, 3, 48]) {
        const cards = await allCards(filters, limit);
        expect(
          cards.map((c) => [c.episodeId, c.key, c.status, c.correct, c.score, c.toolCallCount, c.k]),
          JSON.stringify({ filters, limit }),
        ).toEqual(rows.map((r) => [r.episodeId, r.key, r.status, r.correct, r.score, r.toolCallCount, r.k]));
      }
    }
    // The outcomes partition the run: correct + wrong + error = all.
    const counts = await Promise.all(
      (["correct", "wrong", "error"] as const).map((o) => allCards({ outcome: o }, 48).then((c) => c.length)),
    );
    expect(counts).toEqual([3, 3, 1]);
    // "wrong" holds the row without a verdict (an unscored open-ended answer), like the table.
    expect((await allCards({ outcome: "wrong" }, 48)).map((c) => c.key)).toEqual(["a2", "g2", "o1"]);
  });

  it("carries each card's windows, overview timestamps, video and bounded texts", async () => {
    const cards = await allCards({}, 48);
    const byKey = new Map(cards.map((c) => [c.key, c]));
    const a1 = byKey.get("a1")!;
    // The rejected call and the empty window are left out (the viewer's rule).
    expect(a1.windows).toEqual([
      { turn: 0, call: 0, startS: 8, endS: 16, status: "OK" },
      { turn: 0, call: 1, startS: 20, endS: 30, status: "OK" },
      { turn: 1, call: 0, startS: 72, endS: 80, status: "OK" },
    ]);
    expect(a1.windowCount).toBe(3);
    expect(a1.toolCallCount).toBe(4);
    expect(a1.overviewTimestamps).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    expect(a1.overviewCount).toBe(8);
    expect(a1.video).toEqual({ id: seeded.video.id, durationS: 80, hasFilmstrip: true });
    expect(a1.question).toBe("Question a1?");
    expect(a1.flip).toBeNull();
    // K = 64: 16 of the 64 timestamps, evenly, first and last kept.
    const a2 = byKey.get("a2")!;
    expect(a2.overviewCount).toBe(64);
    expect(a2.overviewTimestamps).toHaveLength(GRID_OVERVIEW_CAP);
    expect(a2.overviewTimestamps[0]).toBe(0);
    expect(a2.overviewTimestamps.at(-1)).toBe(63 * 1.25);
    // Grounding: the answer and the prediction the mini timeline reads its spans from.
    expect(byKey.get("g1")).toMatchObject({ answer: "[12.0, 22.0]", prediction: "15.0 - 30.0", score: 0.62 });
    expect(byKey.get("a3")).toMatchObject({ status: "ERROR", error: "Connection reset by peer", windows: [] });
    const o1 = byKey.get("o1")!;
    expect(o1.answer).toHaveLength(GRID_TEXT_CAP);
    expect(o1.answer.endsWith("…")).toBe(true);
  });

  it("says per card whether the sample flipped against the comparison run, as the flipped filter does", async () => {
    const cards = await allCards({}, 2, baselineId);
    expect(Object.fromEntries(cards.map((c) => [c.key, c.flip]))).toEqual({
      a1: "wrong_to_right",
      a2: "right_to_wrong",
      a3: "not_comparable",
      g1: "unchanged",
      g2: "unchanged",
      o1: "not_comparable",
      o2: "not_comparable",
    });
    for (const direction of ["right_to_wrong", "wrong_to_right"] as FlipDirection[]) {
      const filtered = await tableRows({ flippedAgainst: baselineId, flipDirection: direction });
      expect(cards.filter((c) => c.flip === direction).map((c) => c.episodeId)).toEqual(
        filtered.map((r) => r.episodeId),
      );
    }
    // compareWith filters nothing; flippedAgainst does.
    expect(cards).toHaveLength(SAMPLES.length);
    const flipped = await allCards({ flippedAgainst: baselineId, flipDirection: "any" }, 48, baselineId);
    expect(flipped.map((c) => c.flip)).toEqual(["wrong_to_right", "right_to_wrong"]);
  });

  it("refuses a comparison with the run itself or a run on another dataset, and strangers", async () => {
    expect(await codeOf(fx.asViewer.evals.sampleGrid({ projectId, runId, compareWith: runId }))).toBe("BAD_REQUEST");
    const model = await db().model.findFirstOrThrow({ where: { projectId } });
    const other = await seedDataset(projectId, "grid-other");
    const elsewhere = await seedRun(projectId, model.id, other, [{ key: "a1", correct: true }]);
    expect(await codeOf(fx.asViewer.evals.sampleGrid({ projectId, runId, compareWith: elsewhere }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(fx.asViewer.evals.sampleGrid({ projectId, runId, compareWith: "nope" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.evals.sampleGrid({ projectId, runId }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asViewer.evals.sampleGrid({ projectId, runId: "nope" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asViewer.evals.sampleGrid({ projectId, runId, limit: 97 }))).toBe("BAD_REQUEST");
  });

  it("pages a dataset's samples by key, with the type filter, visibility per K and the video", async () => {
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await fx.asViewer.datasets.sampleGrid({
        projectId,
        datasetId: seeded.dataset.id,
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(all.map((c) => c.key)).toEqual(SAMPLES.map((s) => s.key));
    const table = await fx.asViewer.datasets.samples({ projectId, datasetId: seeded.dataset.id, limit: 200 });
    expect(all.map((c) => c.sampleId)).toEqual(table.items.map((s) => s.id));
    expect(all[0]).toMatchObject({
      questionType: "mcq",
      question: "Question a1?",
      visibleAtK: { "4": false, "8": true },
      video: { id: seeded.video.id, durationS: 80, hasFilmstrip: true },
    });
    expect(all[1]!.visibleAtK).toBeNull();
    const tvg = await fx.asViewer.datasets.sampleGrid({ projectId, datasetId: seeded.dataset.id, questionType: "tvg" });
    expect(tvg.items.map((c) => [c.key, c.answer])).toEqual([
      ["g1", "[12.0, 22.0]"],
      ["g2", "[40.0, 50.0]"],
    ]);
    expect(tvg.nextCursor).toBeNull();
    expect(await codeOf(fx.asOutsider.datasets.sampleGrid({ projectId, datasetId: seeded.dataset.id }))).toBe(
      "NOT_FOUND",
    );
  });
});
