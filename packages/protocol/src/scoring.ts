import { normalizeText } from "./normalize";
import { PY_D, PY_W, PY_WS, codePointLength, pyFloat, pyMax, pyMin, pyStrip } from "./py-text";

/** Accuracy reward mode of SPEC §2 (`exact`, `f1`, `llm`). */
export type RewardMode = "f1" | "exact" | "llm";

/**
 * SPEC §2 token F1 (SQuAD-style): normalized, whitespace-split tokens; precision and recall use
 * the SET of common tokens (not the multiset), divided by the full token counts. 0 if either
 * side has no token or nothing is shared.
 */
export function tokenF1(prediction: string, groundTruth: string): number {
  const pred = normalizeText(prediction).split(" ");
  const gt = normalizeText(groundTruth).split(" ");
  // normalizeText joins with single spaces, so "" is the only way to get an empty token.
  if (pred[0] === "" || gt[0] === "") return 0;
  const gtSet = new Set(gt);
  let common = 0;
  for (const t of new Set(pred)) if (gtSet.has(t)) common++;
  if (common === 0) return 0;
  const precision = common / pred.length;
  const recall = common / gt.length;
  // Same operation order as the reference, for bit-identical floats.
  return (2 * precision * recall) / (precision + recall);
}

// SPEC §2 option-match patterns, in order. Python `\b` is Unicode-aware, JS `\b` is not, hence
// the look-arounds; `$` in pattern 1 can only mean end of string because the prediction is
// stripped first (Python's `$` would also match before a final newline).
const MCQ_PATTERNS: readonly RegExp[] = [
  /^\(?([A-D])\)?$/u,
  new RegExp(`[Tt]he answer is[${PY_WS}]*\\(?([A-D])\\)?`, "u"),
  new RegExp(`[Oo]ption[${PY_WS}]*\\(?([A-D])\\)?`, "u"),
  /^([A-D])[.):]/u,
  new RegExp(`(?<![${PY_W}])([A-D])(?![${PY_W}])`, "u"),
];

/**
 * SPEC §2 option match: the answer must be one letter A–D after trim and upper-casing; a
 * prediction equal to it (case-insensitive) scores 1; otherwise each pattern in turn (whole
 * string `(X)`/`X`, `the answer is X`, `option X`, leading `X.`/`X)`/`X:`, a standalone capital)
 * is searched and scores 1 if its FIRST match carries the answer letter. Otherwise 0.
 */
export function optionMatch(prediction: string, answer: string): number {
  const gt = pyStrip(answer).toUpperCase();
  if (codePointLength(gt) !== 1 || !"ABCD".includes(gt)) return 0;
  const pred = pyStrip(prediction);
  if (pred.toUpperCase() === gt) return 1;
  for (const re of MCQ_PATTERNS) {
    const m = re.exec(pred);
    if (m && (m[1] ?? "").toUpperCase() === gt) return 1;
  }
  return 0;
}

// Python `\[?\s*([\d.]+)\s*,\s*([\d.]+)\s*\]?`, first match.
const RANGE_RE = new RegExp(`\\[?[${PY_WS}]*([${PY_D}.]+)[${PY_WS}]*,[${PY_WS}]*([${PY_D}.]+)[${PY_WS}]*\\]?`, "u");

/**
 * The first `s , e` pair of decimals (optional brackets) of SPEC §2's temporal IoU, or null.
 * AMBIGUITY (SPEC §2 "0 if either fails"): `[\d.]+` also captures things like `20.0.` that
 * Python's float() rejects; the reference then raises ValueError out of the reward function.
 * We read "fails" literally and treat such a capture as a failed parse (IoU 0).
 */
export function parseTrainingRange(text: string): [number, number] | null {
  const m = RANGE_RE.exec(text);
  if (!m) return null;
  const s = pyFloat(m[1] ?? "");
  const e = pyFloat(m[2] ?? "");
  if (s === null || e === null) return null;
  return [s, e];
}

/**
 * SPEC §2 temporal IoU (training reward): first `s , e` pair in each string; 0 if either fails
 * or has `e <= s`; IoU = intersection / (len_a + len_b - intersection).
 */
export function temporalIou(prediction: string, groundTruth: string): number {
  const pred = parseTrainingRange(prediction);
  const gt = parseTrainingRange(groundTruth);
  if (pred === null || gt === null) return 0;
  const [ps, pe] = pred;
  const [gs, ge] = gt;
  if (pe <= ps || ge <= gs) return 0;
  const inter = pyMax(0, pyMin(pe, ge) - pyMax(ps, gs));
  const union = pe - ps + (ge - gs) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * SPEC §5 evaluation IoU for temporal grounding (Charades-STA mIoU, R@k):
 * intersection / hull span, where the hull runs from the earlier start to the later end.
 */
export function hullIou(a: readonly [number, number], b: readonly [number, number]): number {
  const inter = pyMax(0, pyMin(a[1], b[1]) - pyMax(a[0], b[0]));
  const union = pyMax(a[1], b[1]) - pyMin(a[0], b[0]);
  return union > 0 ? inter / union : 0;
}

/**
 * SPEC §2 R_acc: 0 if prediction or answer is empty; 1 on equal normalized text; else `mcq` ->
 * option match, `tvg` -> temporal IoU, any other question type -> by reward mode: `exact` -> 0,
 * `f1` -> token F1, `llm` -> the judge's score when one is given (`judgeScore`, already clamped
 * to [0, 1]; see reward.ts), token F1 when the judge failed or was not consulted.
 */
export function accReward(
  prediction: string,
  answer: string,
  questionType: string,
  mode: RewardMode,
  judgeScore?: number | null,
): number {
  if (prediction === "" || answer === "") return 0;
  if (normalizeText(prediction) === normalizeText(answer)) return 1;
  if (questionType === "mcq") return optionMatch(prediction, answer);
  if (questionType === "tvg") return temporalIou(prediction, answer);
  if (mode === "exact") return 0;
  if (mode === "llm" && judgeScore !== undefined && judgeScore !== null) return judgeScore;
  return tokenF1(prediction, answer);
}
