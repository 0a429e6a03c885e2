// Team review (issue 10) through the reviews router on real Postgres and Redis: queues from each
// filter, review state, taxonomy rename / merge, export, the role table, and two reviewers
// editing the same episode at once (nothing lost, each sees the other's change live).
import { SEED_FAILURE_TAGS, evalKnobs, evalRunConfig } from "@paravt/shared";
import { closeEventBus, db, reviewTaxonomy } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "./root";
import { callerFor, codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-reviews-${process.pid}`;

afterAll(async () => {
  await closeEventBus();
});

/** A valid eval run config (the flip filter reads runs as evaluations of one dataset). */
async function setEvalConfig(runId: string, name: string, datasetId: string, sampleIds: string[]) {
  const config = evalRunConfig.parse({
    group: { id: `g-${name}`, name },
    modelId: "m",
    datasetId,
    mode: "agentic_general",
    k: 64,
    knobs: evalKnobs.parse({}),
    sampleCount: sampleIds.length,
    shardSize: 8,
  });
  await db().run.update({ where: { id: runId }, data: { config } });
}

type Outcome = "right" | "wrong" | "error" | "format" | "notool" | "lowiou";

/**
 * An eval run with one episode per outcome. "format" answers right but its turn has an unclosed
 * think tag; "notool" is wrong with K 8 and no tool call; "lowiou" is a grounding answer at IoU 0.1.
 */
async function seedRun(projectId: string, name: string, outcomes: Outcome[]) {
  const video = await db().video.create({
    data: { projectId, name: `${name}.mp4`, source: "PATH", path: `/nonexistent/${name}-${Date.now()}.mp4` },
  });
  const dataset = await db().dataset.create({ data: { projectId, name: `${name}-ds-${Date.now()}` } });
  const run = await db().run.create({
    data: {
      projectId,
      kind: "eval",
      jobName: "eval.run",
      name,
      status: "SUCCEEDED",
      config: {},
    },
  });
  const episodes = [];
  for (const [i, outcome] of outcomes.entries()) {
    const tvg = outcome === "lowiou";
    const sample = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: `q${String(i + 1).padStart(2, "0")}`,
        question: `Question ${i + 1}?`,
        options: tvg ? undefined : ["yes", "no"],
        answer: tvg ? "10 - 20" : "A",
        questionType: tvg ? "tvg" : "mcq",
      },
    });
    const good = "<think>\nThe overview shows it.\n</think>\n<answer>A</answer>";
    episodes.push(
      await db().episode.create({
        data: {
          runId: run.id,
          sampleId: sample.id,
          k: outcome === "notool" ? 8 : 64,
          promptMode: "agentic_general",
          status: outcome === "error" ? "ERROR" : "OK",
          error: outcome === "error" ? "Connection refused" : null,
          prediction: outcome === "error" ? null : outcome === "wrong" || outcome === "notool" ? "B" : "A",
          correct: outcome === "error" ? null : outcome === "right" || outcome === "format",
          score: tvg ? 0.1 : outcome === "right" || outcome === "format" ? 1 : 0,
          toolCallCount: outcome === "notool" ? 0 : 2,
          turns: {
            create: [{ index: 0, rawText: outcome === "format" ? "<think>\nnever closed <answer>A</answer>" : good }],
          },
        },
      }),
    );
  }
  await setEvalConfig(
    run.id,
    name,
    dataset.id,
    episodes.map((e) => e.sampleId),
  );
  return { run, dataset, episodes };
}

describe("reviews router", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let seeded: Awaited<ReturnType<typeof seedRun>>;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    await reviewTaxonomy.seedFailureTags(projectId);
    seeded = await seedRun(projectId, "nano K64", ["right", "wrong", "error", "format", "notool", "lowiou", "wrong"]);
  });

  it("a new project starts with the seed taxonomy, in order", async () => {
    const p = await fx.asOwner.projects.create({ name: "Fresh project", description: "" });
    const tags = await fx.asOwner.reviews.tags({ projectId: p.id });
    expect(tags.map((t) => t.name)).toEqual([...SEED_FAILURE_TAGS]);
  });

  it("builds queues from each filter, in sample order, and refuses an empty one", async () => {
    const keysOf = async (filter: Parameters<typeof fx.asEditor.reviews.createQueue>[0]["filter"]) => {
      const { queue } = await fx.asEditor.reviews.createQueue({ projectId, runId: seeded.run.id, filter });
      const detail = await fx.asViewer.reviews.queue({ projectId, queueId: queue.id });
      return detail.items.map((i) => i.sampleKey);
    };
    expect(await keysOf({ kind: "wrong" })).toEqual(["q02", "q05", "q06", "q07"]);
    expect(await keysOf({ kind: "error" })).toEqual(["q03"]);
    expect(await keysOf({ kind: "format" })).toEqual(["q04"]);
    expect(await keysOf({ kind: "no_tool_small_k", maxK: 16 })).toEqual(["q05"]);
    expect(await keysOf({ kind: "low_iou", below: 0.3 })).toEqual(["q06"]);
    // Right in the baseline, wrong here.
    const baseline = await seedRun(projectId, "baseline", [
      "right",
      "right",
      "right",
      "right",
      "right",
      "wrong",
      "wrong",
    ]);
    const flippedBase = await db().episode.findMany({ where: { runId: baseline.run.id }, select: { sampleId: true } });
    // Flips compare the same samples: point the baseline's episodes at this run's samples.
    const samples = seeded.episodes.map((e) => e.sampleId);
    for (const [i, e] of (
      await db().episode.findMany({ where: { runId: baseline.run.id }, orderBy: { sample: { key: "asc" } } })
    ).entries()) {
      await db().episode.update({ where: { id: e.id }, data: { sampleId: samples[i]! } });
    }
    await setEvalConfig(baseline.run.id, "baseline", seeded.dataset.id, samples);
    expect(flippedBase).toHaveLength(7);
    expect(await keysOf({ kind: "flipped", againstRunId: baseline.run.id, direction: "right_to_wrong" })).toEqual([
      "q02",
      "q05",
    ]);
    const err = await codeOf(
      fx.asEditor.reviews.createQueue({ projectId, runId: baseline.run.id, filter: { kind: "error" } }),
    );
    expect(err).toBe("BAD_REQUEST");
  });

  it("keeps status, assignee, tags and pinned comments with mentions; progress follows", async () => {
    const { queue } = await fx.asEditor.reviews.createQueue({
      projectId,
      runId: seeded.run.id,
      name: "Wrong answers of nano",
      filter: { kind: "wrong" },
    });
    const [first] = (await fx.asEditor.reviews.queue({ projectId, queueId: queue.id })).items;
    const tags = await fx.asEditor.reviews.tags({ projectId });
    const episodeId = first!.episodeId;
    await fx.asEditor.reviews.update({ projectId, episodeId, status: "TRIAGED", assigneeId: fx.editor.id });
    await fx.asEditor.reviews.setTag({ projectId, episodeId, tagId: tags[0]!.id, on: true });
    await fx.asEditor.reviews.setTag({ projectId, episodeId, tagId: tags[0]!.id, on: true }); // idempotent
    await fx.asEditor.reviews.setTag({ projectId, episodeId, tagId: tags[5]!.id, on: true });
    await fx.asEditor.reviews.setTag({ projectId, episodeId, tagId: tags[5]!.id, on: false });
    const r = await fx.asOwner.reviews.comment({
      projectId,
      episodeId,
      body: "@Viewer the crop misses the clock at 12 s",
      videoTimeS: 12.5,
      mentionIds: [fx.viewer.id],
    });
    expect(r.status).toBe("TRIAGED");
    expect(r.assignee?.id).toBe(fx.editor.id);
    expect(r.tagIds).toEqual([tags[0]!.id]);
    expect(r.comments).toHaveLength(1);
    expect(r.comments[0]).toMatchObject({ videoTimeS: 12.5, author: { id: fx.owner.id } });
    expect(r.comments[0]!.mentions.map((m) => m.id)).toEqual([fx.viewer.id]);
    expect(r.updatedBy?.id).toBe(fx.owner.id);

    const detail = await fx.asViewer.reviews.queue({ projectId, queueId: queue.id });
    expect(detail.queue.progress).toEqual({ total: 4, OPEN: 3, TRIAGED: 1, RESOLVED: 0 });
    expect(detail.items[0]).toMatchObject({ status: "TRIAGED", comments: 1, tagIds: [tags[0]!.id] });

    // Mentioning or assigning someone outside the project is refused.
    expect(await codeOf(fx.asEditor.reviews.update({ projectId, episodeId, assigneeId: fx.outsider.id }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(fx.asEditor.reviews.comment({ projectId, episodeId, body: "hi", mentionIds: [fx.outsider.id] })),
    ).toBe("BAD_REQUEST");

    // The overview: assigned to me, and filters by tag / status.
    const mine = await fx.asEditor.reviews.overview({ projectId, assignee: "me" });
    expect(mine.items.map((i) => i.episodeId)).toEqual([episodeId]);
    expect(mine.assignees.find((a) => a.assignee?.id === fx.editor.id)?.progress.TRIAGED).toBe(1);
    const byTag = await fx.asViewer.reviews.overview({ projectId, tagId: tags[0]!.id });
    expect(byTag.items.map((i) => i.episodeId)).toEqual([episodeId]);
    const open = await fx.asViewer.reviews.overview({ projectId, queueId: queue.id, status: "OPEN" });
    expect(open.items).toHaveLength(3);

    // Breakdown per run: tag counts over the run's reviewed episodes.
    const b = await fx.asViewer.reviews.breakdown({ projectId, runIds: [seeded.run.id] });
    expect(b.runs[0]!.tagged).toBe(1);
    expect(b.runs[0]!.counts.find((c) => c.tagId === tags[0]!.id)?.count).toBe(1);
  });

  it("rename follows every use; merge moves uses and keeps one tag per review", async () => {
    const [e1, e2] = seeded.episodes;
    const a = await fx.asEditor.reviews.createTag({ projectId, name: "wrong object counted" });
    const b = await fx.asEditor.reviews.createTag({ projectId, name: "counting error" });
    expect(await codeOf(fx.asEditor.reviews.createTag({ projectId, name: "counting error" }))).toBe("CONFLICT");
    await fx.asEditor.reviews.setTag({ projectId, episodeId: e1!.id, tagId: a.id, on: true });
    await fx.asEditor.reviews.setTag({ projectId, episodeId: e2!.id, tagId: a.id, on: true });
    await fx.asEditor.reviews.setTag({ projectId, episodeId: e2!.id, tagId: b.id, on: true });
    await fx.asEditor.reviews.renameTag({ projectId, tagId: a.id, name: "miscounted objects" });
    const renamed = (await fx.asViewer.reviews.tags({ projectId })).find((t) => t.id === a.id);
    expect(renamed).toMatchObject({ name: "miscounted objects", uses: 2 });

    const { moved } = await fx.asEditor.reviews.mergeTags({ projectId, fromTagId: a.id, intoTagId: b.id });
    expect(moved).toBe(1); // e2 already had b
    const after = await fx.asViewer.reviews.tags({ projectId });
    expect(after.find((t) => t.id === a.id)).toBeUndefined();
    expect(after.find((t) => t.id === b.id)?.uses).toBe(2);
    expect((await fx.asViewer.reviews.review({ projectId, episodeId: e1!.id })).tagIds).toContain(b.id);
  });

  it("exports a queue with tags and comments as CSV and JSON", async () => {
    const { restReviews } = await import("./index");
    const { queue } = await fx.asEditor.reviews.createQueue({
      projectId,
      runId: seeded.run.id,
      filter: { kind: "error" },
    });
    const [item] = (await fx.asEditor.reviews.queue({ projectId, queueId: queue.id })).items;
    const tags = await fx.asEditor.reviews.tags({ projectId });
    const decode = tags.find((t) => t.name === "video decode problem")!;
    await fx.asEditor.reviews.setTag({ projectId, episodeId: item!.episodeId, tagId: decode.id, on: true });
    await fx.asEditor.reviews.comment({
      projectId,
      episodeId: item!.episodeId,
      body: 'server said "refused", retry',
      videoTimeS: 3,
    });

    // The REST handler builds its own context from headers: sign in with a project token.
    const { secret: token } = await fx.asOwner.tokens.create({ projectId, name: "export", scopes: ["READ"] });
    const get = (format: string) =>
      restReviews.exportQueue(
        new Request(`http://x/api/projects/${projectId}/reviews/queues/${queue.id}/export?format=${format}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        { params: Promise.resolve({ projectId, queueId: queue.id }) },
      );
    const csv = await get("csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="review-errors-nano-k64\.csv"/);
    const text = await csv.text();
    const [header, row] = text.trim().split("\n");
    expect(header).toBe(
      "position,episode_id,sample_key,question,answer,prediction,correct,k,tool_calls,status,assignee,tags,comments",
    );
    expect(row).toContain("video decode problem");
    expect(row).toContain(`"[t=3.0s] ${fx.editor.email}: server said ""refused"", retry"`);

    const json = (await (await get("json")).json()) as {
      items: { tags: string[]; comments: { body: string; videoTimeS: number }[] }[];
    };
    expect(json.items[0]!.tags).toEqual(["video decode problem"]);
    expect(json.items[0]!.comments[0]).toMatchObject({ body: 'server said "refused", retry', videoTimeS: 3 });
    expect((await get("xml")).status).toBe(400);
  });

  it("authors edit and delete their comments; owners delete anyone's; others cannot", async () => {
    const episodeId = seeded.episodes[2]!.id;
    const byEditor = await fx.asEditor.reviews.comment({ projectId, episodeId, body: "first try", videoTimeS: 3 });
    const commentId = byEditor.comments.at(-1)!.id;
    expect(byEditor.comments.at(-1)!.editedAt).toBeNull();

    const edited = await fx.asEditor.reviews.editComment({
      projectId,
      episodeId,
      commentId,
      body: "@Viewer the needle is at 3 s",
      mentionIds: [fx.viewer.id],
    });
    const after = edited.comments.find((c) => c.id === commentId)!;
    expect(after).toMatchObject({ body: "@Viewer the needle is at 3 s", videoTimeS: 3 });
    expect(after.editedAt).toBeInstanceOf(Date);
    expect(after.mentions.map((m) => m.id)).toEqual([fx.viewer.id]);

    // Nobody else edits it, not even an owner; a viewer deletes nothing; an editor only their own.
    const edit = { projectId, episodeId, commentId, body: "rewritten" };
    expect(await codeOf(fx.asOwner.reviews.editComment(edit))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.reviews.deleteComment({ projectId, episodeId, commentId }))).toBe("FORBIDDEN");
    const byOwner = await fx.asOwner.reviews.comment({ projectId, episodeId, body: "owner's note" });
    const ownerCommentId = byOwner.comments.at(-1)!.id;
    expect(await codeOf(fx.asEditor.reviews.deleteComment({ projectId, episodeId, commentId: ownerCommentId }))).toBe(
      "FORBIDDEN",
    );
    // Mentions are checked again on edit; a comment of another episode is not found through this one.
    expect(await codeOf(fx.asEditor.reviews.editComment({ ...edit, mentionIds: [fx.outsider.id] }))).toBe(
      "BAD_REQUEST",
    );
    const otherEpisode = seeded.episodes[3]!.id;
    expect(await codeOf(fx.asEditor.reviews.deleteComment({ projectId, episodeId: otherEpisode, commentId }))).toBe(
      "NOT_FOUND",
    );

    // The owner removes the editor's comment; the editor removes nothing twice.
    const left = await fx.asOwner.reviews.deleteComment({ projectId, episodeId, commentId });
    expect(left.comments.map((c) => c.id)).toContain(ownerCommentId);
    expect(left.comments.map((c) => c.id)).not.toContain(commentId);
    expect(await codeOf(fx.asEditor.reviews.deleteComment({ projectId, episodeId, commentId }))).toBe("NOT_FOUND");
    expect(await db().reviewComment.count({ where: { id: commentId } })).toBe(0);
  });

  it("viewers read; editors review and build queues; owners delete tags and queues", async () => {
    const episodeId = seeded.episodes[1]!.id;
    const tags = await fx.asViewer.reviews.tags({ projectId });
    const tagId = tags[1]!.id;
    const runId = seeded.run.id;
    const { queue } = await fx.asEditor.reviews.createQueue({ projectId, runId, filter: { kind: "wrong" } });

    // Viewer: every read, no write.
    expect(await codeOf(fx.asViewer.reviews.review({ projectId, episodeId }))).toBe("OK");
    expect(await codeOf(fx.asViewer.reviews.queues({ projectId }))).toBe("OK");
    expect(await codeOf(fx.asViewer.reviews.update({ projectId, episodeId, status: "RESOLVED" }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.reviews.setTag({ projectId, episodeId, tagId, on: true }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.reviews.comment({ projectId, episodeId, body: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asViewer.reviews.createQueue({ projectId, runId, filter: { kind: "wrong" } }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(fx.asViewer.reviews.createTag({ projectId, name: "viewer tag" }))).toBe("FORBIDDEN");

    // Editor: reviews and edits the taxonomy, but deletes nothing.
    expect(await codeOf(fx.asEditor.reviews.update({ projectId, episodeId, status: "RESOLVED" }))).toBe("OK");
    expect(await codeOf(fx.asEditor.reviews.renameTag({ projectId, tagId, name: "evidence missed (overview)" }))).toBe(
      "OK",
    );
    expect(await codeOf(fx.asEditor.reviews.deleteTag({ projectId, tagId }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asEditor.reviews.deleteQueue({ projectId, queueId: queue.id }))).toBe("FORBIDDEN");

    // A READ token of the owner is a viewer; outsiders and anonymous callers see nothing.
    const { token } = await fx.asOwner.tokens.create({ projectId, name: "reader", scopes: ["READ"] });
    const asReadToken = callerFor({
      kind: "token",
      userId: fx.owner.id,
      tokenId: token.id,
      projectId,
      scopes: ["READ"],
    });
    expect(await codeOf(asReadToken.reviews.comment({ projectId, episodeId, body: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.reviews.review({ projectId, episodeId }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.reviews.queues({ projectId }))).toBe("UNAUTHORIZED");

    // Owner: deletes a queue (its reviews stay) and a tag.
    expect(await codeOf(fx.asOwner.reviews.deleteQueue({ projectId, queueId: queue.id }))).toBe("OK");
    expect((await fx.asViewer.reviews.review({ projectId, episodeId })).status).toBe("RESOLVED");
    expect(await codeOf(fx.asOwner.reviews.deleteTag({ projectId, tagId }))).toBe("OK");
    // Another project's episode is not found, not forbidden.
    const other = await fx.asOwner.projects.create({ name: "Other", description: "" });
    expect(await codeOf(fx.asOwner.reviews.update({ projectId: other.id, episodeId, status: "OPEN" }))).toBe(
      "NOT_FOUND",
    );
  });

  it("two reviewers on one episode at once: every tag and comment lands, and each sees the other live", async () => {
    const episodeId = seeded.episodes[6]!.id;
    const tags = await fx.asViewer.reviews.tags({ projectId });
    // The owner's page listens to review events, as the browser does over SSE.
    const controller = new AbortController();
    const ownerPage = createCaller(
      { principal: { kind: "user", userId: fx.owner.id }, user: null },
      { signal: controller.signal },
    );
    const stream = await ownerPage.reviews.events({ projectId });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: "subscribed" });

    // Both reviewers write at the same moment, several times each, on a review that does not exist yet.
    await Promise.all([
      ...tags.slice(0, 4).map((t) => fx.asEditor.reviews.setTag({ projectId, episodeId, tagId: t.id, on: true })),
      ...tags.slice(2, 6).map((t) => fx.asOwner.reviews.setTag({ projectId, episodeId, tagId: t.id, on: true })),
      ...[1, 2, 3].map((i) => fx.asEditor.reviews.comment({ projectId, episodeId, body: `editor note ${i}` })),
      ...[1, 2, 3].map((i) => fx.asOwner.reviews.comment({ projectId, episodeId, body: `owner note ${i}` })),
    ]);
    const r = await fx.asViewer.reviews.review({ projectId, episodeId });
    expect(new Set(r.tagIds)).toEqual(new Set(tags.slice(0, 6).map((t) => t.id)));
    expect(r.comments.map((c) => c.body).sort()).toEqual(
      ["editor note 1", "editor note 2", "editor note 3", "owner note 1", "owner note 2", "owner note 3"].sort(),
    );
    expect(await db().review.count({ where: { episodeId } })).toBe(1);

    // The owner's stream carried the editor's changes of this episode.
    const seen: { kind: string; byUserId: string }[] = [];
    while (seen.filter((e) => e.byUserId === fx.editor.id).length < 7) {
      const { value } = await iterator.next();
      if (value?.type === "review" && value.event.episodeId === episodeId) seen.push(value.event);
    }
    expect(
      seen
        .filter((e) => e.byUserId === fx.editor.id)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["comment", "comment", "comment", "tag", "tag", "tag", "tag"]);
    controller.abort();
    await iterator.return?.();
  });
});
