// Multiple-choice plumbing shared by the loaders: validating option lists, reading the letters some
// benchmarks bake into their options or questions, checking answer letters, and writing the option
// lines in each benchmark's own convention ("A. x" VideoMME / LongVideoBench, "(A) x" LVBench /
// MLVU, "A: x" MMVU), so the question text matches what that benchmark's evaluator shows.

import { MAX_OPTIONS, MIN_OPTIONS, OPTION_LETTERS, type SkipReason } from "./schemas";

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: SkipReason; detail: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const bad = (reason: SkipReason, detail: string): Checked<never> => ({ ok: false, reason, detail });

export type OptionStyle = "dot" | "paren" | "colon";

export function optionLetter(index: number): string {
  return OPTION_LETTERS[index]!;
}

export function formatOptionLine(index: number, text: string, style: OptionStyle): string {
  const l = optionLetter(index);
  return style === "dot" ? `${l}. ${text}` : style === "paren" ? `(${l}) ${text}` : `${l}: ${text}`;
}

/** The question followed by one lettered line per option. */
export function questionWithOptions(question: string, options: readonly string[], style: OptionStyle): string {
  return [question.trim(), ...options.map((o, i) => formatOptionLine(i, o, style))].join("\n");
}

/** An option list must be 2–10 non-empty strings (SPEC §4 letters A–J); inner line breaks become spaces. */
export function checkOptionTexts(raw: unknown): Checked<string[]> {
  if (!Array.isArray(raw)) return bad("malformed_options", "options are not a list");
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    if (typeof v !== "string" && typeof v !== "number") {
      return bad("malformed_options", `option ${i + 1} is not text`);
    }
    const text = String(v)
      .replace(/\s*\r?\n\s*/g, " ")
      .trim();
    if (text === "") return bad("malformed_options", `option ${i + 1} is empty`);
    out.push(text);
  }
  if (out.length < MIN_OPTIONS || out.length > MAX_OPTIONS) {
    return bad("malformed_options", `${out.length} option(s); expected ${MIN_OPTIONS}–${MAX_OPTIONS}`);
  }
  return ok(out);
}

const LETTER_PREFIX_RE = /^([A-J])\s*[.)．:]\s*([\s\S]*)$/;

/**
 * VideoMME ships options as "A. Apples." Strips the letters when every option has the letter of its
 * position; a list with no letters is returned as is; a mixed or out-of-order list is malformed.
 */
export function stripLetterPrefixes(options: readonly string[]): Checked<string[]> {
  const matches = options.map((o) => LETTER_PREFIX_RE.exec(o));
  if (matches.every((m) => m === null)) return ok([...options]);
  const out: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const m = matches[i];
    if (!m || m[1] !== optionLetter(i)) {
      return bad("malformed_options", `option ${i + 1} ("${options[i]}") does not start with "${optionLetter(i)}."`);
    }
    const text = m[2]!.trim();
    if (text === "") return bad("malformed_options", `option ${optionLetter(i)} is empty`);
    out.push(text);
  }
  return ok(out);
}

const INLINE_OPTION_RE = /^\s*\(([A-J])\)\s*(.*)$/;

/**
 * LVBench writes the options into the question: "What …?\n(A) …\n(B) …". Splits the stem from the
 * options; the letters must run A, B, C… and lines that do not start with "(X)" continue the
 * previous option.
 */
export function parseInlineOptions(text: string): Checked<{ stem: string; options: string[] }> {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((l) => INLINE_OPTION_RE.test(l));
  if (first < 0) return bad("malformed_options", 'no "(A) …" option lines in the question');
  const stem = lines.slice(0, first).join("\n").trim();
  if (stem === "") return bad("missing_field", "the question has options but no question text");
  const options: string[] = [];
  for (const l of lines.slice(first)) {
    const m = INLINE_OPTION_RE.exec(l);
    if (m) {
      if (m[1] !== optionLetter(options.length)) {
        return bad("malformed_options", `option "(${m[1]})" where "(${optionLetter(options.length)})" was expected`);
      }
      options.push(m[2]!.trim());
    } else if (l.trim() !== "") {
      options[options.length - 1] = `${options[options.length - 1]} ${l.trim()}`.trim();
    }
  }
  const checked = checkOptionTexts(options);
  return checked.ok ? ok({ stem, options: checked.value }) : checked;
}

/** An answer letter for `count` options: "C", "c", "(C)" or "C." (SPEC §2 option match upper-cases it). */
export function checkAnswerLetter(raw: unknown, count: number): Checked<string> {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
    return bad("missing_field", "no answer");
  }
  const m = typeof raw === "string" ? /^\(?([A-Ja-j])\)?\.?$/.exec(raw.trim()) : null;
  if (!m) return bad("unknown_answer", `answer ${JSON.stringify(raw)} is not an option letter`);
  const l = m[1]!.toUpperCase();
  if (OPTION_LETTERS.indexOf(l) >= count) {
    return bad("unknown_answer", `answer "${l}" but only ${count} options (A–${optionLetter(count - 1)})`);
  }
  return ok(l);
}

/** An answer given as a 0-based option index (LongVideoBench `correct_choice`). */
export function checkAnswerIndex(raw: unknown, count: number): Checked<string> {
  if (raw === null || raw === undefined || raw === "") return bad("missing_field", "no answer index");
  const n = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== "number" || !Number.isInteger(n))
    return bad("unknown_answer", `answer index ${JSON.stringify(raw)}`);
  if (n < 0 || n >= count) return bad("unknown_answer", `answer index ${n} but only ${count} options`);
  return ok(optionLetter(n));
}

/** An answer given as the text of the correct option (MLVU). Exact match first, then trimmed and case-folded. */
export function checkAnswerText(raw: unknown, options: readonly string[]): Checked<string> {
  if (typeof raw !== "string" && typeof raw !== "number") return bad("missing_field", "no answer");
  const text = String(raw)
    .replace(/\s*\r?\n\s*/g, " ")
    .trim();
  if (text === "") return bad("missing_field", "no answer");
  let hits = options.flatMap((o, i) => (o === text ? [i] : []));
  if (hits.length === 0) hits = options.flatMap((o, i) => (o.toLowerCase() === text.toLowerCase() ? [i] : []));
  if (hits.length === 0) return bad("unknown_answer", `answer "${text}" is none of the options`);
  if (hits.length > 1) return bad("unknown_answer", `answer "${text}" matches ${hits.length} options`);
  return ok(optionLetter(hits[0]!));
}
