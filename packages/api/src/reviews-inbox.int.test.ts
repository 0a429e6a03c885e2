// @-mention notifications and comment edit history (issue 41 item 15) through the reviews router
// on real Postgres and Redis: who is notified when a comment is written, edited and deleted, the
// inbox as only its recipient sees it (never through an API token), and the versions an edit keeps.
import { db } from "@paravt/shared/server";
import { createUser } from "@paravt/db/factories";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { seedWrongAnswers } from "./reviews-seed";
import { callerFor, projectWithRoleCallers, userCaller } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-review-inbox-${process.pid}`;

async function refusal(p: Promise<unknown>): Promise<TRPCError | null> {
  try {
    await p;
    return null;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
}
const codeOf = async (p: Promise<unknown>) => (await refusal(p))?.code ?? "OK";

describe("mention notifications and the inbox", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let seeded: Awaited<ReturnType<typeof seedWrongAnswers>>;
  let queueId: string;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    seeded = await seedWrongAnswers(projectId, "mention run", 4);
    ({
      queue: { id: queueId },
    } = await fx.asEditor.reviews.createQueue({ projectId, runId: seeded.run.id, filter: { kind: "wrong" } }));
  });

  /** Unread counts of owner, editor and viewer. */
  const unread = async () =>
    Promise.all([fx.asOwner, fx.asEditor, fx.asViewer].map(async (c) => (await c.reviews.inboxUnread()).unread));

  it("notifies each mentioned member once, never the author nor anyone not mentioned", async () => {
    const before = await unread();
    const episodeId = seeded.episodes[1]!.id;
    const r = await fx.asOwner.reviews.comment({
      projectId,
      episodeId,
      body: "@Editor @Viewer @Owner the crop at 12 s misses the clock",
      videoTimeS: 12,
      mentionIds: [fx.editor.id, fx.viewer.id, fx.owner.id, fx.viewer.id],
    });
    const after = await unread();
    expect(after.map((n, i) => n - before[i]!)).toEqual([0, 1, 1]);

    const inbox = await fx.asViewer.reviews.inbox({});
    expect(inbox.unread).toBe(after[2]);
    expect(inbox.items[0]).toMatchObject({
      readAt: null,
      project: { id: projectId, name: fx.project.name },
      by: { id: fx.owner.id },
      commentId: r.comments.at(-1)!.id,
      excerpt: "@Editor @Viewer @Owner the crop at 12 s misses the clock",
      episodeId,
      sampleKey: "q02",
      // Opens the item in its queue: q02 is the queue's second item.
      queue: { id: queueId, position: 1 },
    });
    // The outsider, never mentioned (and not mentionable), has nothing.
    expect((await fx.asOutsider.reviews.inbox({})).items).toEqual([]);
  });

  it("an edit notifies only the newly mentioned; one no longer mentioned loses the notification", async () => {
    const episodeId = seeded.episodes[2]!.id;
    const r = await fx.asEditor.reviews.comment({
      projectId,
      episodeId,
      body: "@Viewer look",
      mentionIds: [fx.viewer.id],
    });
    const commentId = r.comments.at(-1)!.id;
    const viewerRow = await db().mentionNotification.findUniqueOrThrow({
      where: { commentId_recipientId: { commentId, recipientId: fx.viewer.id } },
    });
    await fx.asViewer.reviews.markInbox({ ids: [viewerRow.id] });
    const before = await unread();

    await fx.asEditor.reviews.editComment({
      projectId,
      episodeId,
      commentId,
      body: "@Viewer @Owner look",
      mentionIds: [fx.viewer.id, fx.owner.id],
    });
    expect((await unread()).map((n, i) => n - before[i]!)).toEqual([1, 0, 0]);
    // The viewer's notification is the same row, still read: not notified a second time.
    const kept = await db().mentionNotification.findUniqueOrThrow({ where: { id: viewerRow.id } });
    expect(kept.readAt).toBeInstanceOf(Date);
    expect(await db().mentionNotification.count({ where: { commentId } })).toBe(2);

    // The viewer's mention removed: their notification goes; the owner's stays.
    await fx.asEditor.reviews.editComment({
      projectId,
      episodeId,
      commentId,
      body: "@Owner look",
      mentionIds: [fx.owner.id],
    });
    const rows = await db().mentionNotification.findMany({ where: { commentId } });
    expect(rows.map((n) => n.recipientId)).toEqual([fx.owner.id]);
  });

  it("deleting a comment removes its notifications", async () => {
    const episodeId = seeded.episodes[3]!.id;
    const r = await fx.asEditor.reviews.comment({
      projectId,
      episodeId,
      body: "@Owner gone soon",
      mentionIds: [fx.owner.id],
    });
    const commentId = r.comments.at(-1)!.id;
    const before = await unread();
    await fx.asOwner.reviews.deleteComment({ projectId, episodeId, commentId });
    expect(await db().mentionNotification.count({ where: { commentId } })).toBe(0);
    expect((await unread())[0]).toBe(before[0]! - 1);
  });

  it("only its recipient reads and marks an inbox; tokens and anonymous callers have none", async () => {
    const episodeId = seeded.episodes[0]!.id;
    await fx.asOwner.reviews.comment({ projectId, episodeId, body: "@Viewer one", mentionIds: [fx.viewer.id] });
    await fx.asOwner.reviews.comment({ projectId, episodeId, body: "@Viewer two", mentionIds: [fx.viewer.id] });
    const mine = await fx.asViewer.reviews.inbox({ unreadOnly: true });
    const [two, one] = mine.items;
    expect([two!.excerpt, one!.excerpt]).toEqual(["@Viewer two", "@Viewer one"]); // newest first

    // Someone else's notification reads as unknown, and stays unread.
    expect(await codeOf(fx.asEditor.reviews.markInbox({ ids: [two!.id] }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asEditor.reviews.inbox({ cursor: two!.id }))).toBe("NOT_FOUND");
    expect((await db().mentionNotification.findUniqueOrThrow({ where: { id: two!.id } })).readAt).toBeNull();

    // Pages: one item, then the next from the cursor.
    const page1 = await fx.asViewer.reviews.inbox({ unreadOnly: true, limit: 1 });
    expect(page1.items.map((i) => i.id)).toEqual([two!.id]);
    const page2 = await fx.asViewer.reviews.inbox({ unreadOnly: true, limit: 1, cursor: page1.nextCursor! });
    expect(page2.items.map((i) => i.id)).toEqual([one!.id]);

    // Read, unread again, then all read.
    const unreadBefore = mine.unread;
    expect((await fx.asViewer.reviews.markInbox({ ids: [two!.id] })).unread).toBe(unreadBefore - 1);
    expect((await fx.asViewer.reviews.markInbox({ ids: [two!.id], read: false })).unread).toBe(unreadBefore);
    const all = await fx.asViewer.reviews.markAllInboxRead();
    expect(all).toEqual({ marked: unreadBefore, unread: 0 });
    expect((await fx.asViewer.reviews.inbox({ unreadOnly: true })).items).toEqual([]);

    // A token (even the viewer's own, with every scope) has no inbox.
    const { token } = await fx.asOwner.tokens.create({ projectId, name: "inbox probe", scopes: ["READ", "WRITE"] });
    const asToken = callerFor({
      kind: "token",
      userId: fx.owner.id,
      tokenId: token.id,
      projectId,
      scopes: ["READ", "WRITE"],
    });
    for (const call of [
      () => asToken.reviews.inbox({}),
      () => asToken.reviews.inboxUnread(),
      () => asToken.reviews.markAllInboxRead(),
      () => asToken.reviews.markInbox({ ids: [two!.id] }),
    ]) {
      const err = await refusal(call());
      expect(err?.code).toBe("FORBIDDEN");
      expect(err?.message).toBe("API tokens cannot do this: it is for signed-in people only");
    }
    expect(await codeOf(fx.anonymous.reviews.inboxUnread())).toBe("UNAUTHORIZED");
  });

  it("a project the recipient left drops out of the inbox", async () => {
    const member = await createUser(db(), { name: "Leaver" });
    await db().membership.create({ data: { projectId, userId: member.id, role: "VIEWER" } });
    await fx.asOwner.reviews.comment({
      projectId,
      episodeId: seeded.episodes[0]!.id,
      body: "@Leaver bye",
      mentionIds: [member.id],
    });
    const leaver = userCaller(member.id);
    expect((await leaver.reviews.inboxUnread()).unread).toBe(1);
    await fx.asOwner.members.remove({ projectId, userId: member.id });
    expect((await leaver.reviews.inboxUnread()).unread).toBe(0);
    expect((await leaver.reviews.inbox({})).items).toEqual([]);
  });
});

describe("comment edit history", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let seeded: Awaited<ReturnType<typeof seedWrongAnswers>>;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    seeded = await seedWrongAnswers(projectId, "history run", 2);
  });

  it("each edit keeps the body it replaced, with when and by whom; members read it", async () => {
    const episodeId = seeded.episodes[0]!.id;
    const posted = await fx.asEditor.reviews.comment({ projectId, episodeId, body: "first thougth" });
    const c = posted.comments.at(-1)!;
    expect(c.revisions).toBe(0);
    const ref = { projectId, episodeId, commentId: c.id };
    expect(await fx.asViewer.reviews.commentHistory(ref)).toEqual({
      commentId: c.id,
      author: expect.objectContaining({ id: fx.editor.id }),
      current: { body: "first thougth", writtenAt: c.createdAt },
      versions: [],
    });

    const e1 = await fx.asEditor.reviews.editComment({ ...ref, body: "first thought" });
    const e2 = await fx.asEditor.reviews.editComment({ ...ref, body: "second thought" });
    // The same text again is no new version (and no new edit time).
    const same = await fx.asEditor.reviews.editComment({ ...ref, body: "second thought" });
    const t1 = e1.comments.find((x) => x.id === c.id)!.editedAt!;
    const t2 = e2.comments.find((x) => x.id === c.id)!.editedAt!;
    expect(same.comments.find((x) => x.id === c.id)).toMatchObject({ revisions: 2, editedAt: t2 });

    const h = await fx.asViewer.reviews.commentHistory(ref);
    expect(h.current).toEqual({ body: "second thought", writtenAt: t2 });
    expect(h.versions).toEqual([
      {
        body: "first thought",
        writtenAt: t1,
        replacedAt: t2,
        replacedBy: expect.objectContaining({ id: fx.editor.id }),
      },
      {
        body: "first thougth",
        writtenAt: c.createdAt,
        replacedAt: t1,
        replacedBy: expect.objectContaining({ id: fx.editor.id }),
      },
    ]);

    // Through another episode the comment is not found; outsiders see nothing; deleting removes the history.
    expect(await codeOf(fx.asViewer.reviews.commentHistory({ ...ref, episodeId: seeded.episodes[1]!.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(fx.asOutsider.reviews.commentHistory(ref))).toBe("NOT_FOUND");
    await fx.asEditor.reviews.deleteComment(ref);
    expect(await db().reviewCommentRevision.count({ where: { commentId: c.id } })).toBe(0);
  });
});
