// A NANO_CHECKPOINT model shows its checkpoint's trained Ks, quality, lineage and short id
// (models-nano.ts): the committed checkpoints, one written before those keys existed, and
// directories that cannot be read, against the real Postgres and DATA_DIR.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createProjectWithRoles } from "@paravt/db/factories";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { serverEnv } from "../env";
import { projectAccess } from "./access";
import { createModel, listModels } from "./models";
import { readNanoCheckpoint } from "./models-nano";

const committed = (name: string) => fileURLToPath(new URL(`../../../../nano/checkpoints/${name}`, import.meta.url));
const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");

const cleanup: string[] = [];
afterAll(async () => {
  for (const p of cleanup) await fs.rm(p, { recursive: true, force: true });
});

async function project() {
  const fx = await createProjectWithRoles(db());
  return { fx, access: await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id) };
}

/** A run checkpoint directory of the project (where train.sft writes) holding these files. */
async function runCheckpoint(projectId: string, files: Record<string, string>): Promise<string> {
  const run = await db().run.create({
    data: { projectId, kind: "sft", jobName: "train.sft", name: "sft", status: "SUCCEEDED" },
  });
  const runDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);
  cleanup.push(runDir);
  const dir = path.join(runDir, "final");
  await fs.mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
  return dir;
}

describe("a NANO_CHECKPOINT model's checkpoint", () => {
  it("gives the committed checkpoints' provenance whole (the contract mirrors the nano schema)", async () => {
    const { fx } = await project();
    for (const name of ["default", "perception", "tiny"]) {
      const dir = committed(name);
      const raw = JSON.parse(await fs.readFile(path.join(dir, "config.json"), "utf8")) as Record<string, unknown>;
      const info = await readNanoCheckpoint(fx.project.id, dir);
      const hash = await sha256(path.join(dir, "model.safetensors"));
      // Nothing stripped or renamed: what the API shows is config.json's own.
      expect(info).toEqual({
        shortId: hash.slice(0, 8),
        modelHash: hash,
        trainedKs: raw.trainedKs,
        quality: raw.quality,
        lineage: raw.lineage,
        problem: null,
      });
    }
    const info = await readNanoCheckpoint(fx.project.id, committed("default"));
    expect(info.trainedKs).toEqual([4, 8, 16]);
    expect(info.lineage!.at(-1)).toMatchObject({ name: "o1", steps: 3343, seed: 501 });
    expect(info.quality).toMatchObject({ date: "2026-11-27" });
  });

  it("of a checkpoint older than lineage has a short id and no provenance", async () => {
    const { fx } = await project();
    const dir = await runCheckpoint(fx.project.id, {
      "config.json": JSON.stringify({ format: "paravt-nano-checkpoint", formatVersion: 1 }),
      "model.safetensors": "weights",
    });
    const hash = createHash("sha256").update("weights").digest("hex");
    expect(await readNanoCheckpoint(fx.project.id, dir)).toEqual({
      shortId: hash.slice(0, 8),
      modelHash: hash,
      trainedKs: null,
      quality: null,
      lineage: null,
      problem: null,
    });
    // Rewritten in place (a resumed run's final checkpoint): the hash follows.
    await fs.writeFile(path.join(dir, "model.safetensors"), "other weights");
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(path.join(dir, "model.safetensors"), later, later);
    expect((await readNanoCheckpoint(fx.project.id, dir)).modelHash).toBe(
      createHash("sha256").update("other weights").digest("hex"),
    );
  });

  it("says why it cannot be read, never throws", async () => {
    const { fx } = await project();
    const other = await project();
    const mine = await runCheckpoint(fx.project.id, { "config.json": "{", "model.safetensors": "w" });
    expect((await readNanoCheckpoint(fx.project.id, mine)).problem).toBe(`${mine} has no readable config.json`);
    const notNano = await runCheckpoint(fx.project.id, { "config.json": "{}", "model.safetensors": "w" });
    expect((await readNanoCheckpoint(fx.project.id, notNano)).problem).toMatch(/is not a ParaVT-nano checkpoint's$/);
    const badKs = await runCheckpoint(fx.project.id, {
      "config.json": JSON.stringify({ format: "paravt-nano-checkpoint", trainedKs: ["eight"] }),
    });
    expect((await readNanoCheckpoint(fx.project.id, badKs)).problem).toMatch(/config\.json: trainedKs\.0: /);
    const noModel = await runCheckpoint(fx.project.id, {
      "config.json": JSON.stringify({ format: "paravt-nano-checkpoint" }),
    });
    expect((await readNanoCheckpoint(fx.project.id, noModel)).problem).toBe(
      `${noModel} has no readable model.safetensors`,
    );
    // Another project's run checkpoint reads nothing (the registration's confinement).
    expect(await readNanoCheckpoint(other.fx.project.id, mine)).toMatchObject({
      shortId: null,
      lineage: null,
      problem: expect.stringContaining("is not allowed"),
    });
  });

  it("is on the model's API output, for NANO_CHECKPOINT models only", async () => {
    const { access } = await project();
    const nano = await createModel(access, {
      name: "nano-default",
      config: { kind: "NANO_CHECKPOINT", checkpoint: committed("default") },
    });
    expect(nano.nano).toMatchObject({ trainedKs: [4, 8, 16], problem: null });
    await createModel(access, { name: "paper", config: { kind: "EXTERNAL", description: "" } });
    const listed = await listModels(access);
    expect(listed.map((m) => [m.name, m.nano?.shortId ?? null])).toEqual([
      ["paper", null],
      ["nano-default", nano.nano!.shortId],
    ]);
  });
});
