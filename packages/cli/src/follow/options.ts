// What every follower needs to know that the framework's files do not say.
import { z } from "zod";
import { MAX_K, QUESTION_TYPES } from "@paravt/shared";
import { ROLLOUTS_PER_STEP } from "./items";

export const rolloutDefaultsSchema = z.object({
  /** K (overview frames, SPEC §1) of rollouts whose source does not record it. */
  k: z.number().int().min(1).max(MAX_K).default(1),
  /** The question type of samples whose source does not record it. */
  questionType: z.enum(QUESTION_TYPES).default("oe"),
  /** Rollouts kept per step (whole GRPO groups first); a step holds at most 1000. */
  rolloutsPerStep: z.number().int().min(1).max(ROLLOUTS_PER_STEP).default(ROLLOUTS_PER_STEP),
  /**
   * A dump file untouched for this long is complete (the writers give no other sign; a later
   * step's file also completes it). Keeps a file the trainer is still writing from being read half.
   */
  settleMs: z.number().int().min(0).default(2000),
});
export type RolloutDefaults = z.infer<typeof rolloutDefaultsSchema>;

/**
 * Whether a file last written at `mtimeMs` is still settling (younger than `settleMs`). Its age
 * is never taken below 0: a file's mtime has sub-millisecond precision and Date.now() does not,
 * so a file written in the current millisecond reads a little "in the future"; with settleMs 0
 * (no wait) it must still count as settled.
 */
export function stillSettling(mtimeMs: number, settleMs: number, now = Date.now()): boolean {
  return Math.max(0, now - mtimeMs) < settleMs;
}
