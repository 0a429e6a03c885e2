// Row shapes shared by the review services: members, and one episode with its review state.
import type { Prisma } from "@paravt/db";
import type { ReviewEvent, ReviewItemRow, ReviewStatus } from "../../contracts/reviews";
import { publishReviewEvent } from "../events";
import type { ProjectAccess } from "./access";

export const memberSelect = { id: true, name: true, email: true } satisfies Prisma.UserSelect;
export type Member = Prisma.UserGetPayload<{ select: typeof memberSelect }>;

/** Everything a queue row needs of an episode, in one query. */
export const itemInclude = {
  sample: { select: { key: true, question: true, questionType: true, answer: true } },
  reviews: {
    include: {
      assignee: { select: memberSelect },
      tags: { select: { tagId: true }, orderBy: { createdAt: "asc" } },
      _count: { select: { comments: true } },
    },
  },
} satisfies Prisma.EpisodeInclude;
export type ItemEpisode = Prisma.EpisodeGetPayload<{ include: typeof itemInclude }>;

/** An episode without a review row is OPEN, unassigned and untagged. */
export function toItemRow(e: ItemEpisode): Omit<ReviewItemRow, "position"> {
  const review = e.reviews[0];
  return {
    episodeId: e.id,
    runId: e.runId,
    sampleKey: e.sample.key,
    question: e.sample.question,
    questionType: e.sample.questionType,
    answer: e.sample.answer,
    prediction: e.prediction,
    correct: e.correct,
    episodeStatus: e.status,
    k: e.k,
    toolCallCount: e.toolCallCount,
    status: (review?.status ?? "OPEN") as ReviewStatus,
    assignee: review?.assignee ?? null,
    tagIds: review?.tags.map((t) => t.tagId) ?? [],
    comments: review?._count.comments ?? 0,
  };
}

/**
 * Tells the project's open pages about a change. Best-effort: the change is already stored, so a
 * Redis hiccup must not turn it into an error the caller would retry (and store twice); pages
 * catch up on their next refetch.
 */
export async function publishReviewChange(
  access: ProjectAccess,
  kind: ReviewEvent["kind"],
  ids: { episodeId?: string; queueId?: string },
): Promise<void> {
  await publishReviewEvent({
    projectId: access.projectId,
    kind,
    episodeId: ids.episodeId ?? null,
    queueId: ids.queueId ?? null,
    byUserId: access.principal.userId,
    at: new Date().toISOString(),
  }).catch((err: unknown) => console.error(`review event of project ${access.projectId} not published:`, err));
}
