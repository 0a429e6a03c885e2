// Review state of one episode (issue 10): status, assignee, taxonomy tags and comments, plus the
// project overview and the per-run failure breakdown. Concurrency: tags are one row per
// (review, tag) and comments are rows of their own (only their author edits one), so two
// reviewers editing the same episode at once never lose each other's tags or comments; status
// and assignee are last-writer-wins fields.
import { Prisma } from "@paravt/db";
import type {
  ReviewBreakdownOutput,
  ReviewOutput,
  ReviewOverviewInput,
  ReviewOverviewOutput,
  ReviewProgress,
  ReviewStatus,
} from "../../contracts/reviews";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { assertCan, type ProjectAccess } from "./access";
import { itemInclude, memberSelect, publishReviewChange, toItemRow } from "./reviews-rows";

async function episodeInProject(access: ProjectAccess, episodeId: string) {
  const e = await db().episode.findFirst({
    where: { id: episodeId, run: { projectId: access.projectId } },
    select: { id: true },
  });
  if (!e) throw new NotFoundError("Episode");
  return e;
}

/**
 * The review row of an episode, created on first write. The upsert is race-safe: two first
 * writes at once both end on the one row (the unique episode id decides, the loser retries).
 */
async function ensureReview(access: ProjectAccess, episodeId: string): Promise<string> {
  await episodeInProject(access, episodeId);
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await db().review.upsert({
        where: { episodeId },
        create: { episodeId, projectId: access.projectId },
        update: {},
        select: { id: true },
      });
      return r.id;
    } catch (err) {
      const conflict = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!conflict || attempt >= 2) throw err;
    }
  }
}

async function assertMembers(access: ProjectAccess, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const n = await db().membership.count({ where: { projectId: access.projectId, userId: { in: unique } } });
  if (n !== unique.length) throw new ValidationError("Only members of this project can be assigned or mentioned");
}

export async function getReview(access: ProjectAccess, episodeId: string): Promise<ReviewOutput> {
  await episodeInProject(access, episodeId);
  const r = await db().review.findUnique({
    where: { episodeId },
    include: {
      assignee: { select: memberSelect },
      updatedBy: { select: memberSelect },
      tags: { select: { tagId: true }, orderBy: { createdAt: "asc" } },
      comments: { include: { author: { select: memberSelect } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
  });
  if (!r)
    return { episodeId, status: "OPEN", assignee: null, tagIds: [], comments: [], updatedAt: null, updatedBy: null };
  const mentioned = await db().user.findMany({
    where: { id: { in: [...new Set(r.comments.flatMap((c) => c.mentionIds))] } },
    select: memberSelect,
  });
  const byId = new Map(mentioned.map((u) => [u.id, u]));
  return {
    episodeId,
    status: r.status,
    assignee: r.assignee,
    tagIds: r.tags.map((t) => t.tagId),
    comments: r.comments.map((c) => ({
      id: c.id,
      author: c.author,
      body: c.body,
      videoTimeS: c.videoTimeS,
      mentions: c.mentionIds.flatMap((id) => byId.get(id) ?? []),
      createdAt: c.createdAt,
      editedAt: c.editedAt,
    })),
    updatedAt: r.updatedAt,
    updatedBy: r.updatedBy,
  };
}

export async function updateReview(
  access: ProjectAccess,
  input: { episodeId: string; status?: ReviewStatus; assigneeId?: string | null },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  if (input.assigneeId) await assertMembers(access, [input.assigneeId]);
  const id = await ensureReview(access, input.episodeId);
  await db().review.update({
    where: { id },
    data: {
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
      updatedById: access.principal.userId,
    },
  });
  await publishReviewChange(access, "review", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

/** Sets one tag on or off; idempotent, and independent of any other tag's row. */
export async function setReviewTag(
  access: ProjectAccess,
  input: { episodeId: string; tagId: string; on: boolean },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  const tag = await db().failureTag.findFirst({ where: { id: input.tagId, projectId: access.projectId } });
  if (!tag) throw new NotFoundError("Tag");
  const reviewId = await ensureReview(access, input.episodeId);
  if (input.on) {
    await db().$transaction(async (tx) => {
      // FOR SHARE: a merge or delete of this tag waits for the insert, or runs first and we stop.
      const live = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM failure_tags WHERE id = ${tag.id} FOR SHARE`;
      if (live.length === 0) throw new NotFoundError("Tag");
      await tx.reviewTag.createMany({
        data: [{ reviewId, tagId: tag.id, addedById: access.principal.userId }],
        skipDuplicates: true,
      });
    });
  } else {
    await db().reviewTag.deleteMany({ where: { reviewId, tagId: tag.id } });
  }
  await db().review.update({ where: { id: reviewId }, data: { updatedById: access.principal.userId } });
  await publishReviewChange(access, "tag", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

export async function addComment(
  access: ProjectAccess,
  input: { episodeId: string; body: string; videoTimeS: number | null; mentionIds: string[] },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  await assertMembers(access, input.mentionIds);
  const reviewId = await ensureReview(access, input.episodeId);
  await db().reviewComment.create({
    data: {
      reviewId,
      authorId: access.principal.userId,
      body: input.body,
      videoTimeS: input.videoTimeS,
      mentionIds: [...new Set(input.mentionIds)],
    },
  });
  await db().review.update({ where: { id: reviewId }, data: { updatedById: access.principal.userId } });
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
  await assertMembers(access, input.mentionIds);
  await db().reviewComment.update({
    where: { id: c.id },
    data: { body: input.body, mentionIds: [...new Set(input.mentionIds)], editedAt: new Date() },
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
  await db().reviewComment.delete({ where: { id: c.id } });
  await publishReviewChange(access, "comment", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

function emptyProgress(): ReviewProgress {
  return { total: 0, OPEN: 0, TRIAGED: 0, RESOLVED: 0 };
}

/**
 * The overview page: review rows filtered by queue / tag / status / assignee, and progress per
 * assignee over the items of the project's queues (or of one queue). Queues come from `listQueues`.
 */
export async function overview(
  access: ProjectAccess,
  input: Omit<ReviewOverviewInput, "projectId">,
): Promise<Omit<ReviewOverviewOutput, "queues">> {
  const assigneeId = input.assignee === "me" ? access.principal.userId : input.assignee;
  const reviewWhere: Prisma.ReviewWhereInput = {
    ...(input.status ? { status: input.status } : {}),
    ...(assigneeId ? { assigneeId } : {}),
    ...(input.tagId ? { tags: { some: { tagId: input.tagId } } } : {}),
  };
  // A queue item nobody has touched yet has no review row: it is OPEN, unassigned and untagged.
  const untouchedMatches = input.status === "OPEN" && !assigneeId && !input.tagId;
  const anyReviewFilter = Boolean(input.status || assigneeId || input.tagId);
  const episodeWhere: Prisma.EpisodeWhereInput = {
    run: { projectId: access.projectId },
    queueItems: input.queueId ? { some: { queueId: input.queueId } } : { some: {} },
    ...(untouchedMatches
      ? { OR: [{ reviews: { none: {} } }, { reviews: { some: reviewWhere } }] }
      : anyReviewFilter
        ? { reviews: { some: reviewWhere } }
        : {}),
  };
  const [episodes, grouped] = await Promise.all([
    db().episode.findMany({
      where: episodeWhere,
      include: itemInclude,
      orderBy: [{ runId: "asc" }, { sample: { key: "asc" } }, { rolloutIndex: "asc" }],
      take: input.limit,
    }),
    // Over queue items (an untouched item is OPEN and unassigned), each episode once even when
    // two queues list it; only the chosen queue when the overview is filtered to one.
    db().$queryRaw<{ assignee_id: string | null; status: ReviewStatus; n: bigint }[]>`
      SELECT r.assignee_id, COALESCE(r.status::text, 'OPEN') AS status, count(DISTINCT qi.episode_id) AS n
      FROM review_queue_items qi
      JOIN review_queues q ON q.id = qi.queue_id
      LEFT JOIN reviews r ON r.episode_id = qi.episode_id
      WHERE q.project_id = ${access.projectId}
        ${input.queueId ? Prisma.sql`AND qi.queue_id = ${input.queueId}` : Prisma.empty}
      GROUP BY 1, 2`,
  ]);
  const byAssignee = new Map<string | null, ReviewProgress>();
  for (const g of grouped) {
    const p = byAssignee.get(g.assignee_id) ?? emptyProgress();
    p[g.status] += Number(g.n);
    p.total += Number(g.n);
    byAssignee.set(g.assignee_id, p);
  }
  const users = await db().user.findMany({
    where: { id: { in: [...byAssignee.keys()].filter((k): k is string => k !== null) } },
    select: memberSelect,
  });
  const userById = new Map(users.map((u) => [u.id, u]));
  return {
    assignees: [...byAssignee.entries()]
      .map(([id, progress]) => ({ assignee: id ? (userById.get(id) ?? null) : null, progress }))
      .sort((a, b) => b.progress.total - a.progress.total),
    items: episodes.map(toItemRow),
  };
}

/** Tag counts over the reviewed episodes of each run (the failure breakdown chart). */
export async function breakdown(access: ProjectAccess, runIds: readonly string[]): Promise<ReviewBreakdownOutput> {
  const runs = await db().run.findMany({
    where: { id: { in: [...runIds] }, projectId: access.projectId },
    select: { id: true, name: true },
  });
  if (runs.length !== new Set(runIds).size) throw new NotFoundError("Run");
  const tags = await db().failureTag.findMany({
    where: { projectId: access.projectId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  const out: ReviewBreakdownOutput["runs"] = [];
  for (const runId of runIds) {
    const run = runs.find((r) => r.id === runId)!;
    const [counts, tagged] = await Promise.all([
      db().reviewTag.groupBy({
        by: ["tagId"],
        where: { review: { episode: { runId } } },
        _count: { _all: true },
      }),
      db().review.count({ where: { episode: { runId }, tags: { some: {} } } }),
    ]);
    const byTag = new Map(counts.map((c) => [c.tagId, c._count._all]));
    out.push({
      id: run.id,
      name: run.name,
      tagged,
      counts: tags.map((t) => ({ tagId: t.id, name: t.name, count: byTag.get(t.id) ?? 0 })),
    });
  }
  return { runs: out };
}
