// Ingestion of external runs (issue 11) through the ingest router on real Postgres: idempotent run
// creation, metric and rollout batches with a status per item (a retried batch stores nothing
// twice), trajectories read back in full, status reports, and who may ingest.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CLOCK_SKEW_TOLERANCE_MS, seriesPoints, type RolloutItemInput } from "@paravt/shared";
import { closeEventBus, db, onRunEvents } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-ingest-${process.pid}`;
// A media root for rollouts that name their video by path (the server's MEDIA_ROOTS).
const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), "paravt-ingest-media-"));
process.env.MEDIA_ROOTS = mediaRoot;

afterAll(async () => {
  await closeEventBus();
});

/** A rollout as the reference trainer would send it: one crop turn with two parallel calls. */
function rollout(id: string, step: number, index: number, over: Partial<RolloutItemInput> = {}) {
  return {
    id,
    step,
    index,
    k: 16,
    sample: {
      key: `q${index}`,
      question: `Which shape came after the cyan triangle? (${index})`,
      answer: "green diamond",
      questionType: "oe" as const,
    },
    finalText: "<think>\nThe second window shows it.\n</think>\n<answer>green diamond</answer>",
    prediction: "green diamond",
    correct: true,
    score: 1,
    rewardTerms: { reward: 1.5, accReward: 1, formatReward: 1, toolReward: 0.5 },
    overviewTimestamps: [0, 3.75, 7.5, 11.25],
    turns: [
      {
        index: 0,
        rawText:
          '<think>\nLook closer.\n</think>\n<tool_call>\n{"name": "crop_video", "arguments": {"start_time": 10, "end_time": 20}}\n</tool_call>',
        toolCalls: [
          {
            index: 0,
            startS: 10,
            endS: 20,
            frameTimestamps: [10, 11, 12],
            subAgentOutput: "A cyan triangle leaves at 18 s.",
          },
          {
            index: 1,
            startS: 20,
            endS: 30,
            frameTimestamps: [20, 21],
            subAgentOutput: "A green diamond appears at 21 s.",
          },
        ],
      },
      { index: 1, rawText: "<think>\nThe second window shows it.\n</think>\n<answer>green diamond</answer>" },
    ],
    ...over,
  };
}

describe("ingest router", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
  });

  it("creates an external run once per client id, also when the creates race", async () => {
    const input = {
      projectId,
      clientId: "trainer-run-1",
      name: "ParaVT-8B PARA-GRPO",
      config: { lr: 2e-6, groupSize: 8 },
    };
    const [a, b, c] = await Promise.all([
      fx.asEditor.ingest.createRun(input),
      fx.asEditor.ingest.createRun(input),
      fx.asOwner.ingest.createRun(input),
    ]);
    expect(new Set([a.run.id, b.run.id, c.run.id]).size).toBe(1);
    expect([a.created, b.created, c.created].filter(Boolean)).toHaveLength(1);
    expect(a.run).toMatchObject({ kind: "rl", status: "RUNNING", jobName: "external" });
    const row = await db().run.findUniqueOrThrow({ where: { id: a.run.id } });
    expect(row.config).toMatchObject({ lr: 2e-6, groupSize: 8, external: { clientId: "trainer-run-1" } });
    expect(await db().dataset.count({ where: { id: a.datasetId, projectId } })).toBe(1);
  });

  it("metrics: stored once, a retried batch is all duplicates, a different value is a conflict", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "metrics-run", name: "metrics" });
    const batch = {
      projectId,
      runId: run.id,
      items: [1, 2, 3].map((step) => ({
        id: `m-${step}`,
        step,
        values: { reward_mean: step / 10, kl: step / 1000 },
        at: new Date(Date.UTC(2026, 10, 1, 0, step)).toISOString(),
      })),
    };
    const first = await fx.asEditor.ingest.metrics(batch);
    expect(first.counts).toEqual({ stored: 3, duplicate: 0, conflict: 0, invalid: 0 });
    const again = await fx.asEditor.ingest.metrics(batch);
    expect(again.counts).toEqual({ stored: 0, duplicate: 3, conflict: 0, invalid: 0 });
    const mixed = await fx.asEditor.ingest.metrics({
      projectId,
      runId: run.id,
      items: [
        { id: "m-3b", step: 3, values: { reward_mean: 0.9 } }, // differs from the stored 0.3
        { id: "m-3c", step: 3, values: { reward_mean: 0.8, entropy: 0.7 } }, // one new value, one clash
        { id: "m-4", step: 4, values: { reward_mean: 0.4 } },
        { id: "m-4", step: 4, values: { reward_mean: 0.4 } }, // same id twice in one batch
        { id: "m-5", step: 5, values: {} },
      ],
    });
    expect(mixed.items.map((i) => i.status)).toEqual(["conflict", "stored", "stored", "duplicate", "invalid"]);
    expect(mixed.items[0]!.reason).toMatch(/step 3 already has other values for reward_mean/);
    expect(mixed.items[1]!.reason).toBe("kept the stored values of reward_mean at step 3");
    // Each reason names its kind, so a client can group them (the Python SDK warns once per kind).
    expect(mixed.items.map((i) => i.code)).toEqual([
      "other_values_stored",
      "kept_stored_values",
      undefined,
      "repeated_id",
      "no_values",
    ]);
    const rows = await db().metric.findMany({
      where: { runId: run.id, name: "reward_mean" },
      orderBy: { step: "asc" },
    });
    expect(rows.map((r) => [r.step, r.value])).toEqual([
      [1, 0.1],
      [2, 0.2],
      [3, 0.3],
      [4, 0.4],
    ]);
    expect(rows[0]!.wallTime.toISOString()).toBe("2026-11-01T00:01:00.000Z");
    // The run's dashboard reads them like any training run's.
    const series = await fx.asViewer.runs.metrics({ projectId, runId: run.id, names: ["kl"] });
    expect(seriesPoints(series[0]!).map((p) => p.step)).toEqual([1, 2, 3]);
  });

  it("clock skew: an `at` ahead of the server's clock is stored at the server's time, one long before the run kept, each with its reason", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "skew-run", name: "skew" });
    const created = (await db().run.findUniqueOrThrow({ where: { id: run.id } })).createdAt.getTime();
    const tolerance = CLOCK_SKEW_TOLERANCE_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    const sentAt = Date.now();
    const items = [
      // A trainer machine whose clock runs an hour ahead.
      { id: "ahead", step: 1, values: { loss: 1 }, at: iso(sentAt + 12 * tolerance) },
      // Within the tolerance either way: kept as given, no reason.
      { id: "near-ahead", step: 2, values: { loss: 2 }, at: iso(sentAt + tolerance / 5) },
      { id: "near-before", step: 3, values: { loss: 3 }, at: iso(created - tolerance / 5) },
      // Two days before the run was created: a log uploaded after the fact, or a clock behind.
      { id: "before", step: 4, values: { loss: 4 }, at: iso(created - 2 * 86_400_000) },
    ];
    const answer = await fx.asEditor.ingest.metrics({ projectId, runId: run.id, items });
    const receivedBy = Date.now();
    expect(answer.counts).toEqual({ stored: 4, duplicate: 0, conflict: 0, invalid: 0 });
    const byId = new Map(answer.items.map((i) => [i.id, i]));
    expect(byId.get("ahead")).toMatchObject({ status: "stored", code: "clock_ahead" });
    expect(byId.get("ahead")!.reason).toMatch(/is 60 min ahead of the server's clock .*stored at the server's time/);
    expect(byId.get("near-ahead")).toEqual({ id: "near-ahead", status: "stored" });
    expect(byId.get("near-before")).toEqual({ id: "near-before", status: "stored" });
    expect(byId.get("before")).toMatchObject({ status: "stored", code: "before_run" });
    expect(byId.get("before")!.reason).toMatch(/is 2 days before the run was created .*kept as given/);

    const rows = await db().metric.findMany({ where: { runId: run.id, name: "loss" }, orderBy: { step: "asc" } });
    const wall = rows.map((r) => r.wallTime.getTime());
    // The point from the future: the server's time while it handled the batch, not the hour ahead.
    expect(wall[0]).toBeGreaterThanOrEqual(sentAt);
    expect(wall[0]).toBeLessThanOrEqual(receivedBy);
    expect(wall.slice(1)).toEqual([items[1]!.at, items[2]!.at, items[3]!.at].map((a) => Date.parse(a)));

    // A retry of the same batch (the SDK's spool, a restarted follower) is all duplicates, silently.
    const again = await fx.asEditor.ingest.metrics({ projectId, runId: run.id, items });
    expect(again.items).toEqual(items.map((i) => ({ id: i.id, status: "duplicate" })));
    const after = await db().metric.findFirstOrThrow({ where: { runId: run.id, name: "loss", step: 1 } });
    expect(after.wallTime.getTime()).toBe(wall[0]);
  });

  it("a resent value that needs 17 significant digits is a duplicate, not a conflict; two runs may share a name", async () => {
    const { run, datasetId } = await fx.asEditor.ingest.createRun({
      projectId,
      clientId: "digits-run",
      name: "shared name",
    });
    // 0.1 + 0.2 = 0.30000000000000004, 1/3 shifted and a tiny value: 17 significant digits each.
    const values = { a: 0.1 + 0.2, b: 1 / 3 + 1e-9, c: -7.000000000000001e-5 };
    const batch = { projectId, runId: run.id, items: [{ id: "d-1", step: 1, values }] };
    expect((await fx.asEditor.ingest.metrics(batch)).counts.stored).toBe(1);
    expect((await fx.asEditor.ingest.metrics(batch)).counts).toEqual({
      stored: 0,
      duplicate: 1,
      conflict: 0,
      invalid: 0,
    });
    // A really different value is still a conflict.
    const other = await fx.asEditor.ingest.metrics({
      ...batch,
      items: [{ id: "d-2", step: 1, values: { a: 0.3001 } }],
    });
    expect(other.counts.conflict).toBe(1);
    // Another trainer's run under the same name gets its own dataset, named apart.
    const second = await fx.asEditor.ingest.createRun({ projectId, clientId: "digits-run-2", name: "shared name" });
    expect(second.created).toBe(true);
    expect(second.datasetId).not.toBe(datasetId);
    const names = await db().dataset.findMany({ where: { projectId, name: { startsWith: "shared name (ingested" } } });
    expect(names.map((d) => d.name).sort()).toEqual(["shared name (ingested 2)", "shared name (ingested)"]);
  });

  it("a rollout's video path under MEDIA_ROOTS links the project's video registered there; else it says why", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "path-run", name: "by path" });
    const file = path.join(mediaRoot, "clip.mp4");
    fs.writeFileSync(file, "not decoded here");
    const link = path.join(mediaRoot, "alias.mp4");
    fs.symlinkSync(file, link);
    const unregistered = path.join(mediaRoot, "other.mp4");
    fs.writeFileSync(unregistered, "x");
    // Registered by path, the server keeps the real path (videos.registerVideoPath).
    const video = await db().video.create({
      data: { projectId, name: "clip.mp4", source: "PATH", path: fs.realpathSync(file) },
    });
    const withPath = (id: string, key: string, videoPath: string) =>
      rollout(id, 1, Number(id.slice(-1)), {
        sample: { key, question: "q?", answer: "a", questionType: "oe", videoPath },
      });
    const res = await fx.asEditor.ingest.rollouts({
      projectId,
      runId: run.id,
      items: [
        withPath("p-0", "by-uri", pathToFileURL(file).href),
        withPath("p-1", "by-link", link),
        withPath("p-2", "outside", "/etc/hostname"),
        withPath("p-3", "unregistered", unregistered),
      ],
    });
    expect(res.items.map((i) => i.status)).toEqual(["stored", "stored", "stored", "stored"]);
    expect(res.items[0]!.reason).toBeUndefined();
    expect(res.items[1]!.reason).toBeUndefined();
    expect(res.items[2]!.reason).toMatch(/^video not linked: \/etc\/hostname is outside the media roots/);
    expect(res.items[3]!.reason).toMatch(/^video not linked: no video of this project is registered at .*other\.mp4/);
    expect(res.items.map((i) => i.code)).toEqual([undefined, undefined, "video_not_linked", "video_not_linked"]);
    const samples = await db().sample.findMany({
      where: { key: { in: ["by-uri", "by-link", "outside", "unregistered"] }, episodes: { some: { runId: run.id } } },
      select: { key: true, videoId: true },
      orderBy: { key: "asc" },
    });
    expect(samples).toEqual([
      { key: "by-link", videoId: video.id },
      { key: "by-uri", videoId: video.id },
      { key: "outside", videoId: null },
      { key: "unregistered", videoId: null },
    ]);
  });

  it("a batch that stored something tells the project's live pages (a run event); a retried one is silent", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "live-run", name: "live" });
    const seen: string[] = [];
    const stop = await onRunEvents(projectId, (e) => {
      if (e.runId === run.id) seen.push(e.status);
    });
    try {
      const batch = { projectId, runId: run.id, items: [{ id: "live-1", step: 1, values: { reward_mean: 0.5 } }] };
      await fx.asEditor.ingest.metrics(batch);
      await expect.poll(() => seen.length).toBe(1);
      await fx.asEditor.ingest.metrics(batch); // all duplicates
      await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items: [rollout("live-r1", 1, 0)] });
      await expect.poll(() => seen.length).toBe(2);
      await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items: [rollout("live-r1", 1, 0)] }); // duplicate
      // A later stored batch is the next event: nothing came in between for the duplicates.
      await fx.asEditor.ingest.metrics({ ...batch, items: [{ id: "live-2", step: 2, values: { reward_mean: 0.6 } }] });
      await expect.poll(() => seen.length).toBe(3);
      expect(seen).toEqual(["RUNNING", "RUNNING", "RUNNING"]);
    } finally {
      await stop();
    }
  });

  it("rollouts: full trajectories stored once; retry is duplicate, same slot is a conflict", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "rollout-run", name: "rollouts" });
    const items = [rollout("s1-r0", 1, 0), rollout("s1-r1", 1, 1, { correct: false, prediction: "red", score: 0 })];
    const first = await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items });
    expect(first.counts).toEqual({ stored: 2, duplicate: 0, conflict: 0, invalid: 0 });
    const retry = await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items });
    expect(retry.counts).toEqual({ stored: 0, duplicate: 2, conflict: 0, invalid: 0 });
    const clash = await fx.asEditor.ingest.rollouts({
      projectId,
      runId: run.id,
      items: [
        rollout("other-id", 1, 0), // the slot of s1-r0 (same sample, step and index)
        rollout("bad-video", 2, 0, { sample: { ...rollout("x", 2, 0).sample, videoId: "no-such-video" } }),
        rollout("same-turn-twice", 3, 0, {
          turns: [
            { index: 0, rawText: "a" },
            { index: 0, rawText: "b" },
          ],
        }),
      ],
    });
    expect(clash.items.map((i) => i.status)).toEqual(["conflict", "invalid", "invalid"]);
    expect(clash.items[1]!.reason).toMatch(/video no-such-video is not in this project/);
    expect(clash.items[2]!.reason).toBe("two turns have index 0");
    expect(clash.items.map((i) => i.code)).toEqual(["slot_taken", "video_not_in_project", "index_clash"]);
    expect(await db().episode.count({ where: { runId: run.id } })).toBe(2);

    // Read back in full, as a script exports them and as the episode viewer shows them.
    const page = await fx.asViewer.ingest.episodes({ projectId, runId: run.id, limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const rest = await fx.asViewer.ingest.episodes({ projectId, runId: run.id, limit: 10, cursor: page.nextCursor! });
    const all = [...page.items, ...rest.items];
    expect(all.map((e) => e.rolloutIndex).sort()).toEqual([1000, 1001]);
    const e = all.find((x) => x.rolloutIndex === 1000)!;
    expect(e.k).toBe(16);
    expect(e.toolCallCount).toBe(2);
    expect(e.turns[0]!.toolCalls.map((c) => [c.startS, c.endS, c.subAgentOutput])).toEqual([
      [10, 20, "A cyan triangle leaves at 18 s."],
      [20, 30, "A green diamond appears at 21 s."],
    ]);
    // The dashboard's "rollouts of step 1" finds them (rolloutIndex = step * 1000 + index).
    const step = await fx.asViewer.runs.stepRollouts({ projectId, runId: run.id, step: 1 });
    expect(step.items).toHaveLength(2);
    const terms = await db().episode.findFirstOrThrow({ where: { runId: run.id, externalId: "s1-r0" } });
    expect(terms.rewardTerms).toMatchObject({ reward: 1.5, toolReward: 0.5, step: 1 });
  });

  it("trainer processes that send the same new sample at once all store (no 409 from the sample race)", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "race-run", name: "race" });
    // Eight ranks, each a rollout of the same new sample: every batch's sample upsert races.
    const sample = { ...rollout("x", 1, 0).sample, key: "new-sample-of-every-rank" };
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, rank) =>
        fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items: [rollout(`rank${rank}`, 1, rank, { sample })] }),
      ),
    );
    expect(batches.map((b) => b.counts)).toEqual(
      Array.from({ length: 8 }, () => ({ stored: 1, duplicate: 0, conflict: 0, invalid: 0 })),
    );
    const rows = await db().episode.findMany({ where: { runId: run.id }, select: { sampleId: true } });
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.sampleId)).size).toBe(1);
  });

  it("stores a trainer's NUL bytes and lone surrogates escaped (issue 37): texts, sample and config", async () => {
    const { run } = await fx.asEditor.ingest.createRun({
      projectId,
      clientId: "nul-run",
      name: "nul",
      config: { "tokenizer\u0000": "eos\u0000", pad: "\ud800" },
    });
    expect((await db().run.findUniqueOrThrow({ where: { id: run.id } })).config).toMatchObject({
      "tokenizer\\u0000": "eos\\u0000",
      pad: "\\ud800",
    });
    const nasty = "<think>\u0000\udc00</think><answer>green diamond</answer>";
    const item = rollout("nul-0", 1, 0, {
      finalText: nasty,
      sample: { ...rollout("x", 1, 0).sample, key: "q\u0000", question: "Which\ud800?" },
      turns: [{ index: 0, rawText: nasty, toolCalls: [{ index: 0, subAgentOutput: "saw \u0000" }] }],
    });
    const first = await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items: [item] });
    expect(first.items).toEqual([{ id: "nul-0", status: "stored" }]);
    // A retried batch finds the same (escaped) sample and the stored rollout.
    const retry = await fx.asEditor.ingest.rollouts({ projectId, runId: run.id, items: [item] });
    expect(retry.counts).toMatchObject({ stored: 0, duplicate: 1 });
    const [e] = (await fx.asViewer.ingest.episodes({ projectId, runId: run.id, limit: 10 })).items;
    const escaped = "<think>\\u0000\\udc00</think><answer>green diamond</answer>";
    expect(e!.finalText).toBe(escaped);
    expect(e!.turns[0]!.rawText).toBe(escaped);
    expect(e!.turns[0]!.toolCalls[0]!.subAgentOutput).toBe("saw \\u0000");
    const row = await db().episode.findFirstOrThrow({ where: { runId: run.id }, include: { sample: true } });
    expect(row.sample).toMatchObject({ key: "q\\u0000", question: "Which\\ud800?" });
    // The raw text and the sub-agent output; the final text is the last turn's, stored once (in the turn).
    expect((row.details as { ingested: boolean; sanitized: { escapedCount: number } }).sanitized.escapedCount).toBe(2);
    const done = await fx.asEditor.ingest.setStatus({ projectId, runId: run.id, status: "FAILED", error: "oom\u0000" });
    expect(done.error).toBe("oom\\u0000");
  });

  it("status: the trainer finishes its run; a cancelled run takes no more data", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "status-run", name: "status" });
    const done = await fx.asEditor.ingest.setStatus({
      projectId,
      runId: run.id,
      status: "SUCCEEDED",
      message: "200 steps",
    });
    expect(done).toMatchObject({ status: "SUCCEEDED", progress: 1, message: "200 steps" });
    expect(done.finishedAt).not.toBeNull();
    expect(await codeOf(fx.asEditor.ingest.setStatus({ projectId, runId: run.id, status: "RUNNING" }))).toBe(
      "BAD_REQUEST",
    );
    // A late retry of the final batch is still answered.
    const late = await fx.asEditor.ingest.metrics({
      projectId,
      runId: run.id,
      items: [{ id: "late", step: 200, values: { kl: 0.01 } }],
    });
    expect(late.counts.stored).toBe(1);

    const { run: other } = await fx.asEditor.ingest.createRun({
      projectId,
      clientId: "cancelled-run",
      name: "cancelled",
    });
    await fx.asEditor.runs.cancel({ projectId, runId: other.id });
    expect(
      await codeOf(
        fx.asEditor.ingest.metrics({ projectId, runId: other.id, items: [{ id: "x", step: 1, values: { kl: 1 } }] }),
      ),
    ).toBe("BAD_REQUEST");
  });

  it("only editors and WRITE tokens ingest, only into external runs", async () => {
    const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "roles-run", name: "roles" });
    const batch = { projectId, runId: run.id, items: [{ id: "a", step: 1, values: { kl: 1 } }] };
    expect(await codeOf(fx.asViewer.ingest.metrics(batch))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.ingest.metrics(batch))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.ingest.metrics(batch))).toBe("UNAUTHORIZED");
    const { token } = await fx.asOwner.tokens.create({ projectId, name: "reader", scopes: ["READ"] });
    const reader = callerFor({ kind: "token", userId: fx.owner.id, tokenId: token.id, projectId, scopes: ["READ"] });
    expect(await codeOf(reader.ingest.metrics(batch))).toBe("FORBIDDEN");
    expect(await reader.ingest.whoami()).toEqual({
      userId: fx.owner.id,
      token: { id: token.id, projectId, scopes: ["READ"] },
    });
    const { token: writeToken } = await fx.asOwner.tokens.create({ projectId, name: "writer", scopes: ["WRITE"] });
    const writer = callerFor({
      kind: "token",
      userId: fx.owner.id,
      tokenId: writeToken.id,
      projectId,
      scopes: ["WRITE"],
    });
    expect((await writer.ingest.metrics(batch)).counts.stored).toBe(1);

    // A run the workbench executes is not an ingestion target.
    const internal = await db().run.create({
      data: { projectId, kind: "rl", jobName: "train.rl", name: "internal", status: "RUNNING" },
    });
    expect(await codeOf(fx.asEditor.ingest.metrics({ ...batch, runId: internal.id }))).toBe("BAD_REQUEST");
  });
});
