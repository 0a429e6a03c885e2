// The GRPO group inspector (issue 41 item 14): one prompt's group of rollouts of one RL training
// step, side by side. train.rl stores a step's rollouts (within the run's `keepRolloutsPerStep`)
// with their place in the group and the SPEC §3 advantage the update used (rewardTerms `group`,
// `groupIndex`, `groupSize`, `advantage`); runs stored before that carry none of them, and their
// rollouts are grouped by sample, advantages "not recorded".
import { z } from "zod";
import { id, projectRef } from "./common";
import { compareSampleOutput, evalEpisodeOutput } from "./evals";
import { MAX_ROLLOUT_STEP, rewardTermsSchema, TRAINING_ROLLOUT_STRIDE } from "./runs";

export const stepGroupInput = projectRef.extend({
  runId: id,
  step: z.number().int().min(0).max(MAX_ROLLOUT_STEP),
  /** The group to open (its index in the step's batch); default the first stored one. */
  group: z
    .number()
    .int()
    .min(0)
    .max(TRAINING_ROLLOUT_STRIDE - 1)
    .optional(),
});
export type StepGroupInput = z.infer<typeof stepGroupInput>;

/** One group of the step, as the group list shows it. */
export const stepGroupSummary = z.object({
  group: z.number().int(),
  sampleKey: z.string(),
  k: z.number().int(),
  /** Rollouts of the group stored (the run's budget may have kept fewer than `groupSize`). */
  stored: z.number().int(),
  /** The group's size in training; null for a run stored before groups were recorded. */
  groupSize: z.number().int().nullable(),
  rewardMean: z.number().nullable(),
  /** Population std of the stored rewards (what GRPO normalizes by, SPEC §3). */
  rewardStd: z.number().nullable(),
});
export type StepGroupSummary = z.infer<typeof stepGroupSummary>;

export const groupRolloutOutput = z.object({
  /** i of rolloutIndex = step * stride + i: the rollout's position in the step's batch. */
  rollout: z.number().int(),
  /** Its index in the group; null when not recorded. */
  groupIndex: z.number().int().nullable(),
  /** The advantage the update used (group- then batch-normalized); null when not recorded. */
  advantage: z.number().nullable(),
  rewardTerms: rewardTermsSchema.nullable(),
  /** The first page of the episode with short previews (the comparison's column budget). */
  episode: evalEpisodeOutput,
});
export type GroupRolloutOutput = z.infer<typeof groupRolloutOutput>;

export const stepGroupOutput = z.object({
  step: z.number().int(),
  groups: z.array(stepGroupSummary),
  /** The open group; null when the step stored no rollouts. */
  group: stepGroupSummary.nullable(),
  sample: compareSampleOutput.nullable(),
  /** The open group's rollouts in group order. */
  rollouts: z.array(groupRolloutOutput),
  /** Whether the run recorded groups and advantages (runs stored before issue 41 item 14 did not). */
  recorded: z.boolean(),
  /** The closest steps before / after with stored rollouts. */
  prev: z.number().int().nullable(),
  next: z.number().int().nullable(),
});
export type StepGroupOutput = z.infer<typeof stepGroupOutput>;
