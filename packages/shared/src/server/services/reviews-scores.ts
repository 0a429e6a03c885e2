// Numeric scores of reviews (issue 41 item 15), like Langfuse's score configs: the project's
// score configs name a closed range [min, max], and a review holds at most one value per config
// (review_scores, keyed by review and config): the last writer wins and the row says who set it
// and when. The range is fixed once a config exists, so a stored value never falls outside it;
// renaming follows every use (values point at the config's id). Managing configs follows the
// failure taxonomy's permissions: editors add and rename, owners delete (taxonomy.edit /
// taxonomy.delete). No config is seeded: what a team scores (grounding quality 0-5, answer
// usefulness 1-3, ...) is theirs to decide, and correctness is already the episode's own score.
import type { ScoreConfigOutput, ScoreSummaryOutput, ReviewOutput } from "../../contracts/reviews";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { isUniqueViolation } from "../db-errors";
import { assertCan, type ProjectAccess } from "./access";
import { ensureReview } from "./reviews-access";
import { getReview } from "./reviews-read";
import { publishReviewChange } from "./reviews-rows";

const configOrder = [{ position: "asc" as const }, { createdAt: "asc" as const }];

export async function listScoreConfigs(access: ProjectAccess): Promise<ScoreConfigOutput[]> {
  const rows = await db().scoreConfig.findMany({
    where: { projectId: access.projectId },
    include: { _count: { select: { scores: true } } },
    orderBy: configOrder,
  });
  return rows.map(({ _count, projectId: _p, createdAt: _c, ...c }) => ({ ...c, uses: _count.scores }));
}

async function configInProject(access: ProjectAccess, configId: string) {
  const config = await db().scoreConfig.findFirst({ where: { id: configId, projectId: access.projectId } });
  if (!config) throw new NotFoundError("Score config");
  return config;
}

function duplicateName(err: unknown, name: string): never {
  if (isUniqueViolation(err)) throw new ConflictError(`A score named "${name}" already exists in this project`);
  throw err;
}

export async function createScoreConfig(
  access: ProjectAccess,
  input: { name: string; description: string; min: number; max: number },
): Promise<ScoreConfigOutput> {
  assertCan(access, "taxonomy.edit");
  // The contract refuses it first; services are also called without one (workers, scripts).
  if (!(input.min < input.max)) throw new ValidationError("The minimum must be below the maximum");
  const last = await db().scoreConfig.aggregate({ where: { projectId: access.projectId }, _max: { position: true } });
  const c = await db()
    .scoreConfig.create({
      data: {
        projectId: access.projectId,
        name: input.name,
        description: input.description,
        min: input.min,
        max: input.max,
        position: (last._max.position ?? -1) + 1,
      },
    })
    .catch((err: unknown) => duplicateName(err, input.name));
  await publishReviewChange(access, "taxonomy", {});
  return { id: c.id, name: c.name, description: c.description, min: c.min, max: c.max, position: c.position, uses: 0 };
}

export async function updateScoreConfig(
  access: ProjectAccess,
  input: { configId: string; name?: string; description?: string },
): Promise<void> {
  assertCan(access, "taxonomy.edit");
  await configInProject(access, input.configId);
  await db()
    .scoreConfig.update({
      where: { id: input.configId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      },
    })
    .catch((err: unknown) => duplicateName(err, input.name ?? ""));
  await publishReviewChange(access, "taxonomy", {});
}

/** Removes a config and every value given with it. */
export async function deleteScoreConfig(access: ProjectAccess, configId: string): Promise<void> {
  assertCan(access, "taxonomy.delete");
  await configInProject(access, configId);
  await db().scoreConfig.delete({ where: { id: configId } });
  await publishReviewChange(access, "taxonomy", {});
}

/** "0 to 1", "-1 to 1", "1 to 5": the range as a reviewer reads it. */
export function describeRange(c: { min: number; max: number }): string {
  return `${c.min} to ${c.max}`;
}

/** Sets (or with null clears) one score of an episode's review; the value must be in the config's range. */
export async function setReviewScore(
  access: ProjectAccess,
  input: { episodeId: string; configId: string; value: number | null },
): Promise<ReviewOutput> {
  assertCan(access, "reviews.write");
  const config = await configInProject(access, input.configId);
  const { value } = input;
  if (value !== null && !(value >= config.min && value <= config.max)) {
    throw new ValidationError(`"${config.name}" takes values from ${describeRange(config)}; ${value} is outside`);
  }
  const reviewId = await ensureReview(access, input.episodeId);
  const setById = access.principal.userId;
  if (value === null) {
    await db().reviewScore.deleteMany({ where: { reviewId, configId: config.id } });
  } else {
    // Two first values at once: one insert wins the key, the other retries as the update.
    for (let attempt = 0; ; attempt++) {
      try {
        await db().$transaction(async (tx) => {
          // FOR SHARE: a delete of the config waits for this value or runs first and we stop.
          const live = await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM score_configs WHERE id = ${config.id} FOR SHARE`;
          if (live.length === 0) throw new NotFoundError("Score config");
          await tx.reviewScore.upsert({
            where: { reviewId_configId: { reviewId, configId: config.id } },
            create: { reviewId, configId: config.id, value, setById },
            update: { value, setById, setAt: new Date() },
          });
        });
        break;
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 2) throw err;
      }
    }
  }
  await db().review.update({ where: { id: reviewId }, data: { updatedById: setById } });
  await publishReviewChange(access, "score", { episodeId: input.episodeId });
  return getReview(access, input.episodeId);
}

/**
 * Mean and count of each score config over the project's scored reviews, or over the episodes of
 * one queue. Every config is listed, a config nobody used yet with n 0 and no mean.
 */
export async function scoreSummary(access: ProjectAccess, queueId?: string): Promise<ScoreSummaryOutput[]> {
  const [configs, grouped] = await Promise.all([
    db().scoreConfig.findMany({ where: { projectId: access.projectId }, orderBy: configOrder }),
    db().reviewScore.groupBy({
      by: ["configId"],
      where: {
        review: {
          projectId: access.projectId,
          ...(queueId ? { episode: { queueItems: { some: { queueId } } } } : {}),
        },
      },
      _avg: { value: true },
      _count: { _all: true },
    }),
  ]);
  const byConfig = new Map(grouped.map((g) => [g.configId, g]));
  return configs.map((c) => {
    const g = byConfig.get(c.id);
    return {
      configId: c.id,
      name: c.name,
      min: c.min,
      max: c.max,
      mean: g?._avg.value ?? null,
      n: g?._count._all ?? 0,
    };
  });
}
