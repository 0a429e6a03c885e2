// runs.tokenCap on real Postgres (issue 41 item 1): the share of a run's stored main-agent turns
// the engine cut at the generation cap (turn timings `finish: "length"`), the cap they ran
// under, and nothing across a project boundary.
import { evalTokenCapShare } from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

/** An eval run with one episode of `finishes.length` turns, each with the given finish. */
async function evalRunWithTurns(projectId: string, finishes: ("stop" | "length")[]) {
  const dataset = await db().dataset.create({ data: { projectId, name: `d-${Math.random().toString(36).slice(2)}` } });
  const sample = await db().sample.create({
    data: { datasetId: dataset.id, key: "q", question: "Q?", answer: "A", questionType: "mcq" },
  });
  const run = await db().run.create({ data: { projectId, kind: "eval", jobName: "eval.run", name: "e", config: {} } });
  await db().episode.create({
    data: {
      runId: run.id,
      sampleId: sample.id,
      k: 8,
      promptMode: "agentic_general",
      turns: {
        create: [
          ...finishes.map((finish, index) => ({
            index,
            rawText: "<think>…",
            timings: { latencyMs: 1, finish, maxTokens: 64 },
          })),
          // The forced final answer has its own budget: counted, but not the cap reported.
          {
            index: finishes.length,
            rawText: "<answer>A</answer>",
            forcedFinal: true,
            timings: { latencyMs: 1, finish: "stop", maxTokens: 2048 },
          },
        ],
      },
    },
  });
  return run;
}

describe("runs.tokenCap", () => {
  it("counts the turns cut at the cap; the eval page warns above a tenth", async () => {
    const fx = await projectWithRoleCallers();
    const cut = await evalRunWithTurns(fx.project.id, [
      ...Array<"length">(14).fill("length"),
      ...Array<"stop">(2).fill("stop"),
    ]);
    const answer = await fx.asViewer.runs.tokenCap({ projectId: fx.project.id, runId: cut.id });
    expect(answer).toEqual({ turns: 17, cut: 14, maxTokens: 64 });
    expect(evalTokenCapShare(answer)).toBe(14 / 17);

    const fine = await evalRunWithTurns(fx.project.id, ["length", ...Array<"stop">(9).fill("stop")]);
    const ok = await fx.asViewer.runs.tokenCap({ projectId: fx.project.id, runId: fine.id });
    expect(ok).toEqual({ turns: 11, cut: 1, maxTokens: 64 });
    expect(evalTokenCapShare(ok)).toBeNull();

    const empty = await db().run.create({
      data: { projectId: fx.project.id, kind: "eval", jobName: "eval.run", name: "none", config: {} },
    });
    expect(await fx.asViewer.runs.tokenCap({ projectId: fx.project.id, runId: empty.id })).toEqual({
      turns: 0,
      cut: 0,
      maxTokens: null,
    });
  });

  it("answers NOT_FOUND for a run of another project", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const run = await evalRunWithTurns(other.project.id, ["length"]);
    const err = await fx.asViewer.runs.tokenCap({ projectId: fx.project.id, runId: run.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("NOT_FOUND");
  });
});
