// Team review of failure cases (issue 10). Reads are for every member; reviewing, commenting,
// building queues and editing tags need EDITOR; deleting tags and queues needs OWNER (the
// services check the permission table, so tokens and sessions follow the same rules).
import {
  failureTagCreateInput,
  failureTagMergeInput,
  failureTagOutput,
  failureTagRefInput,
  failureTagRenameInput,
  liveReviewMessageSchema,
  projectRef,
  reviewBreakdownInput,
  reviewBreakdownOutput,
  reviewCommentInput,
  reviewEpisodeRefInput,
  reviewOutput,
  reviewOverviewInput,
  reviewOverviewOutput,
  reviewQueueCreateInput,
  reviewQueueCreateOutput,
  reviewQueueDetailOutput,
  reviewQueueOutput,
  reviewQueueRefInput,
  reviewTagToggleInput,
  reviewUpdateInput,
} from "@paravt/shared";
import { reviewEvents, reviewQueues, reviewTaxonomy, reviews } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectEditorProcedure, projectOwnerProcedure, projectProcedure } from "../../trpc";

const ok = z.object({ ok: z.literal(true) });

export const reviewsRouter = createTRPCRouter({
  // ----- taxonomy -----
  tags: projectProcedure
    .input(projectRef)
    .output(z.array(failureTagOutput))
    .query(({ ctx }) => reviewTaxonomy.listFailureTags(ctx.access)),
  createTag: projectEditorProcedure
    .input(failureTagCreateInput)
    .output(failureTagOutput)
    .mutation(({ ctx, input }) => reviewTaxonomy.createFailureTag(ctx.access, input)),
  renameTag: projectEditorProcedure
    .input(failureTagRenameInput)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await reviewTaxonomy.renameFailureTag(ctx.access, input);
      return { ok: true as const };
    }),
  mergeTags: projectEditorProcedure
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

  // ----- queues -----
  createQueue: projectEditorProcedure
    .input(reviewQueueCreateInput)
    .output(reviewQueueCreateOutput)
    .mutation(({ ctx, input }) => reviewQueues.createQueue(ctx.access, input)),
  queues: projectProcedure
    .input(projectRef)
    .output(z.array(reviewQueueOutput))
    .query(({ ctx }) => reviewQueues.listQueues(ctx.access)),
  queue: projectProcedure
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
    .input(reviewEpisodeRefInput)
    .output(reviewOutput)
    .query(({ ctx, input }) => reviews.getReview(ctx.access, input.episodeId)),
  update: projectEditorProcedure
    .input(reviewUpdateInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.updateReview(ctx.access, input)),
  setTag: projectEditorProcedure
    .input(reviewTagToggleInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.setReviewTag(ctx.access, input)),
  comment: projectEditorProcedure
    .input(reviewCommentInput)
    .output(reviewOutput)
    .mutation(({ ctx, input }) => reviews.addComment(ctx.access, input)),

  // ----- overview -----
  overview: projectProcedure
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
    .input(reviewBreakdownInput)
    .output(reviewBreakdownOutput)
    .query(({ ctx, input }) => reviews.breakdown(ctx.access, input.runIds)),

  /** Every review change of the project over Server-Sent Events (two reviewers see each other). */
  events: projectProcedure.subscription(async function* ({ ctx, signal }) {
    for await (const message of reviewEvents(ctx.access.projectId, signal)) {
      yield liveReviewMessageSchema.parse(message);
    }
  }),
});
