import { pySplitlines, pyStrip } from "./py-text";

/**
 * SPEC §2 answer extraction helper. Removes every complete `open…close` block, leftmost first and non-overlapping: the string
 * equivalent of Python `re.sub(open + ".*?" + close, "", s, flags=re.DOTALL)`.
 */
export function removeBlocks(s: string, open: string, close: string): string {
  let out = "";
  let pos = 0;
  for (;;) {
    const i = s.indexOf(open, pos);
    if (i === -1) break;
    const j = s.indexOf(close, i + open.length);
    // No closing tag after this opening one means none after any later opening one either.
    if (j === -1) break;
    out += s.slice(pos, i);
    pos = j + close.length;
  }
  return pos === 0 ? s : out + s.slice(pos);
}

/**
 * SPEC §2 / §4 helper: first `<answer>…</answer>` body (Python `re.search(r"<answer>(.*?)</answer>", s, re.DOTALL)`),
 * untrimmed, or null.
 */
export function firstAnswerBody(s: string): string | null {
  const i = s.indexOf("<answer>");
  if (i === -1) return null;
  const j = s.indexOf("</answer>", i + 8);
  return j === -1 ? null : s.slice(i + 8, j);
}

/**
 * SPEC §2 "Answer extraction" (`extract_answer`): the first `<answer>X</answer>` (X trimmed);
 * else, if `</think>` occurs, the text after the first `</think>` with complete tool_call,
 * tool_code and tool_response blocks removed (in that order) and `<|im_end|>` / `<|im_start|>`
 * deleted, trimmed, if non-empty; else the last non-empty trimmed line (Python `splitlines`)
 * that does not start with `<|im_` or `<tool_`; else "".
 */
export function extractAnswer(completion: string): string {
  const body = firstAnswerBody(completion);
  if (body !== null) return pyStrip(body);

  const thinkEnd = completion.indexOf("</think>");
  if (thinkEnd !== -1) {
    let tail = completion.slice(thinkEnd + 8);
    tail = removeBlocks(tail, "<tool_call>", "</tool_call>");
    tail = removeBlocks(tail, "<tool_code>", "</tool_code>");
    tail = removeBlocks(tail, "<tool_response>", "</tool_response>");
    tail = pyStrip(tail.split("<|im_end|>").join("").split("<|im_start|>").join(""));
    if (tail !== "") return tail;
  }

  let last = "";
  for (const line of pySplitlines(completion)) {
    const t = pyStrip(line);
    if (t !== "" && !t.startsWith("<|im_") && !t.startsWith("<tool_")) last = t;
  }
  return last;
}
