import { isJsonObject, parsePyJson } from "./py-json";
import { pySplitlines, pyStrip } from "./py-text";

/**
 * SPEC §4 helper. End of a block body for Python `<tag>(.*?)(?:</tag>|$)` (DOTALL) whose body starts at `from`:
 * the first closing tag, else Python's `$`, which matches at the end of the string OR just
 * before a final "\n". Returns [bodyEnd, matchEnd].
 */
export function lazyBlockEnd(s: string, from: number, close: string): [number, number] {
  const j = s.indexOf(close, from);
  if (j !== -1) return [j, j + close.length];
  const end = s.length > from && s.charCodeAt(s.length - 1) === 0x0a ? s.length - 1 : s.length;
  return [end, end];
}

/** SPEC §4 helper: bodies of `<open>(.*?)(?:</close>|$)` matches, as Python `re.findall` returns them. */
export function findLazyBlocks(s: string, open: string, close: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const i = s.indexOf(open, pos);
    if (i === -1) return out;
    const from = i + open.length;
    const [bodyEnd, matchEnd] = lazyBlockEnd(s, from, close);
    out.push(s.slice(from, bodyEnd));
    pos = matchEnd;
  }
}

/**
 * SPEC §4 "Parseable tool call", `<tool_call>` half: the trimmed body is non-empty, does not
 * start with `<|im_end|>`, and is a JSON object (Python json.loads) with a `name` key.
 */
export function isParseableToolCallBody(body: string): boolean {
  const b = pyStrip(body);
  if (b === "" || b.startsWith("<|im_end|>")) return false;
  // Deviation: where CPython's json.loads hits its recursion limit the reference's
  // RecursionError escapes the reward function; here it simply is not a parseable call.
  const r = parsePyJson(b);
  return r.ok && isJsonObject(r.value) && Object.prototype.hasOwnProperty.call(r.value, "name");
}

/**
 * SPEC §4 "Parseable tool call", `<tool_code>` half: the trimmed body is non-empty, does not
 * start with `<|im_end|>`, and has a line (Python splitlines, trimmed) containing `(` that is
 * not a `#` comment.
 */
export function isParseableToolCodeBody(body: string): boolean {
  const b = pyStrip(body);
  if (b === "" || b.startsWith("<|im_end|>")) return false;
  for (const raw of pySplitlines(b)) {
    const line = pyStrip(raw);
    if (line !== "" && line.includes("(") && !line.startsWith("#")) return true;
  }
  return false;
}

/**
 * SPEC §4 "Parseable tool call" (used by R_fmt and R_tool): some `<tool_call>` body (to
 * `</tool_call>` or end) is a JSON object with `name`, or some `<tool_code>` body (to
 * `</tool_code>` or end) has a call-like line. All `<tool_call>` bodies are tried first.
 */
export function hasParseableToolCall(completion: string): boolean {
  if (completion.includes("<tool_call>")) {
    for (const body of findLazyBlocks(completion, "<tool_call>", "</tool_call>")) {
      if (isParseableToolCallBody(body)) return true;
    }
  }
  if (completion.includes("<tool_code>")) {
    for (const body of findLazyBlocks(completion, "<tool_code>", "</tool_code>")) {
      if (isParseableToolCodeBody(body)) return true;
    }
  }
  return false;
}
