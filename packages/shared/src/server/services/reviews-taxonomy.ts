// The project's failure taxonomy (issue 10). Reviews point at tags by id, so a rename follows
// every use; a merge moves the uses of one tag onto another in one transaction.
import { Prisma } from "@paravt/db";
import { SEED_FAILURE_TAGS, type FailureTagOutput } from "../../contracts/reviews";
import { ConflictError, NotFoundError } from "../../errors";
import { db } from "../db";
import { assertCan, type ProjectAccess } from "./access";
import { publishReviewChange } from "./reviews-rows";

/** Creates the seed taxonomy; tags that exist (by name) are left alone, so it is idempotent. */
export async function seedFailureTags(projectId: string, tx: Prisma.TransactionClient = db()): Promise<void> {
  await tx.failureTag.createMany({
    data: SEED_FAILURE_TAGS.map((name, position) => ({ projectId, name, position })),
    skipDuplicates: true,
  });
}

export async function listFailureTags(access: ProjectAccess): Promise<FailureTagOutput[]> {
  const rows = await db().failureTag.findMany({
    where: { projectId: access.projectId },
    include: { _count: { select: { uses: true } } },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    position: t.position,
    uses: t._count.uses,
  }));
}

function duplicateName(err: unknown, name: string): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
    throw new ConflictError(`A tag named "${name}" already exists in this project`);
  }
  throw err;
}

async function tagInProject(access: ProjectAccess, tagId: string) {
  const tag = await db().failureTag.findFirst({ where: { id: tagId, projectId: access.projectId } });
  if (!tag) throw new NotFoundError("Tag");
  return tag;
}

export async function createFailureTag(
  access: ProjectAccess,
  input: { name: string; description: string },
): Promise<FailureTagOutput> {
  assertCan(access, "taxonomy.edit");
  const last = await db().failureTag.aggregate({ where: { projectId: access.projectId }, _max: { position: true } });
  const tag = await db()
    .failureTag.create({
      data: {
        projectId: access.projectId,
        name: input.name,
        description: input.description,
        position: (last._max.position ?? -1) + 1,
      },
    })
    .catch((err: unknown) => duplicateName(err, input.name));
  await publishReviewChange(access, "taxonomy", {});
  return { id: tag.id, name: tag.name, description: tag.description, position: tag.position, uses: 0 };
}

export async function renameFailureTag(access: ProjectAccess, input: { tagId: string; name: string }): Promise<void> {
  assertCan(access, "taxonomy.edit");
  await tagInProject(access, input.tagId);
  await db()
    .failureTag.update({ where: { id: input.tagId }, data: { name: input.name } })
    .catch((err: unknown) => duplicateName(err, input.name));
  await publishReviewChange(access, "taxonomy", {});
}

/**
 * Moves every use of `fromTagId` onto `intoTagId`, then deletes `fromTagId`. A review that had
 * both keeps one `into` row (the primary key makes the copy a no-op there).
 */
export async function mergeFailureTags(
  access: ProjectAccess,
  input: { fromTagId: string; intoTagId: string },
): Promise<{ moved: number }> {
  assertCan(access, "taxonomy.edit");
  await Promise.all([tagInProject(access, input.fromTagId), tagInProject(access, input.intoTagId)]);
  const moved = await db().$transaction(async (tx) => {
    // Locks both tags: a tag being added to a review meanwhile (setReviewTag holds FOR SHARE on
    // it) is either copied here or refused as gone, never dropped by the cascade below.
    await tx.$queryRaw`SELECT id FROM failure_tags WHERE id IN (${input.fromTagId}, ${input.intoTagId}) FOR UPDATE`;
    const n = await tx.$executeRaw`
      INSERT INTO review_tags (review_id, tag_id, added_by_id, created_at)
      SELECT review_id, ${input.intoTagId}, added_by_id, created_at FROM review_tags WHERE tag_id = ${input.fromTagId}
      ON CONFLICT DO NOTHING`;
    await tx.failureTag.delete({ where: { id: input.fromTagId } });
    return n;
  });
  await publishReviewChange(access, "taxonomy", {});
  return { moved };
}

export async function deleteFailureTag(access: ProjectAccess, tagId: string): Promise<void> {
  assertCan(access, "taxonomy.delete");
  await tagInProject(access, tagId);
  await db().failureTag.delete({ where: { id: tagId } });
  await publishReviewChange(access, "taxonomy", {});
}
