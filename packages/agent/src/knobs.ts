// The evaluation knobs of SPEC §5 (and the runner's own), validated with zod. The knobs an
// evaluation launch also sets (temperature, tokens, turns, parallel calls, think prefix, dispatch,
// prompt preset, request style, video channel) and the reference request's rules are
// @paravt/protocol's `episodeKnobs` / `refuseKnobConflicts`, in the runner's ranges; the rest are
// the runner's. Defaults are the locked protocol of the headline rows: K = 64, temperature 0,
// max 2048 tokens, max_turns 3, max_parallel 5, final answer asked once more with 64 (MCQ) / 128
// (grounding) tokens; but `dispatch` defaults to "subagent" (below).

import {
  DISPATCH_STYLES,
  episodeKnobs,
  LOCKED_KNOBS,
  refuseKnobConflicts,
  REQUEST_STYLES,
  RUNNER_KNOB_RANGES,
} from "@paravt/protocol";
import { z } from "zod";
import { PromptModeSchema, PromptOverridesSchema } from "./prompts";

/**
 * How crop_video results reach the main agent (SPEC §5):
 * - "subagent": training style (SPEC §1.4–1.5): a sub-agent summarizes the window's frames and
 *   its text comes back in `<tool_response>` blocks, one user turn per tool round.
 * - "evaluator": the reference evaluator's style: each crop's frames go straight back into the
 *   main agent's context as a user turn, with a text `<tool_response>` stating how many frames
 *   from which second to which. Headline-row reproduction uses this one.
 */
export const DispatchStyleSchema = z.enum(DISPATCH_STYLES);
export type DispatchStyle = z.infer<typeof DispatchStyleSchema>;

/** SPEC §4: the evaluation parser (default) or the training parser (RL rollouts). */
export const ToolParserSchema = z.enum(["eval", "training"]);
export type ToolParserName = z.infer<typeof ToolParserSchema>;

const positiveInt = z.int().min(1);

/**
 * Whose request the model gets:
 * - "workbench" (default): our own prompts (`promptPreset`), frames preceded by their timestamp
 *   text, SPEC §1.1 overview ticks, the final-answer nudge appended to the last user turn;
 * - "reference": the request the reference evaluator sends (reference-protocol.ts): its system
 *   prompts and question text, bare frames sampled like qwen-vl-utils `fetch_video`, its tool
 *   response texts and a separate final-answer turn. Requires `dispatch: "evaluator"` (the
 *   reference's style), no think prefix, no prompt preset and no prompt overrides.
 */
export const RequestStyleSchema = z.enum(REQUEST_STYLES);
export type RequestStyle = z.infer<typeof RequestStyleSchema>;

export const EvalKnobsSchema = episodeKnobs(RUNNER_KNOB_RANGES)
  .extend({
    mode: PromptModeSchema.default("agentic_general"),
    /**
     * The runner's callers that name no dispatch are SPEC §1's (RL rollouts, nano, benches):
     * training's style. An evaluation always passes its launch's (default "evaluator").
     */
    dispatch: DispatchStyleSchema.default("subagent"),
    toolParser: ToolParserSchema.default("eval"),
    /** Overview frames (SPEC §1.1). */
    k: positiveInt.max(4096).default(64),
    topP: z.number().gt(0).max(1).optional(),
    seed: z.int().optional(),
    /** Calls of one turn being cropped at the same time; default = maxParallel. */
    concurrency: positiveInt.max(1000).optional(),
    /** SPEC §5: max tokens of the forced final answer, per question type. */
    finalAnswerMaxTokens: z
      .object({ mcq: positiveInt.default(64), tvg: positiveInt.default(128), oe: positiveInt.default(128) })
      .strict()
      .prefault({}),
    /** SPEC §1.5: sub-agent summaries are cut to this many tokens (suffix ` [truncated]`). */
    summaryMaxTokens: positiveInt.default(512),
    /** Max new tokens of a sub-agent; default = maxTokens. */
    subAgentMaxTokens: positiveInt.optional(),
    /**
     * What an engine failure of the sub-agent does: "error_text" (SPEC §1.4: the call's response
     * is an error text, the episode goes on) or "fail_episode" (the episode ends with status error,
     * so no answer depends on an infrastructure failure).
     */
    subAgentFailure: z.enum(["error_text", "fail_episode"]).default("error_text"),
    /** Texts replacing the preset's for this run (placeholders validated). */
    prompts: PromptOverridesSchema.optional(),
  })
  .strict()
  .superRefine(refuseKnobConflicts);

export type EvalKnobs = z.infer<typeof EvalKnobsSchema>;
export type EvalKnobsInput = z.input<typeof EvalKnobsSchema>;

/** The locked protocol of SPEC §5: every default, with the evaluator's dispatch. */
export const LOCKED_PROTOCOL: Readonly<EvalKnobs> = Object.freeze(
  EvalKnobsSchema.parse({ dispatch: LOCKED_KNOBS.dispatch }),
);

/** Parses knobs with a message naming every bad field (zod's pretty error). */
export function parseEvalKnobs(input: unknown): EvalKnobs {
  const r = EvalKnobsSchema.safeParse(input ?? {});
  if (!r.success) throw new KnobsError(`invalid eval knobs:\n${z.prettifyError(r.error)}`);
  return r.data;
}

export class KnobsError extends Error {
  override name = "KnobsError";
}
