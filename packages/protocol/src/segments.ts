import { lazyBlockEnd, isParseableToolCallBody, isParseableToolCodeBody } from "./parseable-call";
import { thinkBodyRange } from "./format-reward";

/** Kinds of protocol text segments (SPEC §1 tags). */
export type SegmentKind = "think" | "tool_call" | "tool_code" | "tool_response" | "answer" | "plain";

/** One segment of protocol text; concatenating every segment's `text` gives the input back. */
export interface ProtocolSegment {
  readonly kind: SegmentKind;
  /** UTF-16 offsets into the input (`input.slice(start, end) === text`). */
  readonly start: number;
  readonly end: number;
  /** Raw text, tags included. */
  readonly text: string;
  /** Text between the tags (for `plain`, the text itself). */
  readonly body: string;
  /** False for an opening tag without its closing tag. Always true for `plain`. */
  readonly closed: boolean;
  /**
   * tool_call / tool_code: whether the body is a parseable call by SPEC §4's rule (the one
   * the rewards use). null for other kinds.
   */
  readonly parseable: boolean | null;
  /** A `plain` segment that is exactly a closing tag without an opening one (e.g. `</think>`
   * after a forced `<think>\n` prefix that lives in the prompt). */
  readonly strayClose: boolean;
}

const TAG_RE = /<(\/?)(think|tool_call|tool_code|tool_response|answer)>/g;
type BlockKind = Exclude<SegmentKind, "plain">;

/**
 * Splits protocol text into flat segments for display, using the same block rules as the
 * parsers: a block runs from its opening tag to the first matching closing tag; an unclosed
 * `<think>` runs to the next `<tool_`, `<answer>`, `<|im_end|>` or the end (SPEC §2); any other
 * unclosed block runs to the end (SPEC §4 "unterminated last block"). Tags inside a block are
 * part of that block. Never throws.
 */
export function segmentProtocolText(text: string): ProtocolSegment[] {
  const out: ProtocolSegment[] = [];
  const plain = (start: number, end: number, strayClose = false) => {
    if (end <= start) return;
    const t = text.slice(start, end);
    out.push({ kind: "plain", start, end, text: t, body: t, closed: true, parseable: null, strayClose });
  };
  let pos = 0;
  TAG_RE.lastIndex = 0;
  for (;;) {
    TAG_RE.lastIndex = pos;
    const m = TAG_RE.exec(text);
    if (!m) break;
    const tagStart = m.index;
    const tagEnd = tagStart + m[0].length;
    const kind = m[2] as BlockKind;
    plain(pos, tagStart);
    if (m[1] === "/") {
      plain(tagStart, tagEnd, true);
      pos = tagEnd;
      continue;
    }
    const close = `</${kind}>`;
    let bodyEnd: number;
    let end: number;
    let closed: boolean;
    const j = text.indexOf(close, tagEnd);
    if (j !== -1) {
      bodyEnd = j;
      end = j + close.length;
      closed = true;
    } else if (kind === "think") {
      const range = thinkBodyRange(text.slice(tagStart));
      bodyEnd = tagStart + (range ? range[1] : text.length - tagStart);
      end = bodyEnd;
      closed = false;
    } else {
      [bodyEnd, end] = lazyBlockEnd(text, tagEnd, close);
      closed = false;
    }
    const body = text.slice(tagEnd, bodyEnd);
    const parseable =
      kind === "tool_call"
        ? isParseableToolCallBody(body)
        : kind === "tool_code"
          ? isParseableToolCodeBody(body)
          : null;
    out.push({
      kind,
      start: tagStart,
      end,
      text: text.slice(tagStart, end),
      body,
      closed,
      parseable,
      strayClose: false,
    });
    pos = end;
  }
  plain(pos, text.length);
  return out;
}
