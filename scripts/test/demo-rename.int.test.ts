// The demo seed's rename of the demo models' former long names (scripts/demo-rename.ts), on the
// real test database: the latest "<name> (<history>)" row takes the short name with its runs; an
// existing short-named row, another kind or another prefix is left alone; a second seed is a no-op.
import { createProjectWithRoles } from "@paravt/db/factories";
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../demo-data";
import { renameFormerDemoModel } from "../demo-rename";

const nano = (projectId: string, name: string, createdAt: Date) =>
  db().model.create({ data: { projectId, name, kind: "NANO_CHECKPOINT", config: {}, createdAt } });

describe("demo seed: former long model names", () => {
  it("gives the latest former long-named demo model the short name, keeping its runs", async () => {
    const { project } = await createProjectWithRoles(db());
    const name = DEFAULT_MODEL.name;
    const older = await nano(project.id, `${name} (small, SFT on the core 12000 steps)`, new Date(1000));
    const latest = await nano(project.id, `${name} (small, SFT on the core 18800 steps + RL)`, new Date(2000));
    const other = await nano(project.id, `${name}-x (not a former name)`, new Date(3000));
    await db().model.create({
      data: {
        projectId: project.id,
        name: `${name} (an endpoint)`,
        kind: "OPENAI_COMPATIBLE",
        config: {},
        createdAt: new Date(4000),
      },
    });
    const run = await db().run.create({
      data: { projectId: project.id, modelId: latest.id, kind: "eval", jobName: "eval.run", name: "r", config: {} },
    });

    expect(await renameFormerDemoModel(project.id, name)).toBe(latest.name);
    const renamed = await db().model.findUniqueOrThrow({ where: { id: latest.id } });
    expect(renamed.name).toBe(name);
    expect((await db().run.findUniqueOrThrow({ where: { id: run.id } })).modelId).toBe(latest.id);
    expect((await db().model.findUniqueOrThrow({ where: { id: older.id } })).name).toContain("12000 steps");
    expect((await db().model.findUniqueOrThrow({ where: { id: other.id } })).name).toBe(other.name);
    // The short name exists now: a second seed renames nothing.
    expect(await renameFormerDemoModel(project.id, name)).toBeNull();
    expect((await db().model.findUniqueOrThrow({ where: { id: older.id } })).name).toBe(older.name);
  });

  it("does nothing in a project without a former demo model", async () => {
    const { project } = await createProjectWithRoles(db());
    expect(await renameFormerDemoModel(project.id, DEFAULT_MODEL.name)).toBeNull();
    expect(await db().model.count({ where: { projectId: project.id } })).toBe(0);
  });
});
