/**
 * Python 3 string semantics the reference implementation relies on (SPEC.md §2 and §4 are
 * defined by Python code: `str.strip()`, `str.split()`, `str.splitlines()`, `len()`, `float()`,
 * and the `re` classes `\s`, `\w`, `\d` for str patterns).
 *
 * Character classes were checked code point by code point against CPython 3.11 (Unicode 14):
 * - `\s` / `str.isspace()`: exactly the 29 code points of PY_WHITESPACE_CLASS. JavaScript's `\s`
 *   differs (it adds U+FEFF and lacks U+001C–U+001F and U+0085), so never use JS `\s` here.
 * - `\w` / `str.isalnum() or "_"`: identical to `[\p{L}\p{N}_]` for every code point assigned in
 *   Unicode 14. Combining marks (\p{M}) are NOT word characters in Python, so they are not in
 *   the class. Characters assigned after Unicode 14 may differ (the JS engine knows newer
 *   Unicode than the reference's Python); this is the only known deviation.
 * - `\d`: `\p{Nd}` (same caveat for digits assigned after Unicode 14).
 */

/** SPEC §2/§4 regexes: body of a regex character class equal to Python's `\s` (use inside `[...]`, `u` flag). */
export const PY_WS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** SPEC §2/§4 regexes: body of a regex character class equal to Python's `\w` (use inside `[...]`, `u` flag). */
export const PY_W = "\\p{L}\\p{N}_";
/** SPEC §2/§4 regexes: body of a regex character class equal to Python's `\d` (use inside `[...]`, `u` flag). */
export const PY_D = "\\p{Nd}";

/** SPEC §2/§4 (Python semantics): true for the code units Python's `str.isspace()` accepts (all of them are in the BMP). */
export function isPySpace(c: number): boolean {
  if (c <= 0x20) return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** SPEC §2/§4 "trimmed": Python `s.strip()` with no argument. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPySpace(s.charCodeAt(start))) start++;
  while (end > start && isPySpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** SPEC §2 token split: Python `s.split()` with no argument: split on whitespace runs, no empty strings. */
export function pySplitWhitespace(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && isPySpace(s.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isPySpace(s.charCodeAt(i))) i++;
    out.push(s.slice(start, i));
  }
  return out;
}

function isLineBreak(c: number): boolean {
  return (
    c === 0x0a ||
    c === 0x0b ||
    c === 0x0c ||
    c === 0x0d ||
    c === 0x1c ||
    c === 0x1d ||
    c === 0x1e ||
    c === 0x85 ||
    c === 0x2028 ||
    c === 0x2029
  );
}

/**
 * SPEC §2 / §4 "line": Python `s.splitlines()` (keepends=False): breaks on \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e,
 * \x85, U+2028, U+2029; no trailing empty line for a final terminator.
 */
export function pySplitlines(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isLineBreak(c)) {
      out.push(s.slice(start, i));
      i += c === 0x0d && i + 1 < n && s.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      start = i;
    } else {
      i++;
    }
  }
  if (start < n) out.push(s.slice(start));
  return out;
}

/**
 * SPEC §2 lengths ("300 characters", "10 characters"): Python `len(s)`, the number of code points (a lone surrogate counts as one, as it does for a
 * Python str decoded from JSON). Same result as `[...s].length`, without the array.
 */
export function codePointLength(s: string): number {
  let n = 0;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** SPEC §4 MCQ fallback "the first character": Python `s[:1]`, the first code point, or "". */
export function firstCodePoint(s: string): string {
  const cp = s.codePointAt(0);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/** SPEC §2 (guard, balance): count of non-overlapping occurrences, like Python `s.count(sub)` for a non-empty `sub`. */
export function countOccurrences(s: string, sub: string): number {
  let n = 0;
  let i = s.indexOf(sub);
  while (i !== -1) {
    n++;
    i = s.indexOf(sub, i + sub.length);
  }
  return n;
}

/** SPEC §2 IoU arithmetic: Python `min(a, b)` on floats: returns `a` unless `b < a` (NaN-safe the way Python is). */
export function pyMin(a: number, b: number): number {
  return b < a ? b : a;
}

/** SPEC §2 IoU arithmetic: Python `max(a, b)` on floats: returns `a` unless `b > a` (so `max(0.0, nan)` is 0.0). */
export function pyMax(a: number, b: number): number {
  return b > a ? b : a;
}

const ND_RE = /^\p{Nd}$/u;
const digitZeroCache = new Map<number, number>();

/**
 * SPEC §2/§4 (`\d` captures): decimal value of a Unicode decimal digit (category Nd), or -1. Unicode assigns Nd only in
 * contiguous runs of ten, 0 to 9, so the value is the distance from the run start modulo 10.
 */
export function unicodeDigitValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp < 0x80 || !ND_RE.test(String.fromCodePoint(cp))) return -1;
  let start = digitZeroCache.get(cp);
  if (start === undefined) {
    start = cp;
    while (start > 0 && ND_RE.test(String.fromCodePoint(start - 1))) start--;
    digitZeroCache.set(cp, start);
  }
  return (cp - start) % 10;
}

/**
 * SPEC §4 time range: Python `int(s)` for a string that is known to consist of Unicode decimal digits only (as
 * captured by `\d+`). Returns a JS number (exact up to 2**53).
 */
export function pyIntOfDigits(s: string): number {
  return Number(toAsciiDigits(s));
}

function toAsciiDigits(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const v = unicodeDigitValue(cp);
    out += v >= 0 ? String.fromCharCode(0x30 + v) : ch;
  }
  return out;
}

const FLOAT_BODY_RE = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const FLOAT_SPECIAL_RE = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * SPEC §2/§4 number reading: Python `float(s)` for a str argument: strips Python whitespace, accepts Unicode decimal digits,
 * underscores between digits, `inf`/`infinity`/`nan` in any case with a sign. Returns null
 * where Python raises ValueError. Rounding is the same (both are correctly rounded).
 */
export function pyFloat(s: string): number | null {
  const stripped = pyStrip(s);
  if (stripped === "") return null;
  let ascii = "";
  for (const ch of stripped) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) {
      ascii += ch;
      continue;
    }
    const v = unicodeDigitValue(cp);
    if (v < 0) return null;
    ascii += String.fromCharCode(0x30 + v);
  }
  const special = FLOAT_SPECIAL_RE.exec(ascii);
  if (special) {
    if ((special[2] ?? "").toLowerCase() === "nan") return NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  if (!FLOAT_BODY_RE.test(ascii)) return null;
  return Number(ascii.replace(/_/g, ""));
}

/**
 * SPEC §4 training parser: Python `repr(x)` of a float (used where the reference turns a float into text, e.g. a float
 * dict key under `json.dumps`): shortest round-trip digits, fixed notation for decimal
 * exponents in [-4, 16), otherwise `1e+16` style with at least two exponent digits.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant = "", expText = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const exp = Number(expText);
  const decpt = exp + 1;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp);
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
}
