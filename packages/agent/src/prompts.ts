// Prompt modes and their texts (SPEC §5). Prompt texts are configuration: we ship our own
// defaults in two presets and let users override any text of a mode per model or per eval
// (`PromptOverridesSchema`, validated: an unknown `{placeholder}` is refused by name).
//
// Presets:
// - "generic": our own wording for instruction-tuned VLMs behind an OpenAI-compatible server.
// - "nano": exactly the needle suite's training format (packages/suite/src/oracle.ts:
//   `mainPrompt` = `<video>\n{question}\nVideo path: {video}` and `subAgentPrompt`), so the
//   ParaVT-nano checkpoints see the token sequences they were trained on. No system prompt and no
//   final-answer nudge (the oracle never has either).

import { isAgentic, PROMPT_PRESET_NAMES as PRESET_NAMES, type PromptMode } from "@paravt/protocol";
import { z } from "zod";
import type { PromptPresetName } from "./types";
import { fillTemplate, placeholdersOf, unknownPlaceholders } from "./template";

/** SPEC §5 prompt modes and which of them are agentic: @paravt/protocol's (one definition). */
export { isAgentic, PROMPT_MODES, promptModeSchema as PromptModeSchema, type PromptMode } from "@paravt/protocol";

/** The presets (@paravt/protocol's, the `promptPreset` knob's values). */
export const PROMPT_PRESET_NAMES = PRESET_NAMES satisfies readonly PromptPresetName[];

/** Question types of SPEC §6 (`oe` = open-ended). */
export const QuestionTypeSchema = z.enum(["mcq", "tvg", "oe"]);
export type EvalQuestionType = z.infer<typeof QuestionTypeSchema>;

/** Placeholders of the main agent's texts (system, user, finalAnswer). */
export const MAIN_PLACEHOLDERS = [
  "question",
  "video_path",
  "video_name",
  "subtitles",
  "duration",
  "k",
  "max_turns",
  "max_parallel",
  "answer_format",
] as const;
/** `{frames}`: where the K timestamped overview frames go (user text only, at most once; default first). */
export const FRAMES_PLACEHOLDER = "frames";
/** Placeholders of the sub-agent prompt (SPEC §1.4: the window in MM:SS and its length). */
export const SUB_AGENT_PLACEHOLDERS = [
  "start",
  "end",
  "start_s",
  "end_s",
  "length",
  "length_s",
  "frame_count",
  "frames_intro",
  "rate",
  "question",
  "video_path",
  "video_name",
] as const;
/** Placeholders of the evaluator-style tool response (SPEC §5: how many frames, from which second to which). */
export const EVALUATOR_RESPONSE_PLACEHOLDERS = ["frame_count", "start", "end", "start_s", "end_s"] as const;

/** Every text of one prompt mode. "" means "none" for `system`, `subAgentSystem` and `finalAnswer`. */
export interface PromptTexts {
  /** Main agent's system message ("" = no system message). */
  system: string;
  /** Main agent's first user message; `{frames}` marks where the overview frames go. */
  user: string;
  /** Appended to the last user turn when the tool rounds are used up (SPEC §5); "" = nothing. */
  finalAnswer: string;
  /** Sub-agent's user text, after its window's frames (SPEC §1.4). */
  subAgent: string;
  subAgentSystem: string;
  /** Evaluator dispatch style: the text `<tool_response>` after a crop's frames (SPEC §5). */
  evaluatorResponse: string;
}

const ALLOWED: Record<keyof PromptTexts, readonly string[]> = {
  system: MAIN_PLACEHOLDERS,
  user: [...MAIN_PLACEHOLDERS, FRAMES_PLACEHOLDER],
  finalAnswer: MAIN_PLACEHOLDERS,
  subAgent: SUB_AGENT_PLACEHOLDERS,
  subAgentSystem: SUB_AGENT_PLACEHOLDERS,
  evaluatorResponse: EVALUATOR_RESPONSE_PLACEHOLDERS,
};

function templateField(field: keyof PromptTexts) {
  return z
    .string()
    .max(100_000)
    .superRefine((text, ctx) => {
      const unknown = unknownPlaceholders(text, ALLOWED[field]);
      for (const name of unknown) {
        ctx.addIssue({
          code: "custom",
          message: `unknown placeholder {${name}} in the ${field} template; known placeholders: ${ALLOWED[field]
            .map((p) => `{${p}}`)
            .join(", ")}`,
        });
      }
      if (field === "user" && placeholdersOf(text).filter((p) => p === FRAMES_PLACEHOLDER).length > 1) {
        ctx.addIssue({ code: "custom", message: "the user template may contain {frames} at most once" });
      }
    });
}

/** User-supplied texts for one run: any subset of the fields, each validated. */
export const PromptOverridesSchema = z
  .object({
    system: templateField("system"),
    user: templateField("user"),
    finalAnswer: templateField("finalAnswer"),
    subAgent: templateField("subAgent"),
    subAgentSystem: templateField("subAgentSystem"),
    evaluatorResponse: templateField("evaluatorResponse"),
  })
  .partial()
  .strict();
export type PromptOverrides = z.infer<typeof PromptOverridesSchema>;

/** `{answer_format}` per question type (generic preset wording). */
export const ANSWER_FORMATS: Readonly<Record<EvalQuestionType, string>> = {
  mcq: "Give the letter of the correct option inside <answer></answer>, for example <answer>B</answer>.",
  tvg: "Give the start and end time in seconds inside <answer></answer>, for example <answer>12.5 - 20.0</answer>.",
  oe: "Give a short answer inside <answer></answer>.",
};

const GENERIC_TOOL_SYSTEM =
  "You answer questions about a video. You see {k} frames sampled evenly over the whole video " +
  "({duration} seconds long), each preceded by its timestamp.\n" +
  "To look closer at a part of the video, call the crop_video tool: it shows you that time window " +
  "at one frame per second (at most 16 frames). Write each call as\n" +
  '<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "<the video path>", "start_time": <seconds>, "end_time": <seconds>}}\n</tool_call>\n' +
  "You may make up to {max_parallel} calls in one turn; they run in parallel. You have at most " +
  "{max_turns} rounds of tool calls.\n" +
  "Think first inside <think></think>. Then either call tools, or give your final answer inside <answer></answer>.";

const MINIMAL_TOOL_SYSTEM =
  "Tool: crop_video(video_path, start_time, end_time) returns the frames between start_time and end_time (seconds).\n" +
  'Call it as <tool_call>\n{"name": "crop_video", "arguments": {"video_path": "...", "start_time": 0, "end_time": 10}}\n</tool_call>\n' +
  "Final answer: <answer>...</answer>";

const GENERIC_SUB_AGENT =
  "{frames_intro} from {start} to {end} of a video ({length}, {rate}). Summarize concisely and factually " +
  "what happens in them: the setting, the people and objects, what they do, any visible text, and when " +
  "each thing happens (MM:SS).";

/** The needle suite's sub-agent wording (packages/suite `subAgentPrompt`), with its window filled in. */
export const SUITE_SUB_AGENT_TEMPLATE =
  "{frames_intro} from {start} to {end} of a video ({length}, {rate}). " +
  "Summarize concisely and factually what happens in them: the background color, and every shape that appears, " +
  "with its color, its position in the frame and the first and last time it is visible (MM:SS).";

const EVALUATOR_RESPONSE = "crop_video returned {frame_count} frames from {start_s} s to {end_s} s (shown above).";

const GENERIC_FINAL =
  "You have used all your rounds of tool calls. Give your final answer now, without calling tools. {answer_format}";

function generic(mode: PromptMode): PromptTexts {
  const common = {
    subAgent: GENERIC_SUB_AGENT,
    subAgentSystem: "",
    evaluatorResponse: EVALUATOR_RESPONSE,
    finalAnswer: GENERIC_FINAL,
  };
  switch (mode) {
    case "direct":
      return { ...common, system: "", user: "{frames}\n{question}\n{answer_format} Reply with the answer only." };
    case "reasoning":
      return {
        ...common,
        system: "",
        user: "{frames}\n{question}\nThink step by step inside <think></think>, then answer. {answer_format}",
      };
    case "agentic_general":
      return {
        ...common,
        system: GENERIC_TOOL_SYSTEM,
        user: "{frames}\n{question}\n{answer_format}\nVideo path: {video_path}",
      };
    case "agentic_minimal":
      return {
        ...common,
        system: MINIMAL_TOOL_SYSTEM,
        user: "{frames}\n{question}\n{answer_format}\nVideo path: {video_path}",
      };
  }
}

function nano(mode: PromptMode): PromptTexts {
  return {
    system: "",
    // oracle.ts mainPrompt: `<video>\n${question}\nVideo path: ${video}`; `<video>` = the frames.
    user: isAgentic(mode) ? "{frames}\n{question}\nVideo path: {video_path}" : "{frames}\n{question}",
    finalAnswer: "",
    subAgent: SUITE_SUB_AGENT_TEMPLATE,
    subAgentSystem: "",
    evaluatorResponse: EVALUATOR_RESPONSE,
  };
}

/** The shipped texts of a preset and mode. */
export function presetTexts(preset: PromptPresetName, mode: PromptMode): PromptTexts {
  return preset === "nano" ? nano(mode) : generic(mode);
}

/** The texts of a run: the preset's, with validated user overrides on top. */
export function resolvePromptTexts(
  preset: PromptPresetName,
  mode: PromptMode,
  overrides: PromptOverrides | undefined,
): PromptTexts {
  const checked = PromptOverridesSchema.parse(overrides ?? {});
  return { ...presetTexts(preset, mode), ...checked };
}

/** Seconds as the prompts write them: whole numbers bare (`10`), otherwise one decimal (`10.5`). */
export function formatSeconds(s: number): string {
  const r = Math.round(s * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/** MM:SS of the needle suite (packages/suite `mmss`): whole seconds, rounded down; minutes may pass 59. */
export function mmss(t: number): string {
  const s = Math.floor(t + 1e-9);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/** What the main agent's texts are filled with. */
export interface MainPromptValues {
  question: string;
  videoPath: string;
  videoName: string;
  subtitles: string;
  duration: number;
  k: number;
  /** null: unknown (a stored episode's run does not record it); a template naming it cannot be filled. */
  maxTurns: number | null;
  maxParallel: number | null;
  questionType: EvalQuestionType;
}

/** The values of MAIN_PLACEHOLDERS (an unknown count is left out, so `fillTemplate` refuses it by name). */
export function mainValues(v: MainPromptValues, answerFormat: string): Record<string, string> {
  return {
    question: v.question,
    video_path: v.videoPath,
    video_name: v.videoName,
    subtitles: v.subtitles,
    duration: v.duration.toFixed(1),
    k: String(v.k),
    ...(v.maxTurns !== null ? { max_turns: String(v.maxTurns) } : {}),
    ...(v.maxParallel !== null ? { max_parallel: String(v.maxParallel) } : {}),
    answer_format: answerFormat,
  };
}

/**
 * SPEC §5 (VideoMME with subtitles): the SRT text is prefixed to the question, unless the user
 * template places `{subtitles}` itself.
 */
export function questionWithSubtitles(question: string, subtitles: string, userTemplate: string): string {
  if (subtitles === "" || placeholdersOf(userTemplate).includes("subtitles")) return question;
  return `Subtitles of the video:\n${subtitles}\n\n${question}`;
}

/** The user template split around `{frames}`: text before the frames and after them. */
export function splitAtFrames(
  userTemplate: string,
  values: Readonly<Record<string, string>>,
): { before: string; after: string } {
  const marker = `{${FRAMES_PLACEHOLDER}}`;
  const at = userTemplate.indexOf(marker);
  if (at < 0) return { before: "", after: fillTemplate(userTemplate, values) };
  return {
    before: fillTemplate(userTemplate.slice(0, at), values),
    after: fillTemplate(userTemplate.slice(at + marker.length), values),
  };
}

/** SPEC §1.4 sub-agent prompt values for the (clamped) window and its frame times. */
export function subAgentValues(
  start: number,
  end: number,
  timestamps: readonly number[],
  ctx: { question: string; videoPath: string; videoName: string },
): Record<string, string> {
  const n = timestamps.length;
  const length = end - start;
  const spacing = n > 1 ? timestamps[1]! - timestamps[0]! : 1;
  const lengthText = formatSeconds(length);
  return {
    start: mmss(start),
    end: mmss(end),
    start_s: formatSeconds(start),
    end_s: formatSeconds(end),
    length: `${lengthText} ${lengthText === "1" ? "second" : "seconds"}`,
    length_s: lengthText,
    frame_count: String(n),
    frames_intro: n === 1 ? "This frame comes" : `These ${n} frames come`,
    rate: Math.abs(spacing - 1) < 1e-9 ? "one frame per second" : `one frame every ${formatSeconds(spacing)} seconds`,
    question: ctx.question,
    video_path: ctx.videoPath,
    video_name: ctx.videoName,
  };
}
