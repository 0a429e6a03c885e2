// training.launchRl on real Postgres: only editors may launch, and bad settings are refused with
// the field and the reason before any Run row exists.
import { db } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
  throw new Error("expected the call to be refused");
}

/** A dataset that looks imported from a needle suite (the launch only reads its source). */
async function suiteDataset(projectId: string) {
  return db().dataset.create({
    data: { projectId, name: "suite", source: { kind: "needle-suite", dir: "/nonexistent/suite" } },
  });
}

describe("training.launchRl", () => {
  it("refuses a viewer with FORBIDDEN and creates no run", async () => {
    const fx = await projectWithRoleCallers();
    const ds = await suiteDataset(fx.project.id);
    const err = await errorOf(
      fx.asViewer.training.launchRl({ projectId: fx.project.id, datasetId: ds.id, name: "rl", steps: 1 }),
    );
    expect(err.code).toBe("FORBIDDEN");
    expect(await db().run.count({ where: { projectId: fx.project.id } })).toBe(0);
  });

  it("refuses invalid knobs with the field and a readable reason", async () => {
    const fx = await projectWithRoleCallers();
    const ds = await suiteDataset(fx.project.id);
    const err = await errorOf(
      fx.asEditor.training.launchRl({
        projectId: fx.project.id,
        datasetId: ds.id,
        name: "rl",
        steps: 1,
        overrides: { groupSize: 1, clip: 2 },
      }),
    );
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toMatch(/a GRPO group needs at least 2 rollouts/);
    expect(err.message).toMatch(/the PPO clip must be in \(0, 1\)/);
    const unknown = await errorOf(
      fx.asEditor.training.launchRl({
        projectId: fx.project.id,
        datasetId: ds.id,
        name: "rl",
        steps: 1,
        overrides: { validateEvery: 2 },
      }),
    );
    expect(unknown.message).toMatch(/validateEvery > 0 needs validationSize > 0/);
    expect(await db().run.count({ where: { projectId: fx.project.id } })).toBe(0);
  });

  it("refuses a starting model that is not a nano checkpoint, and a dataset that is not a suite", async () => {
    const fx = await projectWithRoleCallers();
    const ds = await suiteDataset(fx.project.id);
    const endpoint = await db().model.create({
      data: { projectId: fx.project.id, name: "vllm", kind: "EXTERNAL", config: { description: "x" } },
    });
    const err = await errorOf(
      fx.asEditor.training.launchRl({
        projectId: fx.project.id,
        datasetId: ds.id,
        modelId: endpoint.id,
        name: "rl",
        steps: 1,
      }),
    );
    expect(err.message).toMatch(/"vllm" is not a nano checkpoint/);
    const plain = await db().dataset.create({ data: { projectId: fx.project.id, name: "plain" } });
    const err2 = await errorOf(
      fx.asEditor.training.launchRl({ projectId: fx.project.id, datasetId: plain.id, name: "rl", steps: 1 }),
    );
    expect(err2.message).toMatch(/Only a needle-suite dataset can train nano with RL/);
    expect(await db().run.count({ where: { projectId: fx.project.id } })).toBe(0);
  });

  it("stores the suite's measured max new tokens when the launch gives none, SPEC §3's 2048 when unmeasured", async () => {
    const fx = await projectWithRoleCallers();
    const turnTokens = {
      tokenizer: { version: 2, hash: "h" },
      main: { turns: 100, p50: 75, p99: 237, max: 270 },
      sub: { turns: 50, p50: 63, p99: 114, max: 136 },
    };
    const measured = await db().dataset.create({
      data: {
        projectId: fx.project.id,
        name: "measured",
        source: { kind: "needle-suite", dir: "/nonexistent/suite", turnTokens },
      },
    });
    const maxNewTokensOf = async (datasetId: string, overrides?: { maxNewTokens: number }) => {
      const run = await fx.asEditor.training.launchRl({
        projectId: fx.project.id,
        datasetId,
        name: "rl",
        steps: 1,
        ...(overrides ? { overrides } : {}),
      });
      const row = await db().run.findUniqueOrThrow({ where: { id: run.id } });
      return (row.config as { overrides: { maxNewTokens?: number } }).overrides.maxNewTokens;
    };
    expect(await maxNewTokensOf(measured.id)).toBe(320); // 237 × 1.25, rounded up to 32
    expect(await maxNewTokensOf(measured.id, { maxNewTokens: 16 })).toBe(16);
    expect(await maxNewTokensOf((await suiteDataset(fx.project.id)).id)).toBe(2048);
  });
});
