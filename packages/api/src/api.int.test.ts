import { db, hashTokenSecret } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { callerFor, codeOf, projectWithRoleCallers, userCaller } from "./test-helpers";

describe("projects", () => {
  it("creates a project whose creator is owner, and lists it only for members", async () => {
    const fx = await projectWithRoleCallers();
    const created = await fx.asOwner.projects.create({ name: "Needle suite ablation" });
    expect(created.role).toBe("OWNER");
    expect(created.slug).toMatch(/^needle-suite-ablation-[0-9a-f]{6}$/);
    const mine = await fx.asOwner.projects.list();
    expect(mine.map((p) => p.id)).toContain(created.id);
    const theirs = await fx.asOutsider.projects.list();
    expect(theirs.map((p) => p.id)).not.toContain(created.id);
  });

  it("hides a project from non-members exactly like an unknown id", async () => {
    const fx = await projectWithRoleCallers();
    expect(await codeOf(fx.asOutsider.projects.byId({ projectId: fx.project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.projects.byId({ projectId: "does-not-exist" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.runs.list({ projectId: fx.project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.members.list({ projectId: fx.project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asViewer.projects.byId({ projectId: fx.project.id }))).toBe("OK");
  });

  it("requires a session", async () => {
    const fx = await projectWithRoleCallers();
    expect(await codeOf(fx.anonymous.projects.list())).toBe("UNAUTHORIZED");
    expect(await codeOf(fx.anonymous.projects.byId({ projectId: fx.project.id }))).toBe("UNAUTHORIZED");
  });

  it("rejects invalid input with a readable message", async () => {
    const fx = await projectWithRoleCallers();
    const err = await fx.asOwner.projects.create({ name: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
    expect((err as TRPCError).message).toContain("at least 2 characters");
  });

  it("lets only owners rename", async () => {
    const fx = await projectWithRoleCallers();
    expect(await codeOf(fx.asEditor.projects.update({ projectId: fx.project.id, name: "Nope" }))).toBe("FORBIDDEN");
    const renamed = await fx.asOwner.projects.update({ projectId: fx.project.id, name: "Renamed" });
    expect(renamed.name).toBe("Renamed");
  });
});

describe("members", () => {
  it("owner adds a viewer by email; editors and viewers cannot manage members", async () => {
    const fx = await projectWithRoleCallers();
    const newcomer = await db().user.create({
      data: { id: `usr_new_${Date.now()}`, name: "New", email: `new${Date.now()}@example.test` },
    });
    const input = { projectId: fx.project.id, email: newcomer.email.toUpperCase(), role: "VIEWER" as const };
    expect(await codeOf(fx.asEditor.members.add(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.members.add(input))).toBe("FORBIDDEN");
    const added = await fx.asOwner.members.add(input);
    expect(added).toMatchObject({ userId: newcomer.id, role: "VIEWER" });
    expect(await codeOf(fx.asOwner.members.add(input))).toBe("CONFLICT");
    const list = await userCaller(newcomer.id).members.list({ projectId: fx.project.id });
    expect(list.map((m) => m.role).sort()).toEqual(["EDITOR", "OWNER", "VIEWER", "VIEWER"]);
  });

  it("refuses an unknown email and never leaves a project without an owner", async () => {
    const fx = await projectWithRoleCallers();
    const unknown = fx.asOwner.members.add({ projectId: fx.project.id, email: "nobody@example.test", role: "EDITOR" });
    expect(await codeOf(unknown)).toBe("BAD_REQUEST");
    expect(
      await codeOf(fx.asOwner.members.updateRole({ projectId: fx.project.id, userId: fx.owner.id, role: "VIEWER" })),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOwner.members.remove({ projectId: fx.project.id, userId: fx.owner.id }))).toBe(
      "BAD_REQUEST",
    );
    await fx.asOwner.members.updateRole({ projectId: fx.project.id, userId: fx.editor.id, role: "OWNER" });
    await fx.asOwner.members.updateRole({ projectId: fx.project.id, userId: fx.owner.id, role: "VIEWER" });
    const roles = await fx.asEditor.members.list({ projectId: fx.project.id });
    expect(roles.find((m) => m.userId === fx.owner.id)?.role).toBe("VIEWER");
  });
});

describe("api tokens", () => {
  it("stores only a hash, shows the secret once, and stops working when revoked or expired", async () => {
    const fx = await projectWithRoleCallers();
    const { token, secret } = await fx.asOwner.tokens.create({
      projectId: fx.project.id,
      name: "ci",
      scopes: ["READ"],
      expiresInDays: 30,
    });
    expect(secret).toMatch(/^pvt_/);
    const row = await db().apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(row.tokenHash).toBe(hashTokenSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await fx.asOwner.tokens.list({ projectId: fx.project.id }))).not.toContain(secret);

    const { tokens } = await import("@paravt/shared/server");
    const principal = await tokens.principalFromToken(secret);
    expect(principal).toMatchObject({ kind: "token", projectId: fx.project.id });
    const asToken = callerFor(principal);
    expect(await codeOf(asToken.projects.byId({ projectId: fx.project.id }))).toBe("OK");
    // A READ token acts as a viewer and is scoped to its own project.
    expect(await codeOf(asToken.videos.createDemo({ projectId: fx.project.id }))).toBe("FORBIDDEN");
    const other = await fx.asOwner.projects.create({ name: "Other project" });
    // A token used on another project is refused outright (it names its own project anyway).
    expect(await codeOf(asToken.projects.byId({ projectId: other.id }))).toBe("FORBIDDEN");
    expect(await codeOf(asToken.projects.byId({ projectId: "does-not-exist" }))).toBe("FORBIDDEN");
    expect((await asToken.projects.list()).map((p) => p.id)).toEqual([fx.project.id]);
    expect(await codeOf(asToken.tokens.list({ projectId: fx.project.id }))).toBe("FORBIDDEN");

    await fx.asOwner.tokens.revoke({ projectId: fx.project.id, tokenId: token.id });
    expect(await tokens.principalFromToken(secret)).toBeNull();

    const expiring = await fx.asOwner.tokens.create({ projectId: fx.project.id, name: "old", scopes: ["READ"] });
    await db().apiToken.update({ where: { id: expiring.token.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await tokens.principalFromToken(expiring.secret)).toBeNull();
  });

  it("is managed by owners only", async () => {
    const fx = await projectWithRoleCallers();
    const input = { projectId: fx.project.id, name: "x", scopes: ["READ" as const] };
    expect(await codeOf(fx.asEditor.tokens.create(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.tokens.list({ projectId: fx.project.id }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.tokens.list({ projectId: fx.project.id }))).toBe("NOT_FOUND");
  });

  it("needs the LAUNCH scope to launch jobs", async () => {
    const fx = await projectWithRoleCallers();
    const { tokens } = await import("@paravt/shared/server");
    const write = await fx.asOwner.tokens.create({ projectId: fx.project.id, name: "w", scopes: ["WRITE"] });
    const asWrite = callerFor(await tokens.principalFromToken(write.secret));
    expect(await codeOf(asWrite.videos.createDemo({ projectId: fx.project.id }))).toBe("FORBIDDEN");
  });
});

describe("runs", () => {
  it("lets editors launch and cancel; viewers can read but not launch or cancel", async () => {
    const fx = await projectWithRoleCallers();
    expect(await codeOf(fx.asViewer.videos.createDemo({ projectId: fx.project.id, durationS: 5 }))).toBe("FORBIDDEN");
    const { runId, video } = await fx.asEditor.videos.createDemo({ projectId: fx.project.id, durationS: 5 });
    expect(video.status).toBe("PENDING");
    const run = await fx.asViewer.runs.byId({ projectId: fx.project.id, runId });
    expect(run).toMatchObject({ status: "QUEUED", jobName: "video.generate", kind: "job" });
    expect(await codeOf(fx.asViewer.runs.cancel({ projectId: fx.project.id, runId }))).toBe("FORBIDDEN");
    const cancelled = await fx.asEditor.runs.cancel({ projectId: fx.project.id, runId });
    expect(cancelled.status).toBe("CANCELLED");
    expect(await codeOf(fx.asEditor.runs.cancel({ projectId: fx.project.id, runId }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOutsider.runs.byId({ projectId: fx.project.id, runId }))).toBe("NOT_FOUND");
  });

  it("does not show a run through another project's id", async () => {
    const a = await projectWithRoleCallers();
    const { runId } = await a.asOwner.videos.createDemo({ projectId: a.project.id, durationS: 3 });
    await a.asOwner.runs.cancel({ projectId: a.project.id, runId });
    const b = await a.asOwner.projects.create({ name: "Project B" });
    expect(await codeOf(a.asOwner.runs.byId({ projectId: b.id, runId }))).toBe("NOT_FOUND");
  });
});

describe("datasets", () => {
  it("lets editors generate suites; viewers read; strangers see nothing; names are unique", async () => {
    const fx = await projectWithRoleCallers();
    const input = { projectId: fx.project.id, name: "suite A", seed: 1, count: 2, minMinutes: 1, maxMinutes: 2 };
    expect(await codeOf(fx.asViewer.datasets.generateSuite(input))).toBe("FORBIDDEN");
    const { dataset, runId } = await fx.asEditor.datasets.generateSuite(input);
    expect(dataset).toMatchObject({ name: "suite A", sampleCount: 0 });
    // The suite's default option layout when none is asked; the worker renders with source.config.
    expect(dataset.source).toMatchObject({ config: { optionStyle: "letter-first" } });
    expect(dataset.description).toMatch(/letter-first options$/);
    expect(await fx.asViewer.runs.byId({ projectId: fx.project.id, runId })).toMatchObject({
      jobName: "suite.generate",
    });
    expect((await fx.asViewer.datasets.list({ projectId: fx.project.id })).map((d) => d.id)).toEqual([dataset.id]);
    expect(await codeOf(fx.asEditor.datasets.generateSuite(input))).toBe("CONFLICT");
    expect(await codeOf(fx.asOutsider.datasets.list({ projectId: fx.project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.datasets.byId({ projectId: fx.project.id, datasetId: dataset.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(fx.asEditor.datasets.generateSuite({ ...input, name: "b", count: 0 }))).toBe("BAD_REQUEST");
    expect(
      await codeOf(fx.asEditor.datasets.generateSuite({ ...input, name: "c", minMinutes: 5, maxMinutes: 2 })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(
        fx.asEditor.datasets.generateSuite({ ...input, name: "d", optionStyle: "sideways" as "text-first" }),
      ),
    ).toBe("BAD_REQUEST");
    await fx.asEditor.runs.cancel({ projectId: fx.project.id, runId });
  });
});

describe("models", () => {
  it("stores endpoint keys encrypted, never returns them, and refuses metadata / link-local endpoints", async () => {
    const fx = await projectWithRoleCallers();
    const { models } = await import("@paravt/shared/server");
    const key = `sk-test-${Date.now()}`;
    const input = {
      projectId: fx.project.id,
      name: "qwen3-vl-8b",
      config: { kind: "OPENAI_COMPATIBLE" as const, baseUrl: "http://10.0.0.7:8000/v1/", servedModel: "Qwen3-VL-8B" },
      apiKey: key,
    };
    expect(await codeOf(fx.asViewer.models.create(input))).toBe("FORBIDDEN");
    const created = await fx.asEditor.models.create(input);
    expect(created).toMatchObject({ hasApiKey: true, config: { baseUrl: "http://10.0.0.7:8000/v1" } });
    expect(JSON.stringify(created)).not.toContain(key);
    expect(JSON.stringify(await fx.asViewer.models.list({ projectId: fx.project.id }))).not.toContain(key);
    const row = await db().model.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretEnc).toBeTruthy();
    expect(row.secretEnc).not.toContain(key);
    expect(await models.modelApiKey(created.id)).toBe(key);
    expect(await codeOf(fx.asEditor.models.create(input))).toBe("CONFLICT");

    for (const baseUrl of [
      "http://169.254.169.254/latest",
      "http://metadata.google.internal/v1",
      "http://[fe80::1]:8000/v1",
      "ftp://gpu/v1",
      "http://user:pw@gpu:8000/v1",
    ]) {
      const res = fx.asEditor.models.create({ ...input, name: `bad ${baseUrl}`, config: { ...input.config, baseUrl } });
      expect(await codeOf(res), baseUrl).toBe("BAD_REQUEST");
    }
    const nano = fx.asEditor.models.create({
      projectId: fx.project.id,
      name: "nano",
      config: { kind: "NANO_CHECKPOINT", checkpoint: "/ckpt" },
      apiKey: "x",
    });
    expect(await codeOf(nano)).toBe("BAD_REQUEST");

    // Timeouts and retries change after creation; the ones left out keep their stored values.
    const limited = await fx.asEditor.models.update({
      projectId: fx.project.id,
      modelId: created.id,
      limits: { totalTimeoutS: 200, retries: 0 },
    });
    expect(limited.config).toMatchObject({
      baseUrl: "http://10.0.0.7:8000/v1",
      firstByteTimeoutS: 120,
      totalTimeoutS: 200,
      retries: 0,
    });
    const tooShort = fx.asEditor.models.update({
      projectId: fx.project.id,
      modelId: created.id,
      // Below the stored first-byte timeout (120 s): refused, nothing changed.
      limits: { totalTimeoutS: 60 },
    });
    await expect(tooShort).rejects.toThrow(/cannot exceed the total timeout/);
    expect((await db().model.findUniqueOrThrow({ where: { id: created.id } })).config).toMatchObject({
      totalTimeoutS: 200,
    });

    const cleared = await fx.asEditor.models.update({ projectId: fx.project.id, modelId: created.id, apiKey: null });
    expect(cleared.hasApiKey).toBe(false);
    expect(await models.modelApiKey(created.id)).toBeNull();
    expect(await codeOf(fx.asOutsider.models.delete({ projectId: fx.project.id, modelId: created.id }))).toBe(
      "NOT_FOUND",
    );
    await fx.asEditor.models.delete({ projectId: fx.project.id, modelId: created.id });
    expect(await fx.asEditor.models.list({ projectId: fx.project.id })).toEqual([]);
  });
});
