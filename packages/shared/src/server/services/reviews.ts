// Review state of one episode (issue 10): status, assignee, taxonomy tags, comments and scores,
// plus the project overview and the per-run failure breakdown. Concurrency: tags are one row per
// (review, tag), scores one per (review, score config) and comments are rows of their own (only
// their author edits one), so two reviewers editing the same episode at once never lose each
// other's tags or comments; status, assignee and each score are last-writer-wins fields.
import { Prisma } from "@paravt/db";
import type {
  ReviewBreakdownOutput,
  ReviewOutput,
  ReviewOverviewInput,
  ReviewOverviewOutput,
  ReviewProgress,
  ReviewStatus,
} from "../../contracts/reviews";
import { NotFoundError } from "../../errors";
import { db } from "../db";
import { assertCan, type ProjectAccess } from "./access";
import { assertMembers, ensureReview } from "./reviews-access";
import { getReview } from "./reviews-read";
import { itemInclude, memberSelect, publishReviewChange, toItemRow } from "./reviews-rows";
import { scoreSummary } from "./reviews-scores";

// The rest of an episode's review lives in modules of its own; callers reach them all here.
export { getReview } from "./reviews-read";
export { addComment, commentHistory, deleteComment, editComment } from "./reviews-comments";
export {
  createScoreConfig,
  deleteScoreConfig,
  listScoreConfigs,
  scoreSummary,
  setReviewScore,
  updateScoreConfig,
} from "./reviews-scores";
export { inboxUnread, listInbox, markAllInboxRead, markInbox } from "./reviews-inbox";

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
  const [episodes, grouped, scores] = await Promise.all([
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
    scoreSummary(access, input.queueId),
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
    scores,
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
