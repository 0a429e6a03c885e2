import { computeReward, DEFAULT_REWARD_CONFIG } from "@paravt/protocol";
import { z } from "zod";
import type { Command } from "../command";
import { formatZodError, mapJsonLines, type LineResult } from "../json-lines";

/**
 * Reward knobs of SPEC §2. Every field is optional and defaults to the PARA-GRPO value, so
 * `{}` or a missing `config` means PARA-GRPO (answer_suffix on, anchor 0.5, f1, format 1.0).
 * The `llm` reward mode is not offered here: it needs a judge model (see @paravt/protocol's
 * judgeRequest for the library hook).
 */
export const RewardConfigInput = z.strictObject({
  answerSuffix: z.boolean().default(DEFAULT_REWARD_CONFIG.answerSuffix),
  anchorWeight: z.number().default(DEFAULT_REWARD_CONFIG.anchorWeight),
  formatWeight: z.number().default(DEFAULT_REWARD_CONFIG.formatWeight),
  rewardMode: z.enum(["f1", "exact"]).default("f1"),
});

/** One input line of `paravt reward`. Unknown keys are rejected (typos do not pass silently). */
export const RewardLineInput = z.strictObject({
  completion: z.string(),
  answer: z.string(),
  question_type: z.enum(["mcq", "tvg", "oe"]),
  prompt: z.string().optional(),
  config: RewardConfigInput.optional(),
});

/** Scores one input value (already JSON-parsed). */
export function rewardLine(value: unknown): LineResult {
  const parsed = RewardLineInput.safeParse(value);
  if (!parsed.success) return { error: formatZodError(parsed.error) };
  const input = parsed.data;
  const config = input.config ?? RewardConfigInput.parse({});
  const r = computeReward(
    {
      completion: input.completion,
      answer: input.answer,
      questionType: input.question_type,
      prompt: input.prompt,
    },
    config,
  );
  return {
    reward: r.reward,
    acc_reward: r.accReward,
    format_reward: r.formatReward,
    tool_reward: r.toolReward,
  };
}

export const rewardCommand: Command = {
  name: "reward",
  summary: "score completions with the training reward (SPEC §2)",
  help: `Usage: paravt reward < input.jsonl > output.jsonl

Scores each completion with the ParaVT training reward (SPEC.md §2):
R = R_acc + format_weight * R_fmt + R_tool, with the degenerate guard.

Input: JSON Lines on stdin, one object per line:
  {"completion": string, "answer": string, "question_type": "mcq" | "tvg" | "oe",
   "prompt"?: string,
   "config"?: {"answerSuffix"?: boolean, "anchorWeight"?: number,
               "formatWeight"?: number, "rewardMode"?: "f1" | "exact"}}
  Without "config" (or for each missing field) the PARA-GRPO defaults apply:
  answerSuffix true, anchorWeight 0.5, formatWeight 1.0, rewardMode "f1".
  Unknown keys are rejected.

Output: one JSON line per input line, in input order:
  {"reward": number, "acc_reward": number, "format_reward": number, "tool_reward": number}
  or {"error": "<reason>"} for a line that is not valid JSON or not a valid input.
  Blank lines are skipped. Exit code 0 unless stdin cannot be read.

Example:
  echo '{"completion": "<think>I checked the clip.</think><answer>B</answer>", "answer": "B", "question_type": "mcq"}' | paravt reward
  {"reward":2,"acc_reward":1,"format_reward":1,"tool_reward":0}
`,
  run: (_args, io) => mapJsonLines(io, rewardLine),
};
