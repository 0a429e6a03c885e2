// Review queues (issue 10): a filter over one run's episodes, frozen into an ordered list when
// the queue is built, so everyone reviewing it sees the same items in the same order.
import { Prisma } from "@paravt/db";
import {
  MAX_QUEUE_ITEMS,
  describeReviewFilter,
  reviewQueueFilterSchema,
  type ReviewProgress,
  type ReviewQueueCreateInput,
  type ReviewQueueDetailOutput,
  type ReviewQueueFilter,
  type ReviewQueueOutput,
} from "../../contracts/reviews";
import { questionTypeSchema } from "../../contracts/datasets";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { assertCan, type ProjectAccess } from "./access";
import { WRONG, flipFilter } from "./evals";
import { FORMAT_TURN_SELECT, storedFormatVerdict } from "./episode-format";
import { itemInclude, memberSelect, publishReviewChange, toItemRow } from "./reviews-rows";

async function runInProject(access: ProjectAccess, runId: string) {
  const run = await db().run.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!run) throw new NotFoundError("Run");
  return run;
}

/** Episodes read per page by the format filter. */
const FORMAT_PAGE = 500;

/** The Prisma condition of a filter; `format` needs the turns' text and is finished in JS. */
async function filterWhere(
  access: ProjectAccess,
  runId: string,
  filter: ReviewQueueFilter,
): Promise<Prisma.EpisodeWhereInput> {
  switch (filter.kind) {
    case "wrong":
      return WRONG;
    case "error":
      return { status: "ERROR" };
    case "format":
      return { status: "OK" };
    case "no_tool_small_k":
      return { status: "OK", toolCallCount: 0, k: { lte: filter.maxK } };
    case "low_iou":
      // SPEC §5: a grounding episode's score is its hull IoU (0 when no range could be read).
      return { status: "OK", sample: { questionType: "tvg" }, OR: [{ score: { lt: filter.below } }, { score: null }] };
    case "flipped": {
      const against = await runInProject(access, filter.againstRunId);
      if (!["eval", "import"].includes(against.kind)) {
        throw new ValidationError("Flips compare two evaluation runs; pick an eval run to compare with");
      }
      return flipFilter(access, runId, filter.againstRunId, filter.direction);
    }
  }
}

/** Ids of the episodes a filter selects, in sample order (then rollout), and how many matched. */
export async function selectQueueEpisodes(
  access: ProjectAccess,
  runId: string,
  filter: ReviewQueueFilter,
  questionType?: ReviewQueueCreateInput["questionType"],
): Promise<{ episodeIds: string[]; matched: number }> {
  const where: Prisma.EpisodeWhereInput = {
    runId,
    AND: [await filterWhere(access, runId, filter), questionType ? { sample: { questionType } } : {}],
  };
  const orderBy: Prisma.EpisodeOrderByWithRelationInput[] = [
    { sample: { key: "asc" } },
    { rolloutIndex: "asc" },
    { id: "asc" },
  ];
  if (filter.kind !== "format") {
    const [matched, rows] = await Promise.all([
      db().episode.count({ where }),
      db().episode.findMany({ where, orderBy, take: MAX_QUEUE_ITEMS, select: { id: true } }),
    ]);
    return { episodeIds: rows.map((r) => r.id), matched };
  }
  // Format needs every turn's text: read a page of episodes at a time (a training run has
  // thousands of rollouts), in the queue's order, keeping only the ids that fail the one
  // definition of format compliance (@paravt/protocol `formatVerdict`, as eval summaries and RL
  // metrics count it). An episode without stored turns (an imported reference row) is not judged.
  const failed: string[] = [];
  for (let skip = 0; ; skip += FORMAT_PAGE) {
    const rows = await db().episode.findMany({
      where,
      orderBy,
      skip,
      take: FORMAT_PAGE,
      select: { id: true, promptMode: true, turns: FORMAT_TURN_SELECT },
    });
    for (const r of rows) if (storedFormatVerdict(r.turns, r.promptMode)?.compliant === false) failed.push(r.id);
    if (rows.length < FORMAT_PAGE) break;
  }
  return { episodeIds: failed.slice(0, MAX_QUEUE_ITEMS), matched: failed.length };
}

const queueInclude = {
  run: { select: { id: true, name: true, kind: true } },
  createdBy: { select: memberSelect },
} satisfies Prisma.ReviewQueueInclude;
type QueueRow = Prisma.ReviewQueueGetPayload<{ include: typeof queueInclude }>;

/** Items per review status of each queue; an item without a review row is OPEN. */
async function progressOf(queueIds: readonly string[]): Promise<Map<string, ReviewProgress>> {
  const out = new Map<string, ReviewProgress>(
    queueIds.map((id) => [id, { total: 0, OPEN: 0, TRIAGED: 0, RESOLVED: 0 }]),
  );
  if (queueIds.length === 0) return out;
  const rows = await db().$queryRaw<{ queue_id: string; status: "OPEN" | "TRIAGED" | "RESOLVED"; n: bigint }[]>`
    SELECT qi.queue_id, COALESCE(r.status::text, 'OPEN') AS status, count(*) AS n
    FROM review_queue_items qi LEFT JOIN reviews r ON r.episode_id = qi.episode_id
    WHERE qi.queue_id IN (${Prisma.join(queueIds)})
    GROUP BY 1, 2`;
  for (const r of rows) {
    const p = out.get(r.queue_id)!;
    p[r.status] += Number(r.n);
    p.total += Number(r.n);
  }
  return out;
}

function toQueueOutput(q: QueueRow, progress: ReviewProgress): ReviewQueueOutput {
  const filter = reviewQueueFilterSchema.parse(q.filter);
  const questionType = questionTypeSchema.safeParse((q.filter as { questionType?: unknown }).questionType);
  return {
    id: q.id,
    name: q.name,
    run: q.run,
    filter,
    filterLabel: describeReviewFilter(filter) + (questionType.success ? ` · ${questionType.data} only` : ""),
    questionType: questionType.success ? questionType.data : null,
    createdBy: q.createdBy,
    createdAt: q.createdAt,
    progress,
  };
}

export async function createQueue(
  access: ProjectAccess,
  input: Omit<ReviewQueueCreateInput, "projectId">,
): Promise<{ queue: ReviewQueueOutput; leftOut: number }> {
  assertCan(access, "reviews.queue.create");
  const run = await runInProject(access, input.runId);
  const { episodeIds, matched } = await selectQueueEpisodes(access, run.id, input.filter, input.questionType);
  if (episodeIds.length === 0) {
    throw new ValidationError(`No episode of "${run.name}" matches "${describeReviewFilter(input.filter)}"`);
  }
  const name = input.name || `${describeReviewFilter(input.filter)} · ${run.name}`;
  const stored = { ...input.filter, ...(input.questionType ? { questionType: input.questionType } : {}) };
  const queue = await db().reviewQueue.create({
    data: {
      projectId: access.projectId,
      runId: run.id,
      name: name.slice(0, 120),
      filter: stored as Prisma.InputJsonValue,
      createdById: access.principal.userId,
      items: { create: episodeIds.map((episodeId, position) => ({ episodeId, position })) },
    },
    include: queueInclude,
  });
  await publishReviewChange(access, "queue", { queueId: queue.id });
  const progress = (await progressOf([queue.id])).get(queue.id)!;
  return { queue: toQueueOutput(queue, progress), leftOut: matched - episodeIds.length };
}

export async function listQueues(access: ProjectAccess): Promise<ReviewQueueOutput[]> {
  const rows = await db().reviewQueue.findMany({
    where: { projectId: access.projectId },
    include: queueInclude,
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  const progress = await progressOf(rows.map((q) => q.id));
  return rows.map((q) => toQueueOutput(q, progress.get(q.id)!));
}

export async function queueInProject(access: ProjectAccess, queueId: string): Promise<QueueRow> {
  const q = await db().reviewQueue.findFirst({
    where: { id: queueId, projectId: access.projectId },
    include: queueInclude,
  });
  if (!q) throw new NotFoundError("Review queue");
  return q;
}

export async function getQueue(access: ProjectAccess, queueId: string): Promise<ReviewQueueDetailOutput> {
  const q = await queueInProject(access, queueId);
  const [items, progress] = await Promise.all([
    db().reviewQueueItem.findMany({
      where: { queueId },
      orderBy: { position: "asc" },
      include: { episode: { include: itemInclude } },
    }),
    progressOf([queueId]),
  ]);
  return {
    queue: toQueueOutput(q, progress.get(queueId)!),
    items: items.map((i) => ({ position: i.position, ...toItemRow(i.episode) })),
  };
}

export async function deleteQueue(access: ProjectAccess, queueId: string): Promise<void> {
  assertCan(access, "reviews.queue.delete");
  await queueInProject(access, queueId);
  // Reviews belong to episodes, not queues: deleting a queue keeps every tag and comment.
  await db().reviewQueue.delete({ where: { id: queueId } });
  await publishReviewChange(access, "queue", { queueId });
}
