import { firstAnswerBody } from "./answer";
import { hasParseableToolCall } from "./parseable-call";
import { codePointLength, countOccurrences, pyMin, pyStrip } from "./py-text";

/** The two knobs of SPEC §2 that shape R_fmt. */
export interface FormatRewardConfig {
  /** `answer_suffix`: answer tags carry more weight than `<think>`. */
  readonly answerSuffix: boolean;
  /** `anchor_weight`: scales the anchoring bonus; only applied when > 0. */
  readonly anchorWeight: number;
}

/** Minimum trimmed length (code points) of a `<think>` body to count (SPEC §2). */
export const MIN_THINK_CHARS = 10;

/**
 * Body of the `<think>` block SPEC §2 looks at, or null without `<think>`: the first closed
 * `<think>…</think>` block; else the open block from the first `<think>` to the next `<tool_`,
 * `<answer>`, `<|im_end|>` or end (Python `$`: the end, or just before a final "\n").
 * Returns [bodyStart, bodyEnd] offsets.
 */
export function thinkBodyRange(s: string): [number, number] | null {
  const i = s.indexOf("<think>");
  if (i === -1) return null;
  const from = i + 7;
  const closed = s.indexOf("</think>", from);
  if (closed !== -1) return [from, closed];
  let end = s.length > from && s.charCodeAt(s.length - 1) === 0x0a ? s.length - 1 : s.length;
  for (const stop of ["<tool_", "<answer>", "<|im_end|>"]) {
    const k = s.indexOf(stop, from);
    if (k !== -1 && k < end) end = k;
  }
  return [from, end];
}

/**
 * SPEC §2 `think`: a `<think>` block with at least 10 code points of trimmed content (the closed
 * block if there is one, even when it is too short, else the open one).
 */
export function hasSubstantiveThink(completion: string, minChars = MIN_THINK_CHARS): boolean {
  const r = thinkBodyRange(completion);
  if (r === null) return false;
  return codePointLength(pyStrip(completion.slice(r[0], r[1]))) >= minChars;
}

/**
 * SPEC §2 `answer_body`: some complete `<answer>…</answer>` block (leftmost, non-overlapping) has a
 * non-blank body.
 */
export function hasNonemptyAnswer(completion: string): boolean {
  let pos = 0;
  for (;;) {
    const i = completion.indexOf("<answer>", pos);
    if (i === -1) return false;
    const j = completion.indexOf("</answer>", i + 8);
    if (j === -1) return false;
    if (pyStrip(completion.slice(i + 8, j)) !== "") return true;
    pos = j + 9;
  }
}

/**
 * SPEC §2 ordering term: the first `<think>` comes before the first `<tool_call>` / `<tool_code>`
 * (false when either is missing).
 */
export function thinkBeforeTool(completion: string): boolean {
  const think = completion.indexOf("<think>");
  if (think === -1) return false;
  const a = completion.indexOf("<tool_call>");
  const b = completion.indexOf("<tool_code>");
  if (a === -1 && b === -1) return false;
  const first = a === -1 ? b : b === -1 ? a : Math.min(a, b);
  return think < first;
}

const BALANCED_TAGS: readonly (readonly [string, string])[] = [
  ["<think>", "</think>"],
  ["<tool_call>", "</tool_call>"],
  ["<tool_code>", "</tool_code>"],
  ["<answer>", "</answer>"],
];

/** SPEC §2 balance term: equal opening/closing counts for think, tool_call, tool_code, answer. */
export function tagsBalanced(completion: string): boolean {
  return BALANCED_TAGS.every(
    ([open, close]) => countOccurrences(completion, open) === countOccurrences(completion, close),
  );
}

/**
 * SPEC §2 R_fmt (at most 1; see the note on negative values below). Terms are added in the reference's order so that the floating-point
 * sums are bit-identical: think / answer tags (weights by `answerSuffix`), anchoring
 * (`anchorWeight * bonus` when `anchorWeight > 0`), think-before-tool, balance (only when the
 * score so far is > 0), then clipped at 1.
 */
export function formatReward(completion: string, config: FormatRewardConfig): number {
  const think = hasSubstantiveThink(completion);
  const tool = hasParseableToolCall(completion);
  const answerBody = hasNonemptyAnswer(completion);
  const hasOpenAnswer = completion.includes("<answer>");
  const hasCloseAnswer = completion.includes("</answer>");
  let score = 0;

  if (config.answerSuffix) {
    if (think) score += 0.2;
    if (answerBody) {
      if (hasOpenAnswer) score += 0.3;
      if (hasCloseAnswer) score += 0.2;
    }
  } else {
    if (think) score += 0.3;
    if (answerBody) {
      if (hasOpenAnswer) score += 0.2;
      if (hasCloseAnswer) score += 0.1;
    }
  }

  if (config.anchorWeight > 0) {
    const hasOpenThink = completion.includes("<think>");
    const hasCloseThink = completion.includes("</think>");
    let bonus = 0;
    if (hasCloseThink && think) bonus += 0.4;
    if (hasCloseThink && think && answerBody && hasCloseAnswer) bonus += 0.3;
    if (hasOpenThink && !hasCloseThink) bonus -= 0.3;
    score += config.anchorWeight * bonus;
  }

  if (think && tool && thinkBeforeTool(completion)) score += 0.3;

  if (score > 0 && tagsBalanced(completion)) score += 0.1;

  // AMBIGUITY: SPEC §2 calls R_fmt "in [0, 1] (clipped at 1)", but its own anchoring rule
  // (-0.3 for an unclosed <think>) can make the score negative, and the reference clips only at
  // 1 (`min(score, 1.0)`). We follow the rules and clip only at 1, so with anchoring on R_fmt
  // can reach -0.3 * anchorWeight (e.g. -0.15 for "<think>short" under PARA-GRPO).
  return pyMin(score, 1);
}

/** Re-exported for callers that want the §2 answer block without extraction rules. */
export { firstAnswerBody };
