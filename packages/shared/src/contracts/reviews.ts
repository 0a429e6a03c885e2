// Team review of failure cases (issue 10): review queues built from a run's episodes by a
// filter, per-episode review state (status, assignee, tags of the project's failure taxonomy,
// comments pinned to a video time), overview and export; numeric scores per review from the
// project's score configs, the in-app inbox of @-mentions, and each comment's edit history
// (issue 41 item 15). Client-safe.
import { z } from "zod";
import { id, pageLimit, projectRef, storable, syncFirst } from "./common";
import { questionTypeSchema } from "./datasets";
import { flipDirectionSchema, MAX_K } from "./evals";

export const REVIEW_STATUSES = ["OPEN", "TRIAGED", "RESOLVED"] as const;
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

/** The taxonomy every new project starts with (the migration seeds it for older projects). */
export const SEED_FAILURE_TAGS = [
  "mis-localized crop",
  "evidence missed in overview",
  "hallucinated sub-agent summary",
  "aggregation error",
  "format collapse",
  "skipped a needed tool",
  "answer-extraction problem",
  "video decode problem",
] as const;

/** A queue holds at most this many episodes (the first ones in sample order); the rest is reported. */
export const MAX_QUEUE_ITEMS = 1000;

// ----- queue filters -----------------------------------------------------------------------------

/**
 * What selects a queue's episodes from one run (eval or training). Kept verbatim on the queue.
 * - wrong: answered (status OK) and not right (wrong, or an unscored open-ended answer);
 * - error: an infrastructure failure (dead model server, decode error);
 * - format: answered but not format compliant (@paravt/protocol `formatVerdict`, the definition
 *   eval summaries and RL metrics use: a turn cut by max tokens, with a parse issue or an
 *   unbalanced tag, no final answer, or no `<think>` where the mode asks for one);
 * - no_tool_small_k: answered without any tool call at an overview of at most `maxK` frames;
 * - low_iou: temporal-grounding answers with IoU (SPEC §5 hull IoU, the episode's score) below `below`;
 * - flipped: right in `againstRunId` and wrong here (or the other way, or either).
 */
export const reviewQueueFilterSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("wrong") }),
  z.object({ kind: z.literal("error") }),
  z.object({ kind: z.literal("format") }),
  z.object({ kind: z.literal("no_tool_small_k"), maxK: z.number().int().min(1).max(MAX_K).default(16) }),
  z.object({ kind: z.literal("low_iou"), below: z.number().gt(0).max(1).default(0.3) }),
  z.object({
    kind: z.literal("flipped"),
    againstRunId: id,
    direction: flipDirectionSchema.default("right_to_wrong"),
  }),
]);
export type ReviewQueueFilter = z.infer<typeof reviewQueueFilterSchema>;
export type ReviewQueueFilterKind = ReviewQueueFilter["kind"];

export const REVIEW_FILTER_LABELS: Record<ReviewQueueFilterKind, string> = {
  wrong: "Wrong answers",
  error: "Errors",
  format: "Format failures",
  no_tool_small_k: "No tool call at small K",
  low_iou: "Low IoU (grounding)",
  flipped: "Flipped against another run",
};

/** One line describing a filter, for queue lists and exports. */
export function describeReviewFilter(f: ReviewQueueFilter, againstRunName?: string): string {
  switch (f.kind) {
    case "no_tool_small_k":
      return `No tool call at K <= ${f.maxK}`;
    case "low_iou":
      return `Grounding IoU < ${f.below}`;
    case "flipped": {
      const dir =
        f.direction === "right_to_wrong"
          ? "right -> wrong"
          : f.direction === "wrong_to_right"
            ? "wrong -> right"
            : "any flip";
      return `Flipped (${dir}) vs ${againstRunName ?? f.againstRunId}`;
    }
    default:
      return REVIEW_FILTER_LABELS[f.kind];
  }
}

// ----- inputs ------------------------------------------------------------------------------------

const tagName = storable(z.string().trim().min(1, "A tag needs a name").max(60, "Tag names are at most 60 characters"));

export const reviewQueueCreateInput = projectRef.extend({
  runId: id,
  name: storable(z.string().trim().max(120)).optional(),
  filter: reviewQueueFilterSchema,
  /** Optional narrowing to one question type (e.g. only grounding questions). */
  questionType: questionTypeSchema.optional(),
});
export type ReviewQueueCreateInput = z.infer<typeof reviewQueueCreateInput>;

export const reviewQueueRefInput = projectRef.extend({ queueId: id });
export const reviewEpisodeRefInput = projectRef.extend({ episodeId: id });

export const reviewUpdateInput = reviewEpisodeRefInput
  .extend({
    status: reviewStatusSchema.optional(),
    /** null unassigns. */
    assigneeId: id.nullable().optional(),
  })
  .refine((v) => v.status !== undefined || v.assigneeId !== undefined, {
    message: "Nothing to change: give a status or an assignee",
  });

export const reviewTagToggleInput = reviewEpisodeRefInput.extend({ tagId: id, on: z.boolean() });

const commentBody = storable(
  z.string().trim().min(1, "A comment cannot be empty").max(4000, "Comments are at most 4000 characters"),
);

export const reviewCommentInput = reviewEpisodeRefInput.extend({
  body: commentBody,
  /** Seconds into the sample's video; clicking the comment seeks there. */
  videoTimeS: z.number().min(0).finite().nullable().default(null),
  /** Members mentioned with @; each must be a member of the project. */
  mentionIds: z.array(id).max(20).default([]),
});

/** Its author rewrites a comment (the video pin stays); mentions are taken anew from the body. */
export const reviewCommentEditInput = reviewEpisodeRefInput.extend({
  commentId: id,
  body: commentBody,
  mentionIds: z.array(id).max(20).default([]),
});
/** Its author, or a project owner, removes a comment. */
export const reviewCommentDeleteInput = reviewEpisodeRefInput.extend({ commentId: id });

export const failureTagCreateInput = projectRef.extend({
  name: tagName,
  description: storable(z.string().max(300)).default(""),
});
export const failureTagRenameInput = projectRef.extend({ tagId: id, name: tagName });
export const failureTagMergeInput = projectRef
  .extend({ fromTagId: id, intoTagId: id })
  .refine((v) => v.fromTagId !== v.intoTagId, { message: "Pick two different tags to merge" });
export const failureTagRefInput = projectRef.extend({ tagId: id });

// ----- scores (issue 41 item 15) -----

/** Bounds of a score range: finite, and far from what a double cannot count exactly. */
export const SCORE_BOUND = 1_000_000;
const scoreBound = z
  .number()
  .min(-SCORE_BOUND, `Score bounds are at least -${SCORE_BOUND}`)
  .max(SCORE_BOUND, `Score bounds are at most ${SCORE_BOUND}`);
const scoreName = storable(
  z.string().trim().min(1, "A score needs a name").max(60, "Score names are at most 60 characters"),
);
const scoreDescription = storable(z.string().trim().max(300, "Descriptions are at most 300 characters"));

/** A score config: its name and closed range [min, max] (fixed once created, so stored values stay valid). */
export const scoreConfigCreateInput = projectRef
  .extend({ name: scoreName, description: scoreDescription.default(""), min: scoreBound, max: scoreBound })
  .refine((v) => v.min < v.max, { message: "The minimum must be below the maximum", path: ["max"] });
/** Renames a score config and / or rewrites its description; its range stays. */
export const scoreConfigUpdateInput = projectRef
  .extend({ configId: id, name: scoreName.optional(), description: scoreDescription.optional() })
  .refine((v) => v.name !== undefined || v.description !== undefined, {
    message: "Nothing to change: give a name or a description",
  });
export const scoreConfigRefInput = projectRef.extend({ configId: id });

/**
 * Sets one score of an episode's review (the last writer wins); null clears it. The value must
 * lie in the config's range, which the server checks (the contract cannot know it).
 */
export const reviewScoreSetInput = reviewEpisodeRefInput.extend({
  configId: id,
  value: z.number().min(-SCORE_BOUND).max(SCORE_BOUND).nullable(),
});

// ----- comment history and the inbox (issue 41 item 15) -----

export const reviewCommentRefInput = reviewEpisodeRefInput.extend({ commentId: id });

/** The signed-in person's inbox, newest first; `cursor` is the last id of the previous page. */
export const inboxListInput = z.object({
  unreadOnly: z.boolean().default(false),
  cursor: id.optional(),
  limit: pageLimit(100, 30),
});
/** Marks some of one's own notifications read (or unread again). */
export const inboxMarkInput = z.object({ ids: z.array(id).min(1).max(100), read: z.boolean().default(true) });

export const reviewOverviewInput = projectRef.extend({
  queueId: id.optional(),
  tagId: id.optional(),
  status: reviewStatusSchema.optional(),
  /** A member id, or "me" for the caller. */
  assignee: z.union([id, z.literal("me")]).optional(),
  limit: pageLimit(500, 100),
});
export type ReviewOverviewInput = z.infer<typeof reviewOverviewInput>;

export const reviewBreakdownInput = projectRef.extend({ runIds: z.array(id).min(1).max(2) });

export const REVIEW_EXPORT_FORMATS = ["csv", "json"] as const;
export const reviewExportFormatSchema = z.enum(REVIEW_EXPORT_FORMATS);

// ----- outputs -----------------------------------------------------------------------------------

const member = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const failureTagOutput = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  position: z.number().int(),
  uses: z.number().int(),
});
export type FailureTagOutput = z.infer<typeof failureTagOutput>;

export const scoreConfigOutput = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  min: z.number(),
  max: z.number(),
  position: z.number().int(),
  /** Reviews that hold a value of this score. */
  uses: z.number().int(),
});
export type ScoreConfigOutput = z.infer<typeof scoreConfigOutput>;

/** One score of a review: the last value set, by whom and when. */
export const reviewScoreOutput = z.object({
  configId: z.string(),
  value: z.number(),
  setBy: member.nullable(),
  setAt: z.date(),
});
export type ReviewScoreOutput = z.infer<typeof reviewScoreOutput>;

/** Mean and count of one score over the scored reviews the overview covers. */
export const scoreSummaryOutput = z.object({
  configId: z.string(),
  name: z.string(),
  min: z.number(),
  max: z.number(),
  mean: z.number().nullable(),
  n: z.number().int(),
});
export type ScoreSummaryOutput = z.infer<typeof scoreSummaryOutput>;

export const reviewProgress = z.object({
  total: z.number().int(),
  OPEN: z.number().int(),
  TRIAGED: z.number().int(),
  RESOLVED: z.number().int(),
});
export type ReviewProgress = z.infer<typeof reviewProgress>;

export const reviewQueueOutput = z.object({
  id: z.string(),
  name: z.string(),
  run: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
  filter: reviewQueueFilterSchema,
  filterLabel: z.string(),
  questionType: questionTypeSchema.nullable(),
  createdBy: member.nullable(),
  createdAt: z.date(),
  progress: reviewProgress,
});
export type ReviewQueueOutput = z.infer<typeof reviewQueueOutput>;

export const reviewQueueCreateOutput = z.object({
  queue: reviewQueueOutput,
  /** Episodes the filter matched beyond MAX_QUEUE_ITEMS (not in the queue). */
  leftOut: z.number().int(),
});

/** One row of a queue or of the overview: the episode, what it was asked, and its review state. */
export const reviewItemRow = z.object({
  position: z.number().int(),
  episodeId: z.string(),
  runId: z.string(),
  sampleKey: z.string(),
  question: z.string(),
  questionType: questionTypeSchema,
  answer: z.string(),
  prediction: z.string().nullable(),
  correct: z.boolean().nullable(),
  episodeStatus: z.enum(["OK", "ERROR"]),
  k: z.number().int(),
  toolCallCount: z.number().int(),
  status: reviewStatusSchema,
  assignee: member.nullable(),
  tagIds: z.array(z.string()),
  comments: z.number().int(),
});
export type ReviewItemRow = z.infer<typeof reviewItemRow>;

export const reviewQueueDetailOutput = syncFirst(z.object({ queue: reviewQueueOutput, items: z.array(reviewItemRow) }));
export type ReviewQueueDetailOutput = z.infer<typeof reviewQueueDetailOutput>;

export const reviewCommentOutput = z.object({
  id: z.string(),
  author: member,
  body: z.string(),
  videoTimeS: z.number().nullable(),
  mentions: z.array(member),
  createdAt: z.date(),
  /** When its author last edited it; null if never. */
  editedAt: z.date().nullable(),
  /** Earlier versions kept by edits (reviews.commentHistory lists them). */
  revisions: z.number().int(),
});
export type ReviewCommentOutput = z.infer<typeof reviewCommentOutput>;

export const reviewOutput = z.object({
  episodeId: z.string(),
  status: reviewStatusSchema,
  assignee: member.nullable(),
  tagIds: z.array(z.string()),
  comments: z.array(reviewCommentOutput),
  /** The review's scores, one per score config that has a value (in the configs' order). */
  scores: z.array(reviewScoreOutput),
  updatedAt: z.date().nullable(),
  updatedBy: member.nullable(),
});
export type ReviewOutput = z.infer<typeof reviewOutput>;

export const reviewOverviewOutput = z.object({
  queues: z.array(reviewQueueOutput),
  /** Review progress per assignee over every review in the project (null = unassigned). */
  assignees: z.array(z.object({ assignee: member.nullable(), progress: reviewProgress })),
  items: z.array(reviewItemRow.omit({ position: true })),
  /** Each score config's mean and count over the project's (or the chosen queue's) reviews. */
  scores: z.array(scoreSummaryOutput),
});
export type ReviewOverviewOutput = z.infer<typeof reviewOverviewOutput>;

export const reviewBreakdownOutput = z.object({
  runs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** Episodes of the run that have a review with at least one tag. */
      tagged: z.number().int(),
      counts: z.array(z.object({ tagId: z.string(), name: z.string(), count: z.number().int() })),
    }),
  ),
});
export type ReviewBreakdownOutput = z.infer<typeof reviewBreakdownOutput>;

/** One comment's earlier versions, newest first, each with when it was written and replaced. */
export const reviewCommentHistoryOutput = z.object({
  commentId: z.string(),
  author: member,
  /** The current text and when it was written (the last edit, or the comment's creation). */
  current: z.object({ body: z.string(), writtenAt: z.date() }),
  versions: z.array(
    z.object({
      body: z.string(),
      writtenAt: z.date(),
      replacedAt: z.date(),
      /** Who made the edit that replaced it (null once that account is gone). */
      replacedBy: member.nullable(),
    }),
  ),
});
export type ReviewCommentHistoryOutput = z.infer<typeof reviewCommentHistoryOutput>;

/** A mention of the signed-in person in a review comment. */
export const inboxItemOutput = z.object({
  id: z.string(),
  createdAt: z.date(),
  readAt: z.date().nullable(),
  project: z.object({ id: z.string(), name: z.string() }),
  /** The comment's author. */
  by: member,
  commentId: z.string(),
  /** The comment's current text, cut to INBOX_EXCERPT_CHARS. */
  excerpt: z.string(),
  episodeId: z.string(),
  sampleKey: z.string(),
  /** The newest queue listing the episode and its 0-based position there; null: no queue does. */
  queue: z.object({ id: z.string(), name: z.string(), position: z.number().int() }).nullable(),
});
export type InboxItemOutput = z.infer<typeof inboxItemOutput>;

export const INBOX_EXCERPT_CHARS = 200;

export const inboxListOutput = syncFirst(
  z.object({
    items: z.array(inboxItemOutput),
    unread: z.number().int(),
    nextCursor: z.string().nullable(),
  }),
);
export type InboxListOutput = z.infer<typeof inboxListOutput>;

/** Where an inbox item opens: the review item in its queue, else the episode page. */
export function inboxItemHref(item: Pick<InboxItemOutput, "project" | "episodeId" | "queue">): string {
  return item.queue
    ? `/projects/${item.project.id}/reviews/${item.queue.id}?item=${item.queue.position + 1}`
    : `/projects/${item.project.id}/episodes/${item.episodeId}`;
}

// ----- live ---------------------------------------------------------------------------------------

/** Published on every review change; pages refetch what the event names. */
export const reviewEventSchema = z.object({
  projectId: z.string(),
  kind: z.enum(["review", "tag", "comment", "taxonomy", "queue", "score"]),
  episodeId: z.string().nullable(),
  queueId: z.string().nullable(),
  byUserId: z.string(),
  at: z.string(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

export const liveReviewMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribed") }),
  z.object({ type: z.literal("review"), event: reviewEventSchema }),
]);
export type LiveReviewMessage = z.infer<typeof liveReviewMessageSchema>;
