// SPEC §5 summaries and the paper-shaped group table on real Postgres rows, through the evals and
// reviews routers: format compliance from the stored turns (the one @paravt/protocol definition,
// the same verdict as the "format failure" review queue), ERROR episodes left out of every figure,
// VideoMME by duration, Charades-STA mIoU and R@0.3/0.5/0.7, an imported reference run (no turns:
// compliance not judged), a stored summary of an older shape recomputed, and the table's roles.
//
// The imported run's rows are stored as services/evals-import.ts stores a reference evaluator row
// (EvolvingLMMs-Lab/ParaVT paravt/eval/driver.py `_make_result`: id, answer, pred, correct,
// tool_calls, score, full_response[:500]; no turns).
import type { Prisma } from "@paravt/db";
import { evalKnobs, evalRunConfig, importedRunConfig, type EvalMode } from "@paravt/shared";
import { closeEventBus, db } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

process.env.REDIS_PREFIX = `paravt-test-evals-table-${process.pid}`;

afterAll(async () => {
  await closeEventBus();
});

const THINK = "<think>\nThe overview shows the clock at noon.\n</think>\n";
const CALL =
  '<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": 10, "end_time": 20}}\n</tool_call>';
/** What workers/src/eval-sample.ts stores as a turn's timings. */
const ended = (finish: "stop" | "length") => ({ latencyMs: 40, finish, maxTokens: 2048 });

interface SeedTurn {
  rawText: string;
  finish?: "stop" | "length";
  forcedFinal?: boolean;
}
interface SeedEpisode {
  key: string;
  status?: "OK" | "ERROR";
  correct?: boolean | null;
  score?: number | null;
  toolCallCount?: number;
  turns?: SeedTurn[];
}

async function seedDataset(
  projectId: string,
  name: string,
  samples: { key: string; tvg?: boolean; duration?: string }[],
) {
  const video = await db().video.create({
    data: { projectId, name: `${name}.mp4`, source: "PATH", path: `/nonexistent/${name}-${Date.now()}.mp4` },
  });
  const dataset = await db().dataset.create({ data: { projectId, name } });
  const ids = new Map<string, string>();
  for (const s of samples) {
    const row = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: s.key,
        question: s.tvg ? "When does the person open the door?" : `Question ${s.key}?\nA. yes\nB. no`,
        options: s.tvg ? undefined : ["yes", "no"],
        answer: s.tvg ? "12.0 - 22.0" : "A",
        questionType: s.tvg ? "tvg" : "mcq",
        metadata: s.duration ? { duration: s.duration } : {},
      },
    });
    ids.set(s.key, row.id);
  }
  return { dataset, ids };
}

async function seedRun(
  projectId: string,
  o: {
    group: { id: string; name: string };
    modelId: string;
    dataset: { dataset: { id: string }; ids: Map<string, string> };
    mode: EvalMode;
    imported?: boolean;
    episodes: SeedEpisode[];
  },
) {
  const sampleIds = o.episodes.map((e) => o.dataset.ids.get(e.key)!);
  const config = o.imported
    ? importedRunConfig.parse({
        group: o.group,
        modelId: o.modelId,
        datasetId: o.dataset.dataset.id,
        mode: o.mode,
        k: 64,
        imported: {
          rows: sampleIds.length,
          matched: sampleIds.length,
          unmatched: [],
          duplicates: [],
          referenceSummary: null,
        },
      })
    : evalRunConfig.parse({
        group: o.group,
        modelId: o.modelId,
        datasetId: o.dataset.dataset.id,
        mode: o.mode,
        k: 64,
        knobs: evalKnobs.parse({}),
        sampleCount: sampleIds.length,
        shardSize: 8,
      });
  const run = await db().run.create({
    data: {
      projectId,
      modelId: o.modelId,
      kind: o.imported ? "import" : "eval",
      jobName: o.imported ? "eval.import" : "eval.run",
      name: `${o.mode} ${o.dataset.dataset.id}`,
      status: "SUCCEEDED",
      progress: 1,
      config: JSON.parse(JSON.stringify(config)) as Prisma.InputJsonValue,
    },
  });
  for (const e of o.episodes) {
    const error = e.status === "ERROR";
    await db().episode.create({
      data: {
        runId: run.id,
        sampleId: o.dataset.ids.get(e.key)!,
        modelId: o.modelId,
        k: 64,
        promptMode: o.mode,
        status: error ? "ERROR" : "OK",
        error: error ? "Connection reset by peer" : null,
        prediction: error ? null : e.correct === false ? "B" : "A",
        correct: error ? null : (e.correct ?? null),
        score: error ? null : (e.score ?? (e.correct ? 1 : 0)),
        toolCallCount: e.toolCallCount ?? 0,
        finalText: o.imported ? "A" : null,
        turns: {
          create: (e.turns ?? []).map((t, index) => ({
            index,
            rawText: t.rawText,
            forcedFinal: t.forcedFinal ?? false,
            parseIssues: [],
            timings: ended(t.finish ?? "stop"),
          })),
        },
      },
    });
  }
  return run;
}

describe("eval summaries and the group table on stored rows", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let runs: Record<"videomme" | "charades" | "imported", { id: string }>;
  const group = { id: `grp_table_${process.pid}_${Date.now()}`, name: "Main table | K=64" };

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    const paravt = await db().model.create({
      data: { projectId, name: "ParaVT-8B", kind: "OPENAI_COMPATIBLE", config: { baseUrl: "http://127.0.0.1:9/v1" } },
    });
    const paper = await db().model.create({
      data: { projectId, name: "Qwen3-VL-8B (paper)", kind: "EXTERNAL", config: {} },
    });
    const videomme = await seedDataset(projectId, "VideoMME", [
      { key: "v1", duration: "short" },
      { key: "v2", duration: "medium" },
      { key: "v3", duration: "long" },
      { key: "v4", duration: "short" },
    ]);
    const charades = await seedDataset(projectId, "Charades-STA", [
      { key: "c1", tvg: true },
      { key: "c2", tvg: true },
      { key: "c3", tvg: true },
      { key: "c4", tvg: true },
    ]);
    runs = {
      videomme: await seedRun(projectId, {
        group,
        modelId: paravt.id,
        dataset: videomme,
        mode: "agentic_general",
        episodes: [
          // Compliant: think + a call, then think + answer.
          {
            key: "v1",
            correct: true,
            toolCallCount: 1,
            turns: [{ rawText: THINK + CALL }, { rawText: THINK + "<answer>A</answer>" }],
          },
          // Cut by max tokens (finish "length") right after its answer: a format failure, and wrong.
          { key: "v2", correct: false, turns: [{ rawText: THINK + "<answer>B</answer>", finish: "length" }] },
          // Three tool rounds, then the forced final answer as a bare letter: compliant.
          {
            key: "v3",
            correct: true,
            toolCallCount: 3,
            turns: [
              { rawText: THINK + CALL },
              { rawText: THINK + CALL },
              { rawText: THINK + CALL },
              { rawText: "A", forcedFinal: true },
            ],
          },
          // Dead server: counted as an error only.
          { key: "v4", status: "ERROR" },
        ],
      }),
      charades: await seedRun(projectId, {
        group,
        modelId: paravt.id,
        dataset: charades,
        mode: "agentic_minimal",
        // Hull IoUs (scored by @paravt/agent scoreEpisode): 0.8, 0.5, 0.25, and an answer without
        // a readable range (0).
        episodes: [0.8, 0.5, 0.25, 0].map((score, i) => ({
          key: `c${i + 1}`,
          score,
          correct: score >= 0.5,
          toolCallCount: 1,
          turns: [{ rawText: CALL }, { rawText: "The event happens in 12.0 - 20.0 seconds." }],
        })),
      }),
      imported: await seedRun(projectId, {
        group,
        modelId: paper.id,
        dataset: videomme,
        mode: "agentic_general",
        imported: true,
        episodes: [
          { key: "v1", correct: true, toolCallCount: 2 },
          { key: "v2", correct: true },
          { key: "v3", correct: false },
          { key: "v4", correct: true, toolCallCount: 1 },
        ],
      }),
    };
  });

  it("summarizes a VideoMME run: accuracy and by duration over answered rows, format compliance, tools, errors", async () => {
    const { summary } = await fx.asViewer.evals.byId({ projectId, runId: runs.videomme.id });
    expect(summary).toMatchObject({ samples: 4, stored: 4, answered: 3, errors: 1 });
    // v1 and v3 right of the three answered; v4 (ERROR) is in no figure.
    expect(summary.mcq).toEqual({ n: 3, correct: 2, accuracy: 2 / 3 });
    expect(summary.byDuration).toEqual({
      short: { n: 1, correct: 1, accuracy: 1 },
      medium: { n: 1, correct: 0, accuracy: 0 },
      long: { n: 1, correct: 1, accuracy: 1 },
    });
    // v2 ran to max tokens: 2 of 3 answered episodes are compliant.
    expect(summary.formatCompliance).toEqual({ n: 3, compliant: 2, rate: 2 / 3 });
    expect(summary.avgToolCalls).toBeCloseTo(4 / 3, 12);
    expect(summary.toolUsageRate).toBeCloseTo(2 / 3, 12);
    expect(summary.grounding).toBeNull();
  });

  it("the review filter 'format failure' picks exactly the episodes the summary counts as non-compliant", async () => {
    const { queue } = await fx.asEditor.reviews.createQueue({
      projectId,
      runId: runs.videomme.id,
      filter: { kind: "format" },
    });
    const detail = await fx.asViewer.reviews.queue({ projectId, queueId: queue.id });
    expect(detail.items.map((i) => i.sampleKey)).toEqual(["v2"]);
  });

  it("summarizes a Charades-STA run: mIoU and R@0.3/0.5/0.7 over answered rows", async () => {
    const { summary } = await fx.asViewer.evals.byId({ projectId, runId: runs.charades.id });
    expect(summary.grounding!.n).toBe(4);
    // (0.8 + 0.5 + 0.25 + 0) / 4 = 0.3875; >= 0.3: 2/4; >= 0.5: 2/4; >= 0.7: 1/4.
    expect(summary.grounding!.mIoU).toBeCloseTo(0.3875, 12);
    expect(summary.grounding!.r03).toBe(0.5);
    expect(summary.grounding!.r05).toBe(0.5);
    expect(summary.grounding!.r07).toBe(0.25);
    // Free-text answers are the bare tool envelope's contract (agentic_minimal).
    expect(summary.formatCompliance).toEqual({ n: 4, compliant: 4, rate: 1 });
    expect(summary.mcq).toBeNull();
  });

  it("does not judge the format of an imported reference run (no turns stored)", async () => {
    const { summary } = await fx.asViewer.evals.byId({ projectId, runId: runs.imported.id });
    expect(summary.mcq).toEqual({ n: 4, correct: 3, accuracy: 0.75 });
    expect(summary.formatCompliance).toBeNull();
    expect(summary.toolUsageRate).toBe(0.5);
  });

  it("recomputes a stored summary of an older shape from the rows and stores it again", async () => {
    const old = { samples: 4, stored: 4, answered: 3, errors: 1, mcq: { n: 3, correct: 2, accuracy: 2 / 3 } };
    await db().run.update({ where: { id: runs.videomme.id }, data: { summary: old } });
    const { summary } = await fx.asViewer.evals.byId({ projectId, runId: runs.videomme.id });
    expect(summary.formatCompliance).toEqual({ n: 3, compliant: 2, rate: 2 / 3 });
    const stored = await db().run.findUniqueOrThrow({ where: { id: runs.videomme.id } });
    expect(stored.summary).toMatchObject({ formatCompliance: { n: 3, compliant: 2 } });
  });

  it("gives every matrix cell its per-question-type figures with n and standard error", async () => {
    // A summary stored before grounding had a standard error is recomputed from the rows.
    const { summary } = await fx.asViewer.evals.byId({ projectId, runId: runs.charades.id });
    const { se: _se, ...olderGrounding } = summary.grounding!;
    await db().run.update({
      where: { id: runs.charades.id },
      data: { summary: { ...summary, grounding: olderGrounding } },
    });
    const m = await fx.asViewer.evals.matrix({ projectId, groupId: group.id });
    const paravt = m.rows.find((r) => r.modelName === "ParaVT-8B" && r.mode === "agentic_minimal")!;
    const charades = Object.values(paravt.cells)[0]!;
    // IoUs 0.8, 0.5, 0.25, 0: mean 0.3875, sample SD over n - 1 = 3, SE = SD / sqrt(4).
    const sd = Math.sqrt([0.8, 0.5, 0.25, 0].reduce((a, v) => a + (v - 0.3875) ** 2, 0) / 3);
    expect(charades).toMatchObject({ metric: "mIoU", n: 4, answered: 4, errors: 0 });
    expect(charades.se).toBeCloseTo(sd / 2, 12);
    expect(charades.figures).toHaveLength(1);
    expect(charades.figures[0]).toMatchObject({ quantity: "mIoU", n: 4 });
    expect(charades.figures[0]!.se).toBeCloseTo(sd / 2, 12);
    // VideoMME: 2 of 3 answered right (the ERROR episode is in no n), with the binomial SE.
    const videomme = m.rows.find((r) => r.modelName === "ParaVT-8B" && r.mode === "agentic_general")!;
    const mcq = Object.values(videomme.cells)[0]!;
    expect(mcq).toMatchObject({ metric: "accuracy", n: 3, errors: 1 });
    expect(mcq.figures.map((f) => [f.quantity, f.n])).toEqual([["accuracy", 3]]);
    // Agresti-Coull (eval-quantities.ts binomialSE): p~ = (2 + 2) / (3 + 4), over 3 + 4.
    expect(mcq.se).toBeCloseTo(Math.sqrt(((4 / 7) * (3 / 7)) / 7), 12);
    const stored = await db().run.findUniqueOrThrow({ where: { id: runs.charades.id } });
    expect((stored.summary as { grounding: { se: number } }).grounding.se).toBeCloseTo(sd / 2, 12);
  });

  it("exports the group as the paper's main table, as CSV and Markdown, to viewers only", async () => {
    const input = { projectId, groupId: group.id };
    expect(await codeOf(fx.asOutsider.evals.table(input))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.evals.table(input))).toBe("UNAUTHORIZED");
    expect(await codeOf(fx.asViewer.evals.table({ projectId, groupId: "grp_missing" }))).toBe("NOT_FOUND");

    const t = await fx.asViewer.evals.table(input);
    expect(t.group).toEqual(group);
    expect(t.columns.map((c) => [c.name, c.metric])).toEqual([
      ["Charades-STA", "mIoU"],
      ["VideoMME", "accuracy"],
    ]);
    // ParaVT-8B's agentic_general (VideoMME) and agentic_minimal (Charades-STA) runs make one row.
    expect(t.rows.map((r) => [r.modelName, r.modes, r.values, r.average])).toEqual([
      ["ParaVT-8B", ["agentic_minimal", "agentic_general"], [0.3875, 2 / 3], (0.3875 + 2 / 3) / 2],
      ["Qwen3-VL-8B (paper)", ["agentic_general"], [null, 0.75], null],
    ]);
    expect(t.csv.split("\r\n")).toEqual([
      "Model,Mode,K,Tools,Charades-STA (mIoU),VideoMME (Acc),Avg,Notes",
      "ParaVT-8B,agentic_minimal + agentic_general,64,yes,38.8,66.7,52.7,VideoMME: 1 ERROR episode left out",
      "Qwen3-VL-8B (paper),agentic_general,64,yes,,75.0,,",
      "",
    ]);
    expect(t.markdown.split("\n").slice(0, 6)).toEqual([
      "# Main table \\| K=64",
      "",
      "| Model | Mode | K | Tools | Charades-STA (mIoU) | VideoMME (Acc) | Avg |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
      "| ParaVT-8B | agentic_minimal + agentic_general | 64 | yes | 38.8 | 66.7 | 52.7 |",
      "| Qwen3-VL-8B (paper) | agentic_general | 64 | yes | — | 75.0 | — |",
    ]);
    // Per run: VideoMME by duration and format compliance; the imported run's compliance is blank.
    expect(t.markdown).toContain(
      "| ParaVT-8B | agentic_general | 64 | VideoMME | succeeded | 4/4 | 1 | 66.7 | 100.0 | 0.0 | 100.0 | — | — | — | — | 66.7 | 66.7 | 1.33 |",
    );
    expect(t.markdown).toContain(
      "| ParaVT-8B | agentic_minimal | 64 | Charades-STA | succeeded | 4/4 | 0 | — | — | — | — | 38.8 | 50.0 | 50.0 | 25.0 | 100.0 | 100.0 | 1.00 |",
    );
    expect(t.markdown).toContain(
      "| Qwen3-VL-8B (paper) | agentic_general | 64 | VideoMME | succeeded | 4/4 | 0 | 75.0 | 100.0 | 100.0 | 0.0 | — | — | — | — | — | 50.0 | 0.75 |",
    );
    expect(t.fileName).toBe("paravt-main-table-k-64-table");
  });
});
