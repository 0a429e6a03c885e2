import { firstAnswerBody } from "./answer";
import { PY_D, PY_W, PY_WS, firstCodePoint, pyFloat, pyIntOfDigits, pyStrip } from "./py-text";

// Python `\b([A-J])\b` (Unicode word boundaries).
const LETTER_RE = new RegExp(`(?<![${PY_W}])([A-J])(?![${PY_W}])`, "u");
const ANSWER_IS_RE = new RegExp(`(?:answer|Answer)[${PY_WS}]*(?:is|:)[${PY_WS}]*([A-J])`, "u");
const SINGLE_LETTER_RE = /^[A-J]$/;

/**
 * SPEC §4 MCQ letter A–J: on the trimmed text, from the first `<answer>` block (a single letter,
 * else the first standalone A–J inside); else a one-letter reply; else `answer is X` /
 * `Answer: X`; else the first standalone A–J; else the first character; "" for blank text.
 */
export function extractLetter(text: string): string {
  const t = pyStrip(text);
  const body = firstAnswerBody(t);
  if (body !== null) {
    const inner = pyStrip(body);
    if (SINGLE_LETTER_RE.test(inner)) return inner;
    const m = LETTER_RE.exec(inner);
    if (m) return m[1] ?? "";
  }
  if (SINGLE_LETTER_RE.test(t)) return t;
  const a = ANSWER_IS_RE.exec(t);
  if (a) return a[1] ?? "";
  const l = LETTER_RE.exec(t);
  if (l) return l[1] ?? "";
  return firstCodePoint(t);
}

const DASH = "\\-\\u2013\\u2014";
const D = `[${PY_D}]`;
const S = `[${PY_WS}]`;
const TIME_TAG_RE = /<time>([^<]+)<\/time>/;
const MMSS_RANGE_RE = new RegExp(`(${D}+):(${D}+(?:\\.${D}+)?)${S}*[${DASH}]${S}*(${D}+):(${D}+(?:\\.${D}+)?)`, "u");
const SECONDS_RANGE_RE = new RegExp(`(${D}+\\.?${D}*)${S}*[${DASH}]${S}*(${D}+\\.?${D}*)`, "u");

// Python matches these words with re.IGNORECASE, under which 'i' also matches U+0130/U+0131
// and 's' also matches U+017F (verified on CPython 3.11); JS's `iu` does not, so the classes
// are spelled out instead of using the `i` flag.
function caseless(word: string): string {
  let out = "";
  for (const ch of word) {
    if (ch === "i") out += "[iI\\u0130\\u0131]";
    else if (ch === "s") out += "[sS\\u017f]";
    else out += `[${ch}${ch.toUpperCase()}]`;
  }
  return out;
}
const START_RE = new RegExp(
  `(?:${caseless("start")}(?:${caseless("ing")})?|${caseless("begin")}(?:${caseless("ning")})?)` +
    `${S}*(?:${caseless("time")})?[:${PY_WS}]*(${D}+\\.?${D}*)`,
  "u",
);
const END_RE = new RegExp(
  `(?:${caseless("end")}(?:${caseless("ing")})?|${caseless("finish")}(?:${caseless("ing")})?)` +
    `${S}*(?:${caseless("time")})?[:${PY_WS}]*(${D}+\\.?${D}*)`,
  "u",
);
const NUMBER_RE = new RegExp(`(${D}+\\.?${D}*)`, "gu");

/** Python float() of a `\d+\.?\d*`-shaped capture (always valid). */
function num(s: string | undefined): number {
  return pyFloat(s ?? "") ?? NaN;
}

/**
 * SPEC §4 time range of a grounding answer, in seconds. Inside `<time>…</time>` if present,
 * then the whole text: `MM:SS(.f) - MM:SS(.f)` (dash, en dash or em dash; the reference also
 * requires end > start and end < 3600 here), then `s - e` in seconds (needs e > s); then, on
 * the whole text, the first `start … N` with the first `end … M`; then the first two numbers.
 */
export function extractTimeRange(text: string): [number, number] | null {
  if (text === "" || pyStrip(text) === "") return null;
  const tag = TIME_TAG_RE.exec(text);
  const targets = tag ? [tag[1] ?? "", text] : [text];
  for (const t of targets) {
    const mm = MMSS_RANGE_RE.exec(t);
    if (mm) {
      const start = pyIntOfDigits(mm[1] ?? "") * 60 + num(mm[2]);
      const end = pyIntOfDigits(mm[3] ?? "") * 60 + num(mm[4]);
      if (end > start && end < 3600) return [start, end];
    }
    const sec = SECONDS_RANGE_RE.exec(t);
    if (sec) {
      const start = num(sec[1]);
      const end = num(sec[2]);
      if (end > start) return [start, end];
    }
  }
  const s = START_RE.exec(text);
  const e = END_RE.exec(text);
  if (s && e) return [num(s[1]), num(e[1])];
  NUMBER_RE.lastIndex = 0;
  const first = NUMBER_RE.exec(text);
  const second = first ? NUMBER_RE.exec(text) : null;
  NUMBER_RE.lastIndex = 0;
  if (first && second) return [num(first[1]), num(second[1])];
  return null;
}
