// Scoring one episode against its ground truth.
// - mcq (SPEC §5: accuracy): the letter of SPEC §4 "Evaluation answer extraction" (extractLetter)
//   compared with the answer letter; score 1 or 0.
// - tvg (SPEC §5: Charades-STA mIoU and R@0.3/0.5/0.7): the range of SPEC §4 (extractTimeRange),
//   IoU = intersection / hull span (hullIou, SPEC §5); score = IoU, `correct` = IoU >= 0.5 (R@0.5).
// - oe: as @paravt/protocol defines it for any question type other than mcq/tvg (SPEC §2 R_acc):
//   the answer of `extractAnswer`, then accReward in the reward mode (default f1, the PARA-GRPO
//   mode; `llm` takes the judge's score, F1 when the judge failed). `correct` = score 1.
// An episode with status "error" is never scored as a wrong answer (SPEC §5 "dropped connections
// are silently scored as wrong answers" is a weakness we must not inherit): it has no score.

import {
  accReward,
  DEFAULT_REWARD_CONFIG,
  extractAnswer,
  extractLetter,
  extractTimeRange,
  hullIou,
  parseTrainingRange,
  type RewardMode,
} from "@paravt/protocol";
import type { EvalQuestionType } from "./prompts";
import type { Trajectory } from "./trajectory";

/** The answer the final text gives for a question type (what `Trajectory.prediction` holds). */
export function predictionOf(finalText: string, questionType: EvalQuestionType): string {
  if (questionType === "mcq") return extractLetter(finalText);
  if (questionType === "tvg") {
    const r = extractTimeRange(finalText);
    return r ? `${r[0]} - ${r[1]}` : "";
  }
  return extractAnswer(finalText);
}

/**
 * A ground-truth time range: `[s, e]` numbers, or a string — first the `s , e` pair with optional
 * brackets (the suite's and RL rows' "[40, 45]"), then SPEC §4's range reading.
 */
export function groundTruthRange(answer: string | readonly [number, number]): [number, number] | null {
  if (typeof answer !== "string") return [answer[0], answer[1]];
  return parseTrainingRange(answer) ?? extractTimeRange(answer);
}

export interface ScoreOptions {
  questionType: EvalQuestionType;
  answer: string | readonly [number, number];
  /** oe only (SPEC §2 reward modes); default the protocol's default (f1). */
  rewardMode?: RewardMode;
  /** oe with `llm`: the judge's clamped score, null when it failed. */
  judgeScore?: number | null;
  /**
   * The reference evaluator's scoring of a row it treats as multiple choice although it is not
   * (MMVU's open-ended rows: utils.py marks every MMVU row `is_mcq`, driver.py `_score` compares
   * `extract_letter(response) == answer`): right only when the extracted letter IS the answer.
   * Used by reference-style runs on samples that carry this mark.
   */
  referenceScoring?: "extract_letter";
}

export interface EpisodeScore {
  status: "ok" | "error";
  prediction: string;
  /** null when the episode failed (not scored). */
  correct: boolean | null;
  score: number | null;
  /** tvg only: IoU (also `score`); null elsewhere. */
  iou: number | null;
}

export function scoreEpisode(trajectory: Pick<Trajectory, "status" | "finalText">, opts: ScoreOptions): EpisodeScore {
  if (trajectory.status !== "ok") return { status: "error", prediction: "", correct: null, score: null, iou: null };
  const text = trajectory.finalText;
  const prediction = predictionOf(text, opts.questionType);
  switch (opts.questionType) {
    case "mcq": {
      if (typeof opts.answer !== "string") throw new TypeError("an mcq answer must be a letter");
      const correct = prediction !== "" && prediction === opts.answer.trim().toUpperCase();
      return { status: "ok", prediction, correct, score: correct ? 1 : 0, iou: null };
    }
    case "tvg": {
      const gt = groundTruthRange(opts.answer);
      if (gt === null) throw new TypeError(`unreadable ground-truth time range ${JSON.stringify(opts.answer)}`);
      const pred = extractTimeRange(text);
      const iou = pred === null ? 0 : hullIou(pred, gt);
      return { status: "ok", prediction, correct: iou >= 0.5, score: iou, iou };
    }
    case "oe": {
      if (opts.referenceScoring === "extract_letter") {
        const letter = extractLetter(text);
        const correct = typeof opts.answer === "string" && letter === opts.answer.trim();
        return { status: "ok", prediction: letter, correct, score: correct ? 1 : 0, iou: null };
      }
      const answer = typeof opts.answer === "string" ? opts.answer : `${opts.answer[0]} - ${opts.answer[1]}`;
      const mode = opts.rewardMode ?? DEFAULT_REWARD_CONFIG.rewardMode;
      const score = accReward(prediction, answer, "oe", mode, opts.judgeScore);
      return { status: "ok", prediction, correct: score === 1, score, iou: null };
    }
  }
}
