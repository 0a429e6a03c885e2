// The review of one episode as the API answers it: status, assignee, tags, comments (with how
// many earlier versions each keeps) and scores. Every review write answers with it.
import type { ReviewOutput } from "../../contracts/reviews";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { episodeInProject } from "./reviews-access";
import { memberSelect } from "./reviews-rows";

export async function getReview(access: ProjectAccess, episodeId: string): Promise<ReviewOutput> {
  await episodeInProject(access, episodeId);
  const r = await db().review.findUnique({
    where: { episodeId },
    include: {
      assignee: { select: memberSelect },
      updatedBy: { select: memberSelect },
      tags: { select: { tagId: true }, orderBy: { createdAt: "asc" } },
      comments: {
        include: { author: { select: memberSelect }, _count: { select: { revisions: true } } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
      scores: {
        include: { setBy: { select: memberSelect } },
        orderBy: [{ config: { position: "asc" } }, { config: { createdAt: "asc" } }],
      },
    },
  });
  if (!r) {
    return {
      episodeId,
      status: "OPEN",
      assignee: null,
      tagIds: [],
      comments: [],
      scores: [],
      updatedAt: null,
      updatedBy: null,
    };
  }
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
      revisions: c._count.revisions,
    })),
    scores: r.scores.map((s) => ({ configId: s.configId, value: s.value, setBy: s.setBy, setAt: s.setAt })),
    updatedAt: r.updatedAt,
    updatedBy: r.updatedBy,
  };
}
