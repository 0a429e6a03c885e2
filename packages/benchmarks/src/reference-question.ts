// The user text of the reference evaluator's first request (EvolvingLMMs-Lab/ParaVT,
// paravt/eval/driver.py::eval_one lines 442-444): `q_text = sample["question"]`, where load_samples
// (paravt/eval/utils.py lines 211-461) builds `question` per dataset and, for multiple-choice
// datasets, ends it with `"\n" + mcq_instr`; agentic modes then append the video's file name unless
// the text already says "video path". Loaders store the mode-independent part of that text on each
// sample (`metadata.reference`, see ./reference-bodies.ts); this module adds the mode-dependent
// parts. Pure (zod only, no Node built-ins): the agent package imports it through
// `@paravt/benchmarks/reference-question`.

import type { PromptMode } from "@paravt/protocol";
import { z } from "zod";

/** The reference's `--datasets` names (driver.py `_parse_args_with_prompt_mode`, "the seven Tab1 benches"). */
export const REFERENCE_DATASET_NAMES = [
  "videomme",
  "videomme_wsub",
  "longvideobench",
  "lvbench",
  "mlvu",
  "mmvu",
  "charades",
] as const;
export const ReferenceDatasetNameSchema = z.enum(REFERENCE_DATASET_NAMES);
export type ReferenceDatasetName = z.output<typeof ReferenceDatasetNameSchema>;

/** `metadata.reference` of a sample loaded from a copy whose rows are the reference evaluator's. */
export const ReferenceQuestionSchema = z.strictObject({
  dataset: ReferenceDatasetNameSchema,
  /**
   * load_samples' `question` for this row without its trailing `"\n" + mcq_instr` (mcq datasets);
   * the whole text for Charades-STA, which has no instruction.
   */
  questionBody: z.string().min(1),
  /** load_samples' `is_mcq` (true for every MMVU row, open-ended ones included). */
  isMcq: z.boolean(),
});
export type ReferenceQuestion = z.output<typeof ReferenceQuestionSchema>;

/**
 * The SPEC §5 prompt modes (@paravt/protocol's, one definition). The reference's rules below only
 * ask whether the mode is "direct" and whether it starts with "agentic_".
 */
export type ReferencePromptMode = PromptMode;

/** utils.py::load_samples `mcq_instr` (lines 220-225) when `prompt_mode == "direct"`. */
export const REFERENCE_DIRECT_MCQ_INSTRUCTION =
  "Think step by step, use crop_video if needed, then provide your answer in <answer>X</answer> tags where X is the option letter.";
/** utils.py::load_samples `mcq_instr` in every other mode. */
export const REFERENCE_MCQ_INSTRUCTION = "Answer with the option letter only.";

export function referenceMcqInstruction(mode: ReferencePromptMode): string {
  return mode === "direct" ? REFERENCE_DIRECT_MCQ_INSTRUCTION : REFERENCE_MCQ_INSTRUCTION;
}

/**
 * driver.py::eval_one's `q_text` for this sample in `mode`: the body, `"\n" + mcq_instr` for mcq
 * datasets, then in agentic modes (`_is_agentic`, driver.py line 384: the name starts with "agentic_")
 * `" The video path for this video is: {os.path.basename(vpath)}"` unless the text, lower-cased,
 * already contains "video path". (JS and Python lower-case alike for that test: the only
 * non-ASCII letters that lower-case to ASCII ones, KELVIN SIGN and "İ", cannot form it.)
 */
export function referenceQuestionText(
  reference: ReferenceQuestion,
  mode: ReferencePromptMode,
  videoBasename: string,
): string {
  const text = reference.isMcq ? `${reference.questionBody}\n${referenceMcqInstruction(mode)}` : reference.questionBody;
  if (mode.startsWith("agentic_") && !text.toLowerCase().includes("video path")) {
    return `${text} The video path for this video is: ${videoBasename}`;
  }
  return text;
}
