import { isJsonObject, jsonGet, parsePyJson, setJsonKey, type JsonObject, type JsonValue } from "./py-json";
import { PyUnserializableError, pyValueToJson } from "./py-json-dump";
import { literalEval, parsePyExpression, PyLiteralError, type PyNode, type PyValue } from "./py-expr";
import { PY_WS, pyStrip } from "./py-text";

/**
 * A parsed tool call. `name` and `arguments` are whatever the model wrote: for the JSON form,
 * any JSON value (normally a string and an object); for the Python form, the function name and
 * an object of the readable arguments.
 */
export interface ToolCall {
  readonly name: JsonValue;
  readonly arguments: JsonValue;
}

/** SPEC §4: positional arguments of a Python-style call map to these names, per tool. */
export const POSITIONAL_ARG_NAMES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  crop_video: Object.freeze(["video_path", "start_time", "end_time"]),
});

/**
 * SPEC §4 training parser helper: bodies of Python `<open>(.*?)</close>|<open>(.*)` (DOTALL) matches: each complete block, and
 * for an unterminated last block everything after its opening tag.
 */
export function findGreedyTailBlocks(s: string, open: string, close: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const i = s.indexOf(open, pos);
    if (i === -1) return out;
    const from = i + open.length;
    const j = s.indexOf(close, from);
    if (j === -1) {
      out.push(s.slice(from));
      return out;
    }
    out.push(s.slice(from, j));
    pos = j + close.length;
  }
}

/** The JSON form: every block must be an object with `name` and `arguments`, else null. */
function parseJsonForm(text: string): ToolCall[] | null {
  const calls: ToolCall[] = [];
  for (const body of findGreedyTailBlocks(text, "<tool_call>", "</tool_call>")) {
    const r = parsePyJson(body);
    if (!r.ok || !isJsonObject(r.value)) return null;
    const name = jsonGet(r.value, "name");
    const args = jsonGet(r.value, "arguments");
    if (name === undefined || args === undefined) return null;
    calls.push({ name, arguments: args });
  }
  return calls;
}

/** Signals that the reference's `<tool_code>` branch raised and therefore yields no call. */
class BranchFailed extends Error {}

// Stray quotes around the closing parenthesis (SPEC §4 retry), Python:
//   re.sub(r"\)\s*['\"].*$", ")", line) then re.sub(r"(['\"])(\s*\))", r"\2", line).
// `[^\n]` stands for Python's `.` (which, unlike JS `.`, matches "\r" and U+2028/9).
const STRAY_AFTER_RE = new RegExp(`\\)[${PY_WS}]*['"][^\\n]*$`, "u");
const STRAY_BEFORE_RE = new RegExp(`(['"])([${PY_WS}]*\\))`, "gu");

function parseLine(line: string): PyNode | null {
  const first = parsePyExpression(line);
  if (first.ok) return first.node;
  if (first.fatal) throw new BranchFailed(first.error);
  const cleaned = line.replace(STRAY_AFTER_RE, ")").replace(STRAY_BEFORE_RE, "$2");
  if (cleaned === line) return null;
  const second = parsePyExpression(cleaned);
  if (second.ok) return second.node;
  if (second.fatal) throw new BranchFailed(second.error);
  return null;
}

function tryLiteral(n: PyNode): PyValue | undefined {
  try {
    return literalEval(n);
  } catch (e) {
    if (e instanceof PyLiteralError) return undefined;
    throw e;
  }
}

/** One Python-style call: function name and its readable arguments, in source order. */
export interface PythonCall {
  readonly name: string;
  readonly args: Map<string, PyValue>;
}

/**
 * SPEC §4 Python-style calls of one `<tool_code>` block: each "\n"-separated line (trimmed)
 * is parsed as a Python expression (with one stray-quote retry on SyntaxError); `print(f(...))`
 * is unwrapped; keyword arguments with literal values are read; only when none was read,
 * positional literals map to POSITIONAL_ARG_NAMES; calls with no readable argument are dropped.
 * Returns null where the reference raises out of its parser (a line CPython refuses with an
 * error other than SyntaxError), which voids the whole `<tool_code>` branch.
 */
export function parsePythonCalls(codeText: string): PythonCall[] | null {
  try {
    return readPythonCalls(codeText);
  } catch (e) {
    if (e instanceof BranchFailed) return null;
    throw e;
  }
}

function readPythonCalls(codeText: string): PythonCall[] {
  const code = pyStrip(codeText);
  if (code === "") return [];
  const out: PythonCall[] = [];
  for (const rawLine of code.split("\n")) {
    const line = pyStrip(rawLine);
    if (line === "") continue;
    let call = parseLine(line);
    if (call === null) continue;
    if (call.k === "Call" && call.func.k === "Name" && call.func.id === "print") {
      const inner = call.args[0];
      if (inner !== undefined && inner.k === "Call") call = inner;
    }
    if (call.k !== "Call") continue;
    let name: string;
    if (call.func.k === "Name") name = call.func.id;
    else if (call.func.k === "Attr") name = call.func.attr;
    else continue;

    const args = new Map<string, PyValue>();
    for (const kw of call.keywords) {
      if (kw.arg === null) continue;
      const v = tryLiteral(kw.value);
      if (v !== undefined) args.set(kw.arg, v);
    }
    if (call.args.length > 0 && args.size === 0) {
      const names = POSITIONAL_ARG_NAMES[name] ?? [];
      call.args.forEach((a, idx) => {
        const v = tryLiteral(a);
        const key = names[idx];
        if (v !== undefined && key !== undefined) args.set(key, v);
      });
    }
    if (name !== "" && args.size > 0) out.push({ name, args });
  }
  return out;
}

/** The `<tool_code>` form: [] when nothing is readable or when the reference would raise. */
function parseToolCodeForm(text: string): ToolCall[] {
  try {
    const calls: ToolCall[] = [];
    for (const body of findGreedyTailBlocks(text, "<tool_code>", "</tool_code>")) {
      const parsed = parsePythonCalls(body);
      if (parsed === null) return [];
      for (const c of parsed) {
        // The reference json.dumps the arguments: one unserializable value (bytes, complex,
        // set, Ellipsis) makes the whole <tool_code> branch fail.
        const argsJson: JsonObject = {};
        for (const [k, v] of c.args) setJsonKey(argsJson, k, pyValueToJson(v));
        calls.push({ name: c.name, arguments: argsJson });
      }
    }
    return calls;
  } catch (e) {
    if (e instanceof BranchFailed || e instanceof PyUnserializableError) return [];
    throw e;
  }
}

/**
 * SPEC §4 training parser (tool calls of one main-agent turn): if `<tool_call>` occurs, every
 * `<tool_call>(.*?)</tool_call>` block, or for an unterminated last block everything after
 * `<tool_call>`, is read as JSON `{"name", "arguments"}` with Python json.loads; if ANY block
 * fails, fall through. Else, if `<tool_code>` occurs, Python-style calls (parsePythonCalls).
 * Returns [] when neither form yields a call.
 */
export function parseTrainingToolCalls(text: string): ToolCall[] {
  if (text.includes("<tool_call>")) {
    const calls = parseJsonForm(text);
    if (calls !== null) return calls;
  }
  if (text.includes("<tool_code>")) return parseToolCodeForm(text);
  return [];
}
