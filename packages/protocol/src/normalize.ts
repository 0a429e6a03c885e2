import { PY_W, PY_WS, pySplitWhitespace, pyStrip } from "./py-text";

// Python `\b(a|an|the)\b` with Unicode word boundaries: JS `\b` is ASCII-only even with the
// `u` flag, so the boundary is spelled out with look-arounds on Python's `\w` class. The
// alternation order (a, an, the) is kept so backtracking behaves the same.
const ARTICLE_RE = new RegExp(`(?<![${PY_W}])(?:a|an|the)(?![${PY_W}])`, "gu");
// Python `[^\w\s]`.
const NOT_WORD_OR_SPACE_RE = new RegExp(`[^${PY_W}${PY_WS}]`, "gu");

/**
 * SPEC §2 "Normalization": strip, lower-case, articles `a|an|the` (whole words) replaced by a
 * space, every char that is neither a word char nor whitespace removed (Python 3 `re`
 * semantics, see py-text.ts), whitespace collapsed to single spaces.
 */
export function normalizeText(text: string): string {
  let t = pyStrip(text).toLowerCase();
  t = t.replace(ARTICLE_RE, " ");
  t = t.replace(NOT_WORD_OR_SPACE_RE, "");
  return pySplitWhitespace(t).join(" ");
}
