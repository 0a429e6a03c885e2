// Export of a review queue with its tags, comments and scores (issue 10, issue 41 item 15): JSON
// keeps the nesting, CSV has one row per item with tags and comments flattened into two cells
// and one `score:<name>` column per score config of the project (empty where unset), after the
// fixed columns so a reader of the older layout finds its columns where they were.
import type { ReviewQueueOutput } from "../../contracts/reviews";
import { csvRow } from "../csv";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { queueInProject } from "./reviews-queues";
import { memberSelect } from "./reviews-rows";

export interface ExportedComment {
  author: string;
  body: string;
  videoTimeS: number | null;
  mentions: string[];
  createdAt: string;
}

export interface ExportedItem {
  position: number;
  episodeId: string;
  sampleKey: string;
  question: string;
  answer: string;
  prediction: string | null;
  correct: boolean | null;
  k: number;
  toolCalls: number;
  status: string;
  assignee: string | null;
  tags: string[];
  comments: ExportedComment[];
  /** The item's scores by score name (only those set). */
  scores: Record<string, ExportedScore>;
}

export interface ExportedScore {
  value: number;
  setBy: string | null;
  setAt: string;
}

export interface ExportedScoreConfig {
  name: string;
  description: string;
  min: number;
  max: number;
}

export interface QueueExport {
  queue: { id: string; name: string; run: ReviewQueueOutput["run"]; filter: unknown; exportedAt: string };
  /** The project's score configs, in their order (the CSV's score columns). */
  scoreConfigs: ExportedScoreConfig[];
  items: ExportedItem[];
}

export async function collectQueueExport(access: ProjectAccess, queueId: string): Promise<QueueExport> {
  const q = await queueInProject(access, queueId);
  const items = await db().reviewQueueItem.findMany({
    where: { queueId },
    orderBy: { position: "asc" },
    include: {
      episode: {
        include: {
          sample: { select: { key: true, question: true, answer: true } },
          reviews: {
            include: {
              assignee: { select: memberSelect },
              tags: { include: { tag: { select: { name: true, position: true } } } },
              comments: {
                include: { author: { select: memberSelect } },
                orderBy: [{ createdAt: "asc" }, { id: "asc" }],
              },
              scores: { include: { setBy: { select: memberSelect } } },
            },
          },
        },
      },
    },
  });
  const mentionIds = new Set(
    items.flatMap((i) => i.episode.reviews.flatMap((r) => r.comments.flatMap((c) => c.mentionIds))),
  );
  const [users, configs] = await Promise.all([
    db().user.findMany({ where: { id: { in: [...mentionIds] } }, select: memberSelect }),
    db().scoreConfig.findMany({
      where: { projectId: access.projectId },
      orderBy: [{ position: "asc" }, { createdAt: "asc" }],
    }),
  ]);
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const configName = new Map(configs.map((c) => [c.id, c.name]));
  return {
    queue: { id: q.id, name: q.name, run: q.run, filter: q.filter, exportedAt: new Date().toISOString() },
    scoreConfigs: configs.map((c) => ({ name: c.name, description: c.description, min: c.min, max: c.max })),
    items: items.map((i) => {
      const e = i.episode;
      const r = e.reviews[0];
      return {
        position: i.position,
        episodeId: e.id,
        sampleKey: e.sample.key,
        question: e.sample.question,
        answer: e.sample.answer,
        prediction: e.prediction,
        correct: e.correct,
        k: e.k,
        toolCalls: e.toolCallCount,
        status: r?.status ?? "OPEN",
        assignee: r?.assignee?.email ?? null,
        tags: (r?.tags ?? []).sort((a, b) => a.tag.position - b.tag.position).map((t) => t.tag.name),
        comments: (r?.comments ?? []).map((c) => ({
          author: c.author.email,
          body: c.body,
          videoTimeS: c.videoTimeS,
          mentions: c.mentionIds.flatMap((id) => emailOf.get(id) ?? []),
          createdAt: c.createdAt.toISOString(),
        })),
        scores: Object.fromEntries(
          (r?.scores ?? []).map((sc) => [
            configName.get(sc.configId)!,
            { value: sc.value, setBy: sc.setBy?.email ?? null, setAt: sc.setAt.toISOString() },
          ]),
        ),
      };
    }),
  };
}

const CSV_HEADER = [
  "position",
  "episode_id",
  "sample_key",
  "question",
  "answer",
  "prediction",
  "correct",
  "k",
  "tool_calls",
  "status",
  "assignee",
  "tags",
  "comments",
];

/** "[t=12.5s] alice@x: body" per comment; cells joined with " | " (tags with "; "). */
function commentCell(c: ExportedComment): string {
  const at = c.videoTimeS === null ? "" : `[t=${c.videoTimeS.toFixed(1)}s] `;
  return `${at}${c.author}: ${c.body}`;
}

export function queueExportCsv(data: QueueExport): string {
  const scoreNames = data.scoreConfigs.map((c) => c.name);
  const lines = [csvRow([...CSV_HEADER, ...scoreNames.map((n) => `score:${n}`)])];
  for (const i of data.items) {
    lines.push(
      csvRow(
        [
          i.position + 1,
          i.episodeId,
          i.sampleKey,
          i.question,
          i.answer,
          i.prediction,
          i.correct,
          i.k,
          i.toolCalls,
          i.status,
          i.assignee,
          i.tags.join("; "),
          i.comments.map(commentCell).join(" | "),
          ...scoreNames.map((n) => i.scores[n]?.value),
        ],
        { guardFormulas: true },
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A file name from the queue's name: letters, digits and dashes only. */
export function exportFileName(data: QueueExport, format: "csv" | "json"): string {
  const base = data.queue.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
  return `review-${base || data.queue.id}.${format}`;
}
