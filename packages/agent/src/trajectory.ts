// The FULL trajectory of one episode (SPEC §5: the reference evaluator keeps only the last 500
// characters of a response and loses crop windows and sub-agent outputs; we keep everything).
// Plain JSON: no Buffers (frames are referenced by timestamp), no NaN (see `storableJson`).

import { z } from "zod";
import type { JsonValue } from "@paravt/protocol";
import { DispatchStyleSchema, ToolParserSchema } from "./knobs";
import { PromptModeSchema, QuestionTypeSchema } from "./prompts";

export const TRAJECTORY_VERSION = 1;

/** Where an episode failed. */
export const EpisodeErrorStageSchema = z.enum(["frames", "main_agent", "sub_agent", "prompt"]);

export const EpisodeErrorSchema = z.object({
  /** EngineErrorKind for engine failures; "video" for frames; "prompt" for a template problem; "internal" otherwise. */
  kind: z.string(),
  stage: EpisodeErrorStageSchema,
  message: z.string(),
  /** Main-agent turn being generated when it failed (absent before the first turn). */
  turn: z.int().optional(),
});
export type EpisodeError = z.infer<typeof EpisodeErrorSchema>;

export const ToolCallStatusSchema = z.enum(["OK", "ERROR", "REJECTED"]);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

export const ToolCallRecordSchema = z.object({
  /** Position of the call in its turn (0-based, parse order). */
  index: z.int(),
  /** The tool name as written, null when it was not a string. */
  name: z.string().nullable(),
  /** The arguments as parsed (non-finite numbers stored as strings, see `storableJson`). */
  arguments: z.json(),
  /** Requested window (seconds) as the evaluator reads it (SPEC §4/§5), null when unreadable. */
  requestedStartS: z.number().nullable(),
  requestedEndS: z.number().nullable(),
  /** The window actually sampled (end clamped to the duration, SPEC §1.4), null when none was. */
  startS: z.number().nullable(),
  endS: z.number().nullable(),
  clamped: z.boolean(),
  /** Nominal times of the window's frames (what the prompt states). */
  frameTimestamps: z.array(z.number()),
  /** Times of the frames actually decoded (@paravt/video `sourceTime`). */
  frameSourceTimes: z.array(z.number()),
  /** The sub-agent's raw text (subagent dispatch), null otherwise or when it did not run. */
  subAgentOutput: z.string().nullable(),
  /** Exactly what went into this call's `<tool_response>` (null for REJECTED calls, which get none). */
  response: z.string().nullable(),
  /** The summary was cut to `summaryMaxTokens` (SPEC §1.5). */
  truncated: z.boolean(),
  status: ToolCallStatusSchema,
  error: z.string().optional(),
  /** Frames + sub-agent time of this call (the sub-agent's share is its batch's wall time). */
  durationMs: z.number(),
  framesMs: z.number(),
  /** Sub-agent tokens (engine counts) and the summary's length in the counter's tokens. */
  tokens: z.object({ prompt: z.int(), completion: z.int(), summary: z.int() }).nullable(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export const TurnRecordSchema = z.object({
  index: z.int(),
  /** The generated text (without the forced prefix). */
  rawText: z.string(),
  /** SPEC §1.7 prefix forced before generation, null when none. */
  forcedPrefix: z.string().nullable(),
  /** Every call the tool parser read, as parsed (also in non-agentic modes, where none is dispatched). */
  parsedCalls: z.array(z.json()),
  /** Why text that looks like a call gave no call, or why calls were not dispatched. */
  parseIssues: z.array(z.string()),
  toolCalls: z.array(ToolCallRecordSchema),
  promptTokens: z.int(),
  completionTokens: z.int(),
  finish: z.enum(["stop", "length"]),
  maxTokens: z.int(),
  latencyMs: z.number(),
  /** The turn after the last tool round (SPEC §5: asked once more for a final answer). */
  forcedFinal: z.boolean(),
  /** How the engine rebuilt rawText from the server's response (reasoning / tool_calls fields); absent when it is the content as is. */
  engineNotes: z.array(z.string()).optional(),
});
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

export const TrajectorySchema = z.object({
  version: z.literal(TRAJECTORY_VERSION),
  status: z.enum(["ok", "error"]),
  error: EpisodeErrorSchema.optional(),
  mode: PromptModeSchema,
  dispatch: DispatchStyleSchema,
  toolParser: ToolParserSchema,
  questionType: QuestionTypeSchema,
  engine: z.string(),
  subAgentEngine: z.string().nullable(),
  promptPreset: z.string(),
  tokenCounter: z.string(),
  k: z.int(),
  /** Seconds (probe). 0 when the video could not be read. */
  duration: z.number(),
  overviewTimestamps: z.array(z.number()),
  overviewSourceTimes: z.array(z.number()),
  turns: z.array(TurnRecordSchema),
  /** Text of the last main-agent turn ("" when none finished). */
  finalText: z.string(),
  /** The answer read from finalText for the question type (SPEC §4 extraction; "" on error). */
  prediction: z.string(),
  /** Tool calls dispatched (status OK or ERROR) over the episode. */
  toolCallCount: z.int(),
  timings: z.object({ totalMs: z.number(), framesMs: z.number(), mainMs: z.number(), subAgentMs: z.number() }),
  tokenCounts: z.object({
    mainPrompt: z.int(),
    mainCompletion: z.int(),
    subAgentPrompt: z.int(),
    subAgentCompletion: z.int(),
  }),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

/**
 * Parsed calls as JSON a database can store: Python's json.loads (SPEC §4) accepts NaN and
 * ±Infinity, which JSON cannot hold, so they become the strings "NaN", "Infinity", "-Infinity".
 */
export function storableJson(v: JsonValue): JsonValue {
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(storableJson);
  if (v !== null && typeof v === "object") {
    const out: { [k: string]: JsonValue } = {};
    // defineProperty: a `__proto__` key stays an own data property (as the parser made it).
    for (const [k, x] of Object.entries(v)) {
      Object.defineProperty(out, k, { value: storableJson(x), writable: true, enumerable: true, configurable: true });
    }
    return out;
  }
  return v;
}
