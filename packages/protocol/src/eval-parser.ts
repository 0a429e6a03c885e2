import { isJsonObject, parsePyJson, setJsonKey, type JsonObject, type JsonValue } from "./py-json";
import { PY_WS, pyFloat, pyStrip } from "./py-text";

const CROP_VIDEO_RE = new RegExp(`^crop_video[${PY_WS}]*\\(`, "u");
const ARG_SPLIT_RE = new RegExp(`,[${PY_WS}]*(?=[a-zA-Z_]+[${PY_WS}]*=)`, "u");

/** Python `s.strip(chars)`. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a] as string)) a++;
  while (b > a && chars.includes(s[b - 1] as string)) b--;
  return s.slice(a, b);
}

/** Trimmed bodies of complete `<open>\s*(.*?)\s*</close>` blocks (Python re.findall, DOTALL). */
function completeBlockBodies(s: string, open: string, close: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const i = s.indexOf(open, pos);
    if (i === -1) return out;
    const j = s.indexOf(close, i + open.length);
    if (j === -1) return out;
    out.push(pyStrip(s.slice(i + open.length, j)));
    pos = j + close.length;
  }
}

/** The `crop_video(k=v, …)` reading of one `<tool_code>` body, or null. */
function parseCropVideoCode(body: string): JsonObject | null {
  if (body === "" || body.startsWith("<|im_end|>")) return null;
  const m = CROP_VIDEO_RE.exec(body);
  if (!m) return null;
  const open = m[0].length;
  // Python `\((.*)\)` with DOTALL is greedy: the arguments run to the LAST ')'.
  const close = body.lastIndexOf(")");
  if (close < open) return null;
  const args: JsonObject = {};
  let any = false;
  for (const kv of body.slice(open, close).split(ARG_SPLIT_RE)) {
    const eq = kv.indexOf("=");
    if (eq === -1) continue;
    const key = pyStrip(kv.slice(0, eq));
    const raw = stripChars(pyStrip(kv.slice(eq + 1)), "\"'");
    const num = pyFloat(raw);
    setJsonKey(args, key, num === null ? raw : num);
    any = true;
  }
  return any ? args : null;
}

/**
 * SPEC §4 evaluation parser: the JSON value of every complete `<tool_call>` block, each
 * independently (bad ones skipped; whatever Python's json.loads returns is kept, normally an
 * object with `name` and `arguments`), then one `{"name": "crop_video", "arguments": {...}}`
 * per `<tool_code>crop_video(k=v, …)</tool_code>` block, values read as numbers (Python float())
 * where possible, quotes stripped otherwise.
 */
export function parseEvalToolCalls(text: string): JsonValue[] {
  const calls: JsonValue[] = [];
  for (const body of completeBlockBodies(text, "<tool_call>", "</tool_call>")) {
    const r = parsePyJson(body);
    if (r.ok) calls.push(r.value);
  }
  for (const body of completeBlockBodies(text, "<tool_code>", "</tool_code>")) {
    const args = parseCropVideoCode(body);
    if (args !== null) calls.push({ name: "crop_video", arguments: args });
  }
  return calls;
}

/**
 * SPEC §4 evaluation time values: a number as is (true/false as 1/0), a string as seconds
 * (Python float()), `MM:SS` or `HH:MM:SS`; anything unreadable is 0.
 */
export function parseTimeValue(val: JsonValue | undefined): number {
  if (typeof val === "number") return val;
  if (typeof val === "boolean") return val ? 1 : 0;
  if (typeof val !== "string") return 0;
  const direct = pyFloat(val);
  if (direct !== null) return direct;
  if (val.includes(":")) {
    const parts = val.split(":").map(pyFloat);
    if (parts.length === 2 && parts[0] != null && parts[1] != null) {
      return parts[0] * 60 + parts[1];
    }
    if (parts.length === 3 && parts[0] != null && parts[1] != null && parts[2] != null) {
      return parts[0] * 3600 + parts[1] * 60 + parts[2];
    }
  }
  return 0;
}

/**
 * SPEC §4 / §5: the crop window the reference evaluator derives from one parsed call: `start_time` (else
 * `start`, else 0) and `end_time` (else `end`, else start + 10), read with parseTimeValue.
 * Null where the reference evaluator raises (the call or its `arguments` is not an object),
 * which it records as an error for the sample.
 */
export function evalCallWindow(call: JsonValue): { start: number; end: number } | null {
  if (!isJsonObject(call)) return null;
  // Python dict.get(key, default): a present key wins even when its value is null.
  const get = (o: JsonObject, key: string, dflt: JsonValue): JsonValue =>
    Object.prototype.hasOwnProperty.call(o, key) ? (o[key] as JsonValue) : dflt;
  const args = get(call, "arguments", {});
  if (!isJsonObject(args)) return null;
  const start = parseTimeValue(get(args, "start_time", get(args, "start", 0)));
  const end = parseTimeValue(get(args, "end_time", get(args, "end", start + 10)));
  return { start, end };
}
