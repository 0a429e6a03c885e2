// Temporal grounding spans: reading the times benchmarks write (numbers or decimal strings, pairs
// written "s-e" or "[s, e]"), checking them against the video, and writing the sample answer as
// `start-end` seconds, a form the SPEC §4 evaluation extraction reads back as "s - e in seconds".

import type { Checked } from "./options";

/** A time in seconds: a finite number, or a plain decimal string ("24.3"). */
export function parseSeconds(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw === "string" && /^\s*[-+]?\d+(?:\.\d+)?\s*$/.test(raw)) return Number(raw);
  return null;
}

/** Millisecond precision, plain decimal notation (never "1e-7"). */
export function formatSeconds(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export function spanAnswer(span: readonly [number, number]): string {
  return `${formatSeconds(span[0])}-${formatSeconds(span[1])}`;
}

/**
 * A usable span: both times numbers, start >= 0, end > start (also after rounding to the answer's
 * millisecond precision) and, when the video's duration is known, starting before its end. An end
 * past the duration is kept as published (reference evaluators score Charades-STA unchanged).
 */
export function checkSpan(start: unknown, end: unknown, durationS?: number): Checked<[number, number]> {
  const s = parseSeconds(start);
  const e = parseSeconds(end);
  const shown = `${JSON.stringify(start)}–${JSON.stringify(end)}`;
  if (s === null || e === null)
    return { ok: false, reason: "bad_timestamps", detail: `times ${shown} are not numbers` };
  if (s < 0) return { ok: false, reason: "bad_timestamps", detail: `negative start ${s}` };
  if (!(Number(formatSeconds(e)) > Number(formatSeconds(s)))) {
    return { ok: false, reason: "bad_timestamps", detail: `end ${e} is not after start ${s}` };
  }
  if (durationS !== undefined && s >= durationS) {
    return { ok: false, reason: "bad_timestamps", detail: `start ${s} is not before the video's end (${durationS} s)` };
  }
  return { ok: true, value: [s, e] };
}

const SPAN_TEXT_RE = /^\s*[[(]?\s*(\d+(?:\.\d+)?)\s*(?:-|–|—|,|to)\s*(\d+(?:\.\d+)?)\s*[\])]?\s*$/;

/** "24.3-30.4", "24.3 - 30.4", "[24.3, 30.4]", "(24.3,30.4)", "24.3 to 30.4" -> [start, end]. */
export function parseSpanText(text: string): [number, number] | null {
  const m = SPAN_TEXT_RE.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** A span given as text (see parseSpanText) or as a two-number array. */
export function parseSpanValue(raw: unknown): [unknown, unknown] | null {
  if (Array.isArray(raw)) return raw.length === 2 ? [raw[0], raw[1]] : null;
  if (typeof raw === "string") return parseSpanText(raw);
  return null;
}
