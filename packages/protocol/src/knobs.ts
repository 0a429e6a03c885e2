// The episode knobs (SPEC §1, §5) that an evaluation launch sets and the episode runner reads: ONE
// definition of their types, defaults, messages and cross-field rules. @paravt/shared's `evalKnobs`
// (the launch contract: API and form) and @paravt/agent's `EvalKnobsSchema` (the runner's, with
// its own knobs added) are both built from `episodeKnobs`; they differ only in the numeric ranges
// below (a launch's are a subset of the runner's).
import { z } from "zod";

/**
 * How crop_video results reach the main agent (SPEC §5): "evaluator", the reference evaluator's
 * style (a crop's frames straight back into the main agent's context); "subagent", training's
 * (a sub-agent's summary comes back).
 */
export const DISPATCH_STYLES = ["evaluator", "subagent"] as const;
export type DispatchStyle = (typeof DISPATCH_STYLES)[number];

/** Whose request the model gets: ours, or the reference evaluator's (docs/serving.md). */
export const REQUEST_STYLES = ["workbench", "reference"] as const;
export type RequestStyle = (typeof REQUEST_STYLES)[number];

/** Reference request only (driver.py `--video_channel`): overview frames, or the video file. */
export const VIDEO_CHANNELS = ["image_url", "video_url"] as const;

/** SPEC §5 prompt modes: one definition for the launch contract, the runner and the reference port. */
export const PROMPT_MODES = ["direct", "reasoning", "agentic_general", "agentic_minimal"] as const;
export const promptModeSchema = z.enum(PROMPT_MODES);
export type PromptMode = (typeof PROMPT_MODES)[number];

/**
 * Agentic modes dispatch crop_video calls (the "with tool" rows of a results matrix); direct and
 * reasoning are one pass (SPEC §5).
 */
export function isAgentic(mode: PromptMode): boolean {
  return mode === "agentic_general" || mode === "agentic_minimal";
}

/** Prompt wording families of the episode runner. */
export const PROMPT_PRESET_NAMES = ["generic", "nano"] as const;

/**
 * SPEC §5's locked protocol for headline rows: temperature 0, 2048 tokens, max_turns 3,
 * max_parallel 5, the evaluator's dispatch; our own request, no think prefix.
 */
export const LOCKED_KNOBS = {
  temperature: 0,
  maxTokens: 2048,
  maxTurns: 3,
  maxParallel: 5,
  thinkPrefix: false,
  dispatch: "evaluator",
  requestStyle: "workbench",
  videoChannel: "image_url",
} as const;

/** Ranges of the numeric knobs. */
export interface KnobRanges {
  maxTemperature: number;
  minTokens: number;
  /** Absent: no upper bound. */
  maxTokens?: number;
  maxTurns: number;
  maxParallel: number;
}

/** The episode runner's: what its engines take (RL's ranges, packages/rl config.ts, fit in them). */
export const RUNNER_KNOB_RANGES: Readonly<KnobRanges> = Object.freeze({
  maxTemperature: 10,
  minTokens: 1,
  maxTurns: 100,
  maxParallel: 1000,
});

/** An evaluation launch's (API and form): a subset of the runner's. */
export const LAUNCH_KNOB_RANGES: Readonly<KnobRanges> = Object.freeze({
  maxTemperature: 2,
  minTokens: 16,
  maxTokens: 32_768,
  maxTurns: 16,
  maxParallel: 32,
});

/** The shared knobs with the given ranges (field order is the launch contract's REST order). */
export function episodeKnobs(r: Readonly<KnobRanges>) {
  const tokens = z
    .number()
    .int()
    .min(r.minTokens, `At least ${r.minTokens} token${r.minTokens === 1 ? "" : "s"}`);
  return z.object({
    temperature: z
      .number()
      .min(0, "Temperature must be >= 0")
      .max(r.maxTemperature, `Temperature must be <= ${r.maxTemperature}`)
      .default(LOCKED_KNOBS.temperature),
    /** Max new tokens of a main-agent turn. */
    maxTokens: (r.maxTokens === undefined ? tokens : tokens.max(r.maxTokens, `At most ${r.maxTokens} tokens`)).default(
      LOCKED_KNOBS.maxTokens,
    ),
    /** Tool rounds (SPEC §1.6). 0 = the first turn is already the forced final answer. */
    maxTurns: z
      .number()
      .int()
      .min(0, "max turns must be >= 0")
      .max(r.maxTurns, `At most ${r.maxTurns} tool rounds`)
      .default(LOCKED_KNOBS.maxTurns),
    /** Calls accepted per turn (SPEC §1.6); later calls of the turn are rejected with a reason. */
    maxParallel: z
      .number()
      .int()
      .min(1, "At least one call per turn")
      .max(r.maxParallel, `At most ${r.maxParallel} calls per turn`)
      .default(LOCKED_KNOBS.maxParallel),
    /** SPEC §1.7: every main-agent generation continues from a forced `<think>\n`. */
    thinkPrefix: z.boolean().default(LOCKED_KNOBS.thinkPrefix),
    /** SPEC §5: headline-row reproduction uses the evaluator's style. */
    dispatch: z.enum(DISPATCH_STYLES).default(LOCKED_KNOBS.dispatch),
    /** Prompt wording family; default: the engine's own (nano) or "generic". */
    promptPreset: z.enum(PROMPT_PRESET_NAMES).optional(),
    /**
     * "workbench": our own prompts with timestamped frames; "reference": the reference
     * evaluator's request (driver.py: its prompts and question texts, bare frames sampled like
     * qwen-vl-utils, a separate final-answer turn).
     */
    requestStyle: z.enum(REQUEST_STYLES).default(LOCKED_KNOBS.requestStyle),
    /**
     * Reference request only: "image_url", overview frames decoded by the workbench (the
     * reference's MCQ setting); "video_url", the video file for the server to decode (its
     * Charades-STA setting: the server must see the same path, docs/serving.md).
     */
    videoChannel: z.enum(VIDEO_CHANNELS).default(LOCKED_KNOBS.videoChannel),
  });
}

/** What the cross-field rules read. */
export interface KnobConflictInput {
  requestStyle: RequestStyle;
  videoChannel: (typeof VIDEO_CHANNELS)[number];
  dispatch: DispatchStyle;
  thinkPrefix: boolean;
  promptPreset?: string | undefined;
  prompts?: object | undefined;
}

/**
 * The reference request's rules, for `superRefine`: the video_url channel is its alone; it needs
 * the evaluator's dispatch, no think prefix, no prompt overrides (an empty set overrides nothing)
 * and no prompt preset (it has its own wording).
 */
export function refuseKnobConflicts(k: KnobConflictInput, ctx: z.RefinementCtx): void {
  const refuse = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (k.videoChannel === "video_url" && k.requestStyle !== "reference") {
    refuse("videoChannel", "The video_url channel is the reference request's");
  }
  if (k.requestStyle !== "reference") return;
  if (k.dispatch !== "evaluator")
    refuse("dispatch", "The reference request returns crops to the main agent: use the evaluator's dispatch");
  if (k.thinkPrefix) refuse("thinkPrefix", "The reference evaluator forces no <think> prefix");
  if (k.prompts && Object.keys(k.prompts).length > 0)
    refuse("prompts", "The reference request sends its own texts: no overrides");
  if (k.promptPreset) refuse("promptPreset", "The reference request has its own wording: no prompt preset");
}
