// What every write to an episode's review starts with: the episode is in the caller's project,
// its review row exists, and the members it names belong to the project.
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { isUniqueViolation } from "../db-errors";
import type { ProjectAccess } from "./access";

export async function episodeInProject(access: ProjectAccess, episodeId: string) {
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
export async function ensureReview(access: ProjectAccess, episodeId: string): Promise<string> {
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
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
    }
  }
}

export async function assertMembers(access: ProjectAccess, userIds: readonly string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const n = await db().membership.count({ where: { projectId: access.projectId, userId: { in: unique } } });
  if (n !== unique.length) throw new ValidationError("Only members of this project can be assigned or mentioned");
}
