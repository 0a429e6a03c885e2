// Team review of failure cases (issue 10). Reads are for every member; reviewing, commenting,
// scoring, building queues and editing tags and score configs need EDITOR; deleting tags, score
// configs and queues needs OWNER (the services check the permission table, so tokens and
// sessions follow the same rules). The inbox of @-mentions (issue 41 item 15) is a person's, not
// a project's: its procedures take no project and refuse API tokens (scope PEOPLE).
import {
  failureTagCreateInput,
  failureTagMergeInput,
  failureTagOutput,
  failureTagRefInput,
  failureTagRenameInput,
  inboxListInput,
  inboxListOutput,
  inboxMarkInput,
  liveReviewMessageSchema,
  projectRef,
  reviewBreakdownInput,
  reviewBreakdownOutput,
  reviewCommentDeleteInput,
  reviewCommentEditInput,
  reviewCommentHistoryOutput,
  reviewCommentInput,
  reviewCommentRefInput,
  reviewEpisodeRefInput,
  reviewOutput,
  reviewOverviewInput,
  reviewOverviewOutput,
  reviewQueueCreateInput,
  reviewQueueCreateOutput,
  reviewQueueDetailOutput,
  reviewQueueOutput,
  reviewQueueRefInput,
  reviewScoreSetInput,
  reviewTagToggleInput,
  reviewUpdateInput,
  scoreConfigCreateInput,
  scoreConfigOutput,
  scoreConfigRefInput,
  scoreConfigUpdateInput,
} from "@paravt/shared";
import { reviewEvents, reviewQueues, reviewTaxonomy, reviews } from "@paravt/shared/server";
import { z } from "zod";
import {
  createTRPCRouter,
  projectEditorProcedure,
  projectOwnerProcedure,
  projectProcedure,
  protectedProcedure,
} from "../../trpc";

const ok = z.object({ ok: z.literal(true) });

export const reviewsRouter = createTRPCRouter({
  // ----- taxonomy -----
  tags: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/reviews/tags",
        tags: ["reviews"],
        summary: "The project's failure taxonomy",
        protect: true,
      },
    })
    .input(projectRef)
    .output(z.array(failureTagOutput))
    .query(({ ctx }) => reviewTaxonomy.listFailureTags(ctx.access)),
  createTag: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(failureTagCreateInput)
    .output(failureTagOutput)
    .mutation(({ ctx, input }) => reviewTaxonomy.createFailureTag(ctx.access, input)),
  renameTag: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(failureTagRenameInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviewTaxonomy.renameFailureTag(ctx.access, input);
      return { ok: true as const };
    }),
  mergeTags: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(failureTagMergeInput)
    .output(z.object({ moved: z.number().int() }))
    .mutation(({ ctx, input }) => reviewTaxonomy.mergeFailureTags(ctx.access, input)),
  deleteTag: projectOwnerProcedure
    .input(failureTagRefInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviewTaxonomy.deleteFailureTag(ctx.access, input.tagId);
      return { ok: true as const };
    }),

  // ----- score configs (issue 41 item 15; managed like the taxonomy) -----
  scoreConfigs: projectProcedure
    .meta({ scope: "READ" })
    .input(projectRef)
    .output(z.array(scoreConfigOutput))
    .query(({ ctx }) => reviews.listScoreConfigs(ctx.access)),
  createScoreConfig: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(scoreConfigCreateInput)
    .output(scoreConfigOutput)
    .mutation(({ ctx, input }) => reviews.createScoreConfig(ctx.access, input)),
  updateScoreConfig: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(scoreConfigUpdateInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviews.updateScoreConfig(ctx.access, input);
      return { ok: true as const };
    }),
  deleteScoreConfig: projectOwnerProcedure
    .input(scoreConfigRefInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviews.deleteScoreConfig(ctx.access, input.configId);
      return { ok: true as const };
    }),

  // ----- queues -----
  createQueue: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/reviews/queues",
        tags: ["reviews"],
        summary: "Build a review queue from one run's episodes by a filter",
        protect: true,
      },
    })
    .input(reviewQueueCreateInput)
    .output(reviewQueueCreateOutput)
    .mutation(({ ctx, input }) => reviewQueues.createQueue(ctx.access, input)),
  queues: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/reviews/queues",
        tags: ["reviews"],
        summary: "Review queues with progress",
        protect: true,
      },
    })
    .input(projectRef)
    .output(z.array(reviewQueueOutput))
    .query(({ ctx }) => reviewQueues.listQueues(ctx.access)),
  queue: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/reviews/queues/{queueId}",
        tags: ["reviews"],
        summary: "One review queue with its items",
        protect: true,
      },
    })
    .input(reviewQueueRefInput)
    .output(reviewQueueDetailOutput)
    .query(({ ctx, input }) => reviewQueues.getQueue(ctx.access, input.queueId)),
  deleteQueue: projectOwnerProcedure
    .input(reviewQueueRefInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviewQueues.deleteQueue(ctx.access, input.queueId);
      return { ok: true as const };
    }),

  // ----- one episode's review -----
  review: projectProcedure
    .meta({
      scope: "READ",
      openapi: {
        method: "GET",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}",
        tags: ["reviews"],
        summary: "The review of one episode: status, assignee, tags, comments",
        protect: true,
      },
    })
    .input(reviewEpisodeRefInput)
    .output(reviewOutput)
    .query(({ ctx, input }) => reviews.getReview(ctx.access, input.episodeId)),
  update: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "PATCH",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}",
        tags: ["reviews"],
        summary: "Set an episode's review status and / or assignee",
        protect: true,
      },
    })
    .input(reviewUpdateInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.updateReview(ctx.access, input)),
  setTag: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "PUT",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}/tags/{tagId}",
        tags: ["reviews"],
        summary: "Add (on: true) or remove (on: false) a failure tag on an episode",
        protect: true,
      },
    })
    .input(reviewTagToggleInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.setReviewTag(ctx.access, input)),
  comment: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "POST",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}/comments",
        tags: ["reviews"],
        summary: "Comment on an episode, optionally pinned to a video time, with @-mentions",
        protect: true,
      },
    })
    .input(reviewCommentInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.addComment(ctx.access, input)),
  editComment: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "PATCH",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}",
        tags: ["reviews"],
        summary: "Edit your own comment (its video pin stays; mentions are replaced)",
        description: "Only the comment's author may edit it (403 otherwise).",
        protect: true,
      },
    })
    .input(reviewCommentEditInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.editComment(ctx.access, input)),
  deleteComment: projectEditorProcedure
    .meta({
      scope: "WRITE",
      openapi: {
        method: "DELETE",
        path: "/projects/{projectId}/reviews/episodes/{episodeId}/comments/{commentId}",
        tags: ["reviews"],
        summary: "Delete a comment: your own, or anyone's as a project owner",
        protect: true,
      },
    })
    .input(reviewCommentDeleteInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.deleteComment(ctx.access, input)),

  setScore: projectEditorProcedure
    .meta({ scope: "WRITE" })
    .input(reviewScoreSetInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.setReviewScore(ctx.access, input)),
  commentHistory: projectProcedure
    .meta({ scope: "READ" })
    .input(reviewCommentRefInput)
    .output(reviewCommentHistoryOutput)
    .query(({ ctx, input }) => reviews.commentHistory(ctx.access, input)),

  // ----- the signed-in person's inbox of @-mentions -----
  // PEOPLE: a token acts for one project on its creator's behalf and reads no one's mail; the
  // services refuse tokens too. Each call reads and marks only the caller's own notifications.
  inbox: protectedProcedure
    .meta({ scope: "PEOPLE" })
    .input(inboxListInput)
    .output(inboxListOutput)
    .query(({ ctx, input }) => reviews.listInbox(ctx.principal, input)),
  inboxUnread: protectedProcedure
    .meta({ scope: "PEOPLE" })
    .output(z.object({ unread: z.number().int() }))
    .query(({ ctx }) => reviews.inboxUnread(ctx.principal)),
  markInbox: protectedProcedure
    .meta({ scope: "PEOPLE" })
    .input(inboxMarkInput)
    .output(z.object({ unread: z.number().int() }))
    .mutation(({ ctx, input }) => reviews.markInbox(ctx.principal, input)),
  markAllInboxRead: protectedProcedure
    .meta({ scope: "PEOPLE" })
    .output(z.object({ marked: z.number().int(), unread: z.number().int() }))
    .mutation(({ ctx }) => reviews.markAllInboxRead(ctx.principal)),

  // ----- overview -----
  overview: projectProcedure
    .meta({ scope: "READ" })
    .input(reviewOverviewInput)
    .output(reviewOverviewOutput)
    .query(async ({ ctx, input }) => {
      const [queues, rest] = await Promise.all([
        reviewQueues.listQueues(ctx.access),
        reviews.overview(ctx.access, input),
      ]);
      return { queues, ...rest };
    }),
  breakdown: projectProcedure
    .meta({ scope: "READ" })
    .input(reviewBreakdownInput)
    .output(reviewBreakdownOutput)
    .query(({ ctx, input }) => reviews.breakdown(ctx.access, input.runIds)),

  /** Every review change of the project over Server-Sent Events (two reviewers see each other). */
  events: projectProcedure.meta({ scope: "READ" }).subscription(async function* ({ ctx, signal }) {
    for await (const message of reviewEvents(ctx.access.projectId, signal)) {
      yield liveReviewMessageSchema.parse(message);
    }
  }),
});
