// The texts of an episode's prompts (SPEC §1.4, §5) exactly as the runner sends them, the frames
// aside: the system message, the first user turn's text around the overview frames, the
// forced-final-answer text and each sub-agent's prompt. ONE definition: the runner (runner.ts,
// dispatch.ts) builds its messages with these functions, and the workbench's episode transcript
// re-renders a stored episode's prompts with them from its knobs (issue 41 item 12), so the
// prompts need not be stored with every episode. Pure (no Node built-ins): also the
// `@paravt/agent/prompts` entry, which loads neither nano nor the video decoder.

import {
  ANSWER_FORMATS,
  mainValues,
  questionWithSubtitles,
  resolvePromptTexts,
  splitAtFrames,
  subAgentValues,
  type EvalQuestionType,
  type PromptMode,
  type PromptOverrides,
  type PromptTexts,
} from "./prompts";
import { REFERENCE_FINAL_ANSWER, REFERENCE_SYSTEM } from "./reference-protocol";
import { fillTemplate } from "./template";
import type { PromptPresetName } from "./types";

const LETTERS = "ABCDEFGHIJ";

/**
 * The question with its options, one per line ("A. ..."), as benchmarks print them: what the eval
 * jobs ask in the workbench request style. A question that already lists them (the needle suite's
 * text, which nano was trained on) is left as is.
 */
export function withOptions(question: string, options: readonly string[] | null): string {
  if (!options?.length || options.every((o) => question.includes(o))) return question;
  const lines = options.map((o, i) => (/^[A-J][.)]\s/.test(o) ? o : `${LETTERS[i] ?? "?"}. ${o}`));
  return `${question}\n${lines.join("\n")}`;
}

/** The last segment of a `/` path, as POSIX `basename` gives it (trailing slashes ignored). */
export function videoNameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? (path.startsWith("/") ? "/" : "") : trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** What the main agent's prompts are rendered from: the episode's knobs and input. */
export interface MainPromptInput {
  mode: PromptMode;
  preset: PromptPresetName;
  requestStyle: "workbench" | "reference";
  prompts?: PromptOverrides | undefined;
  /** The question as the runner receives it (`EpisodeInput.question`). */
  question: string;
  questionType: EvalQuestionType;
  subtitles?: string | undefined;
  /** The video's path as the model sees it (`EpisodeInput.video.path`). */
  videoPath: string;
  /** Seconds (the overview's duration). */
  duration: number;
  k: number;
  /**
   * Tool rounds and calls per round. null when unknown (a renderer of a stored episode whose run
   * does not record them): a template that names `{max_turns}` / `{max_parallel}` is then a
   * TemplateError, never a made-up number.
   */
  maxTurns: number | null;
  maxParallel: number | null;
}

/** The main agent's prompt texts of one episode. */
export interface MainPrompt {
  /** The run's texts (the preset's with the run's overrides). */
  texts: PromptTexts;
  /** The system message; null when none is sent. */
  system: string | null;
  /** The first user turn's text parts before and after the overview frames ("" = no such part). */
  userBefore: string;
  userAfter: string;
  /** The forced-final-answer text (SPEC §5); "" = none. */
  finalAnswer: string;
  /** Workbench: appended to the last user turn on a new line; reference: a user turn of its own. */
  finalAnswerPlacement: "appended" | "own_turn";
}

/** Renders the main agent's texts; throws KnobsError-free TemplateError / ZodError on bad templates. */
export function renderMainPrompt(i: MainPromptInput): MainPrompt {
  const texts = resolvePromptTexts(i.preset, i.mode, i.prompts);
  if (i.requestStyle === "reference") {
    // The reference's `is_mcq` is true for every benchmark but Charades-STA (grounding).
    return {
      texts,
      system: REFERENCE_SYSTEM[i.mode],
      userBefore: "",
      userAfter: i.question,
      finalAnswer: REFERENCE_FINAL_ANSWER[i.questionType !== "tvg" ? "mcq" : "grounding"],
      finalAnswerPlacement: "own_turn",
    };
  }
  const values = mainValues(
    {
      question: questionWithSubtitles(i.question, i.subtitles ?? "", texts.user),
      videoPath: i.videoPath,
      videoName: videoNameOf(i.videoPath),
      subtitles: i.subtitles ?? "",
      duration: i.duration,
      k: i.k,
      maxTurns: i.maxTurns,
      maxParallel: i.maxParallel,
      questionType: i.questionType,
    },
    ANSWER_FORMATS[i.questionType],
  );
  const { before, after } = splitAtFrames(texts.user, values);
  return {
    texts,
    system: texts.system !== "" ? fillTemplate(texts.system, values) : null,
    userBefore: before,
    userAfter: after,
    finalAnswer: fillTemplate(texts.finalAnswer, values),
    finalAnswerPlacement: "appended",
  };
}

/** A cropped window as the trajectory records it (clamped start and end, the frames' nominal times). */
export interface SubAgentWindow {
  startS: number;
  endS: number;
  frameTimestamps: readonly number[];
}

/** One sub-agent's prompt (SPEC §1.4): its system message, and the text part after its window's frames. */
export interface SubAgentPrompt {
  system: string | null;
  /** Exactly the text part sent after the frames (nano's `<video>\n{prompt}`: a leading newline). */
  text: string;
}

export function renderSubAgentPrompt(
  texts: Pick<PromptTexts, "subAgent" | "subAgentSystem">,
  w: SubAgentWindow,
  ctx: { question: string; videoPath: string; videoName: string },
): SubAgentPrompt {
  const values = subAgentValues(w.startS, w.endS, w.frameTimestamps, ctx);
  return {
    system: texts.subAgentSystem !== "" ? fillTemplate(texts.subAgentSystem, values) : null,
    text: `\n${fillTemplate(texts.subAgent, values)}`,
  };
}
