// An episode's outcome as every evaluation view prints it (the samples table, the sample grid, the
// episode page): an ERROR is an infrastructure failure and never a wrong answer; an answered
// episode shows its verdict; without one, its number in the glossary's word (IoU for grounding,
// score for open-ended; eval-quantities.ts). The outcome filter (`sampleWhere`) counts a row
// without a verdict as "wrong", like the summary's rates.
import { sampleNumberWord, type QUESTION_TYPES } from "@paravt/shared";

export type OutcomeKind = "error" | "correct" | "wrong" | "no verdict";

export interface Outcome {
  kind: OutcomeKind;
  tone: "danger" | "success" | "warning" | "neutral";
  text: string;
}

export function outcomeOf(
  e: { status: "OK" | "ERROR"; correct: boolean | null; score: number | null },
  questionType: (typeof QUESTION_TYPES)[number] | null | undefined,
  digits: number,
): Outcome {
  if (e.status === "ERROR") return { kind: "error", tone: "danger", text: "error" };
  if (e.correct === true) return { kind: "correct", tone: "success", text: "correct" };
  if (e.correct === false) return { kind: "wrong", tone: "warning", text: "wrong" };
  const word = sampleNumberWord(questionType);
  if (questionType === "mcq") return { kind: "no verdict", tone: "neutral", text: word };
  return { kind: "no verdict", tone: "neutral", text: `${word} ${e.score == null ? "—" : e.score.toFixed(digits)}` };
}
