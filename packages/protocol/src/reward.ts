import { extractAnswer } from "./answer";
import { formatReward, type FormatRewardConfig } from "./format-reward";
import { codePointLength, countOccurrences, pyFloat, pyMax, pyMin, pyStrip, PY_D } from "./py-text";
import { normalizeText } from "./normalize";
import { accReward, type RewardMode } from "./scoring";
import { toolReward } from "./tool-reward";

/** Question types of SPEC §6; any other string is scored like `oe`, as in the reference. */
export type QuestionType = "mcq" | "tvg" | "oe";

/** The reward knobs of SPEC §2. */
export interface RewardConfig extends FormatRewardConfig {
  /** Weight of R_fmt in R = R_acc + format_weight * R_fmt + R_tool. */
  readonly formatWeight: number;
  /** Accuracy mode for question types other than mcq / tvg. */
  readonly rewardMode: RewardMode;
}

/** A full training recipe of SPEC §2 ("Recipe defaults"): reward knobs plus rollout flags. */
export interface Recipe extends RewardConfig {
  /** Force `<think>\n` at the start of every main-agent generation (SPEC §1.7). */
  readonly thinkPrefix: boolean;
  /** Draw K per prompt from {4, 8, 16, 32, 64} (SPEC §1.8). */
  readonly nframesGating: boolean;
}

/** SPEC §2 PARA-GRPO recipe: think_prefix, answer_suffix, nframes_gating on, anchor 0.5, f1, 1.0. */
export const PARA_GRPO: Readonly<Recipe> = Object.freeze({
  thinkPrefix: true,
  answerSuffix: true,
  nframesGating: true,
  anchorWeight: 0.5,
  rewardMode: "f1",
  formatWeight: 1.0,
});

/** SPEC §2 vanilla GRPO baseline: everything off, anchor 0, format_weight 1.0 (mode f1). */
export const VANILLA_GRPO: Readonly<Recipe> = Object.freeze({
  thinkPrefix: false,
  answerSuffix: false,
  nframesGating: false,
  anchorWeight: 0,
  rewardMode: "f1",
  formatWeight: 1.0,
});

/** The reward configuration used when none is given: the PARA-GRPO values (SPEC §2). */
export const DEFAULT_REWARD_CONFIG: Readonly<RewardConfig> = Object.freeze({
  answerSuffix: PARA_GRPO.answerSuffix,
  anchorWeight: PARA_GRPO.anchorWeight,
  formatWeight: PARA_GRPO.formatWeight,
  rewardMode: PARA_GRPO.rewardMode,
});

/** One completion to score. */
export interface RewardInput {
  readonly completion: string;
  /** Ground-truth answer. */
  readonly answer: string;
  readonly questionType: QuestionType | (string & {});
  /** The rendered prompt; only used to find the question for the LLM judge. */
  readonly prompt?: string;
}

/** R and its three terms. */
export interface RewardBreakdown {
  readonly reward: number;
  readonly accReward: number;
  readonly formatReward: number;
  readonly toolReward: number;
  /** True when the degenerate guard zeroed everything. */
  readonly degenerate: boolean;
}

/**
 * SPEC §2 degenerate guard: `<|im_start|>` at least 5 times and fewer than 300 code points.
 */
export function isDegenerate(completion: string): boolean {
  return countOccurrences(completion, "<|im_start|>") >= 5 && codePointLength(completion) < 300;
}

/** What the LLM judge is asked (SPEC §2 `llm` mode). */
export interface JudgeRequest {
  readonly question: string;
  readonly prediction: string;
  readonly groundTruth: string;
}

/**
 * SPEC §2 `llm` mode: the question the judge sees: the prompt text after the last `<|vision_end|>` up to the next
 * `<|im_end|>`, trimmed; "" when the prompt has no `<|vision_end|>`.
 */
export function judgeQuestion(prompt: string): string {
  if (!prompt.includes("<|vision_end|>")) return "";
  const afterVision = prompt.split("<|vision_end|>").pop() ?? "";
  return pyStrip(afterVision.split("<|im_end|>")[0] ?? "");
}

/** SPEC §2 `llm` mode: the single user message sent to the judge model. */
export function judgePrompt(req: JudgeRequest): string {
  return (
    `Question: ${req.question}\n` +
    `Ground truth answer: ${req.groundTruth}\n` +
    `Model prediction: ${req.prediction}\n\n` +
    "Is the prediction semantically equivalent to the ground truth? " +
    "Reply with a single number: 1.0 if correct, 0.5 if partially correct, 0.0 if wrong."
  );
}

const JUDGE_NUMBER_RE = new RegExp(`[${PY_D}.]+`, "u");

/**
 * SPEC §2 `llm` mode (0 / 0.5 / 1, F1 on failure): reads the judge's reply: the first run of digits and dots, as a float clamped to [0, 1];
 * null when there is none or it is not a number (the caller then falls back to F1).
 */
export function parseJudgeReply(reply: string): number | null {
  const m = JUDGE_NUMBER_RE.exec(pyStrip(reply));
  if (!m) return null;
  const v = pyFloat(m[0]);
  return v === null ? null : pyMin(pyMax(v, 0), 1);
}

/**
 * The judge request SPEC §2's `llm` mode would send for this input, or null when the judge is
 * not consulted (not llm mode, degenerate, empty side, exact normalized match, mcq, tvg).
 * Callers run the judge themselves (this package does no I/O) and pass the clamped score, or
 * null on any failure, to computeReward as `judgeScore`.
 */
export function judgeRequest(
  input: RewardInput,
  config: Readonly<RewardConfig> = DEFAULT_REWARD_CONFIG,
): JudgeRequest | null {
  if (config.rewardMode !== "llm" || isDegenerate(input.completion)) return null;
  const prediction = extractAnswer(input.completion);
  if (prediction === "" || input.answer === "") return null;
  if (normalizeText(prediction) === normalizeText(input.answer)) return null;
  if (input.questionType === "mcq" || input.questionType === "tvg") return null;
  return { question: judgeQuestion(input.prompt ?? ""), prediction, groundTruth: input.answer };
}

/**
 * SPEC §2 final reward `R = R_acc + format_weight * R_fmt + R_tool`, every term 0 under the
 * degenerate guard. In `llm` mode, `judgeScore` is the judge's clamped score (null or absent:
 * the judge failed, fall back to F1).
 */
export function computeReward(
  input: RewardInput,
  config: Readonly<RewardConfig> = DEFAULT_REWARD_CONFIG,
  judgeScore?: number | null,
): RewardBreakdown {
  if (isDegenerate(input.completion)) {
    return { reward: 0, accReward: 0, formatReward: 0, toolReward: 0, degenerate: true };
  }
  const prediction = extractAnswer(input.completion);
  const acc = accReward(prediction, input.answer, input.questionType, config.rewardMode, judgeScore);
  const fmt = formatReward(input.completion, config);
  const tool = toolReward(input.completion, acc);
  return {
    reward: acc + config.formatWeight * fmt + tool,
    accReward: acc,
    formatReward: fmt,
    toolReward: tool,
    degenerate: false,
  };
}
