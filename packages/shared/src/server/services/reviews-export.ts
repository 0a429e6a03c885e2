// Export of a review queue with its tags and comments (issue 10): JSON keeps the nesting, CSV has
// one row per item with tags and comments flattened into two cells.
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
}

export interface QueueExport {
  queue: { id: string; name: string; run: ReviewQueueOutput["run"]; filter: unknown; exportedAt: string };
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
            },
          },
        },
      },
    },
  });
  const mentionIds = new Set(
    items.flatMap((i) => i.episode.reviews.flatMap((r) => r.comments.flatMap((c) => c.mentionIds))),
  );
  const users = await db().user.findMany({ where: { id: { in: [...mentionIds] } }, select: memberSelect });
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  return {
    queue: { id: q.id, name: q.name, run: q.run, filter: q.filter, exportedAt: new Date().toISOString() },
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
  const lines = [csvRow(CSV_HEADER)];
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
