// Text that Postgres can store (issue 37 items 1 and 13). Model outputs and ingested rollouts are
// arbitrary strings, and two kinds of them cannot be written at all:
// - NUL (U+0000): TEXT refuses it ("invalid byte sequence for encoding UTF8: 0x00") and so does
//   JSONB ("unsupported Unicode escape sequence"), so one such completion failed its whole shard;
// - a lone UTF-16 surrogate: JSONB refuses its \udXXX escape, and the pg driver silently turns one
//   in a TEXT column into U+FFFD.
// Both are replaced by their JSON escape as literal text ("\u0000", "\ud800": six visible
// characters), which a reader recognises and could turn back. Texts are also capped: a 20 MB
// completion was stored twice and served as 40 MB by the episode API. A longer text keeps its head
// and its tail around a marker that says how much was cut. Every change is recorded by field
// (`StorageNotes`), so nothing is altered silently.

/** Default cap per stored text, in UTF-16 code units (JS string length): 256 Ki. */
export const STORED_TEXT_MAX_CHARS = 256 * 1024;

/** NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Most fields listed in the notes; the counts stay exact beyond it. */
const MAX_NOTED_FIELDS = 50;

export interface TruncatedField {
  field: string;
  /** Length of the text as produced (before escaping), in UTF-16 code units. */
  originalChars: number;
  keptChars: number;
}

/** What was changed to make a record storable, by field path (e.g. `turns[0].rawText`). */
export interface StorageNotes {
  /** Fields where NUL or lone surrogates were written as literal `\uXXXX` text. */
  escaped: string[];
  escapedCount: number;
  truncated: TruncatedField[];
  truncatedCount: number;
  maxChars: number;
}

/** Escapes NUL and lone surrogates as literal `\uXXXX` text; the number of characters escaped. */
export function escapeUnstorable(s: string): { text: string; escaped: number } {
  let escaped = 0;
  const text = s.replace(UNSTORABLE, (c) => {
    escaped++;
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return { text, escaped };
}

/** True when `s` has a character Postgres cannot store (the API refuses such names and comments). */
export function hasUnstorable(s: string): boolean {
  UNSTORABLE.lastIndex = 0;
  const found = UNSTORABLE.test(s);
  UNSTORABLE.lastIndex = 0;
  return found;
}

/**
 * Head and tail of `s` within `maxChars` (marker included). The cut never splits a surrogate pair,
 * so a capped text stays storable.
 */
export function capText(s: string, maxChars: number): string {
  if (s.length <= maxChars) return s;
  const marker = (omitted: number) => `\n…[${omitted} characters omitted of ${s.length}]…\n`;
  const room = Math.max(0, maxChars - marker(s.length).length);
  let head = Math.ceil(room / 2);
  let tailStart = s.length - (room - head);
  const hi = (i: number) => i >= 0 && i < s.length && s.charCodeAt(i) >= 0xd800 && s.charCodeAt(i) <= 0xdbff;
  const lo = (i: number) => i >= 0 && i < s.length && s.charCodeAt(i) >= 0xdc00 && s.charCodeAt(i) <= 0xdfff;
  if (head > 0 && hi(head - 1)) head--;
  if (lo(tailStart) && hi(tailStart - 1)) tailStart++;
  return `${s.slice(0, head)}${marker(tailStart - head)}${s.slice(tailStart)}`;
}

/**
 * Makes the strings of one record storable and remembers what it changed. One instance per record
 * (an episode with its turns and tool calls), whose `notes()` are then stored with it.
 */
export class StorableText {
  private escapedFields: string[] = [];
  private escapedCount = 0;
  private truncatedFields: TruncatedField[] = [];
  private truncatedCount = 0;

  constructor(readonly maxChars: number = STORED_TEXT_MAX_CHARS) {}

  text(field: string, s: string): string;
  text(field: string, s: string | null): string | null;
  text(field: string, s: string | null | undefined): string | null | undefined;
  text(field: string, s: string | null | undefined): string | null | undefined {
    if (typeof s !== "string") return s;
    const { text, escaped } = escapeUnstorable(s);
    if (escaped) {
      this.escapedCount++;
      if (this.escapedFields.length < MAX_NOTED_FIELDS) this.escapedFields.push(field);
    }
    if (text.length <= this.maxChars) return text;
    const kept = capText(text, this.maxChars);
    this.truncatedCount++;
    if (this.truncatedFields.length < MAX_NOTED_FIELDS) {
      this.truncatedFields.push({ field, originalChars: s.length, keptChars: kept.length });
    }
    return kept;
  }

  /**
   * A JSON value with every string (keys included: JSONB refuses a NUL key as well) made storable.
   * Keys are escaped but never capped. Values JSON cannot hold are dropped as JSON.stringify would.
   */
  json(field: string, v: unknown): unknown {
    if (v === undefined || v === null) return v;
    const plain: unknown = JSON.parse(JSON.stringify(v) ?? "null");
    return this.walk(field, plain);
  }

  private walk(field: string, v: unknown): unknown {
    if (typeof v === "string") return this.text(field, v);
    if (Array.isArray(v)) return v.map((x, i) => this.walk(`${field}[${i}]`, x));
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const key = escapeUnstorable(k);
        if (key.escaped) {
          this.escapedCount++;
          if (this.escapedFields.length < MAX_NOTED_FIELDS) this.escapedFields.push(`${field}{key}`);
        }
        out[key.text] = this.walk(`${field}.${key.text}`, x);
      }
      return out;
    }
    return v;
  }

  /** What was changed, or null when every string was stored as produced. */
  notes(): StorageNotes | null {
    if (!this.escapedCount && !this.truncatedCount) return null;
    return {
      escaped: this.escapedFields,
      escapedCount: this.escapedCount,
      truncated: this.truncatedFields,
      truncatedCount: this.truncatedCount,
      maxChars: this.maxChars,
    };
  }
}
