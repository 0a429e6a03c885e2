// Comments on an episode's review (issue 10) with their edit history and the inbox notifications
// of their @-mentions (issue 41 item 15). Only its author edits a comment; each edit keeps the
// body it replaced (review_comment_revisions) and moves the notifications with the mentions:
// the newly mentioned get one, a member no longer mentioned loses theirs, the others keep theirs
// (read or not). Deleting a comment removes its history and notifications (cascade).
import type { Prisma } from "@paravt/db";
import type { ReviewCommentHistoryOutput, ReviewOutput } from "../../contracts/reviews";
import { ForbiddenError, NotFoundError } from "../../errors";
import { db } from "../db";
import { assertCan, type ProjectAccess } from "./access";
import { assertMembers, ensureReview } from "./reviews-access";
import { getReview } from "./reviews-read";
import { memberSelect, publishReviewChange } from "./reviews-rows";

/** One inbox row per mentioned member; never the author, never twice for one comment. */
async function notifyMentioned(
  tx: Prisma.TransactionClient,
  access: ProjectAccess,
  commentId: string,
  mentionIds: readonly string[],
): Promise<void> {
  const recipients = mentionIds.filter((id) => id !== access.principal.userId);
  if (recipients.length === 0) return;
  await tx.mentionNotification.createMany({
    data: recipients.map((recipientId) => ({ recipientId, commentId, projectId: access.projectId })),
    skipDuplicates: true,
  });
}

export async function addComment(
  access: ProjectAccess,
  input: { episodeId: string; body: string; videoTimeS: number | null; mentionIds: string[] },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  const mentionIds = [...new Set(input.mentionIds)];
  await assertMembers(access, mentionIds);
  const reviewId = await ensureReview(access, input.episodeId);
  // One transaction: a comment is never stored without the notifications of its mentions.
  await db().$transaction(async (tx) => {
    const comment = await tx.reviewComment.create({
      data: {
        reviewId,
        authorId: access.principal.userId,
        body: input.body,
        videoTimeS: input.videoTimeS,
        mentionIds,
      },
      select: { id: true },
    });
    await notifyMentioned(tx, access, comment.id, mentionIds);
    await tx.review.update({ where: { id: reviewId }, data: { updatedById: access.principal.userId } });
  });
  await publishReviewChange(access, "comment", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

/** A comment of this episode's review, in this project (404 otherwise, also for other projects). */
async function commentOf(access: ProjectAccess, episodeId: string, commentId: string) {
  const c = await db().reviewComment.findFirst({
    where: { id: commentId, review: { episodeId, projectId: access.projectId } },
    select: { id: true, authorId: true },
  });
  if (!c) throw new NotFoundError("Comment");
  return c;
}

export async function editComment(
  access: ProjectAccess,
  input: { episodeId: string; commentId: string; body: string; mentionIds: string[] },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  const c = await commentOf(access, input.episodeId, input.commentId);
  if (c.authorId !== access.principal.userId) throw new ForbiddenError("Only its author can edit a comment");
  const mentionIds = [...new Set(input.mentionIds)];
  await assertMembers(access, mentionIds);
  await db().$transaction(async (tx) => {
    // FOR UPDATE: two edits at once each keep the body the other replaced, never the same one twice.
    const [current] = await tx.$queryRaw<{ body: string }[]>`
      SELECT body FROM review_comments WHERE id = ${c.id} FOR UPDATE`;
    if (!current) throw new NotFoundError("Comment");
    // Saving the same text (e.g. only a mention picked again) is no new version.
    const changed = current.body !== input.body;
    const now = new Date();
    if (changed) {
      await tx.reviewCommentRevision.create({
        data: { commentId: c.id, body: current.body, editedAt: now, editorId: access.principal.userId },
      });
    }
    await tx.reviewComment.update({
      where: { id: c.id },
      data: { body: input.body, mentionIds, ...(changed ? { editedAt: now } : {}) },
    });
    await tx.mentionNotification.deleteMany({ where: { commentId: c.id, recipientId: { notIn: mentionIds } } });
    await notifyMentioned(tx, access, c.id, mentionIds);
  });
  await publishReviewChange(access, "comment", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

export async function deleteComment(
  access: ProjectAccess,
  input: { episodeId: string; commentId: string },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  const c = await commentOf(access, input.episodeId, input.commentId);
  if (c.authorId !== access.principal.userId) assertCan(access, "reviews.comment.moderate");
  // Its revisions and inbox notifications go with it (ON DELETE CASCADE).
  await db().reviewComment.delete({ where: { id: c.id } });
  await publishReviewChange(access, "comment", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

/** Every earlier version of a comment, newest first: readable by whoever reads the comment. */
export async function commentHistory(
  access: ProjectAccess,
  input: { episodeId: string; commentId: string },
): Promise<ReviewCommentHistoryOutput> {
  const { id } = await commentOf(access, input.episodeId, input.commentId);
  const c = await db().reviewComment.findUniqueOrThrow({
    where: { id },
    include: {
      author: { select: memberSelect },
      revisions: { include: { editor: { select: memberSelect } }, orderBy: [{ editedAt: "asc" }, { id: "asc" }] },
    },
  });
  // Version i was written when version i-1 was replaced (the first one when the comment was posted).
  const versions = c.revisions.map((rev, i) => ({
    body: rev.body,
    writtenAt: i === 0 ? c.createdAt : c.revisions[i - 1]!.editedAt,
    replacedAt: rev.editedAt,
    replacedBy: rev.editor,
  }));
  return {
    commentId: c.id,
    author: c.author,
    current: { body: c.body, writtenAt: c.revisions.at(-1)?.editedAt ?? c.createdAt },
    versions: versions.reverse(),
  };
}
