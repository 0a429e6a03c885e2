// Python's `json.loads` / `json.dumps(..., ensure_ascii=False)` for the ParaVT materializer: the
// reference (`paravt/data/materialize.py`, `_walk_messages`) decodes an SFT `messages` value stored
// as a JSON string and writes it back with `json.dumps(..., ensure_ascii=False)`, so the string it
// writes is Python's serialization, not JavaScript's: separators ", " and ": ", ints kept exactly
// (no 2^53 limit), floats as `float.__repr__` (`1.0`, `1e-05`, `1e+16`), NaN / Infinity allowed,
// non-ASCII unescaped, control characters as lower-case `\u00XX`, duplicate keys keeping the
// first position with the last value (a Python dict), key order otherwise as written.
//
// Values are kept in a form that round-trips: objects as Map (JavaScript objects would move
// integer-like keys first), ints as their decimal text, floats as numbers.

import { pyFloatRepr } from "../python-repr";
export type PyJson =
  | null
  | boolean
  | string
  | PyInt
  | number // a Python float
  | PyJson[]
  | PyObject;

export class PyInt {
  /** Canonical decimal text (`int(text)` then `repr`: no leading zeros, no `-0`). */
  constructor(readonly text: string) {}
}

export type PyObject = Map<string, PyJson>;

export class PyJsonError extends Error {
  override name = "PyJsonError";
}

const WS = new Set([" ", "\t", "\n", "\r"]);
// json.scanner.NUMBER_RE
const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** `json.loads(text)` (strict mode, the default): throws PyJsonError with the position. */
export function parsePyJson(text: string): PyJson {
  let i = 0;
  const fail = (msg: string): never => {
    throw new PyJsonError(`${msg}: char ${i}`);
  };
  const ws = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const str = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= text.length) fail("Unterminated string starting at");
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === "\\") {
        const e = text[i + 1];
        if (e === undefined) fail("Unterminated string starting at");
        if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape");
          let code = parseInt(hex, 16);
          i += 6;
          // A high surrogate followed by an escaped low one is one character (py_scanstring).
          if (code >= 0xd800 && code <= 0xdbff && text.startsWith("\\u", i)) {
            const lo = text.slice(i + 2, i + 6);
            if (/^[0-9a-fA-F]{4}$/.test(lo)) {
              const low = parseInt(lo, 16);
              if (low >= 0xdc00 && low <= 0xdfff) {
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                i += 6;
              }
            }
          }
          out += String.fromCodePoint(code);
          continue;
        }
        const r = ESCAPES[e!];
        if (r === undefined) fail("Invalid \\escape");
        out += r;
        i += 2;
        continue;
      }
      if (c < " ") fail("Invalid control character at");
      out += c;
      i++;
    }
  };
  const value = (): PyJson => {
    ws();
    const c = text[i];
    if (c === '"') return str();
    if (c === "{") {
      i++;
      const obj: PyObject = new Map();
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const key = str();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        obj.set(key, value()); // Map.set keeps the first position, like a dict
        ws();
        if (text[i] === "}") {
          i++;
          return obj;
        }
        if (text[i] !== ",") fail("Expecting ',' delimiter");
        i++;
      }
    }
    if (c === "[") {
      i++;
      const arr: PyJson[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === "]") {
          i++;
          return arr;
        }
        if (text[i] !== ",") fail("Expecting ',' delimiter");
        i++;
      }
    }
    for (const [word, v] of [
      ["null", null],
      ["true", true],
      ["false", false],
      ["NaN", NaN],
      ["Infinity", Infinity],
      ["-Infinity", -Infinity],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (!m) return fail("Expecting value");
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return new PyInt(BigInt(m[0]).toString());
    return Number(m[0]); // float(text): overflow gives inf, as in Python
  };
  const v = value();
  ws();
  if (i !== text.length) fail("Extra data");
  return v;
}

/** `float.__repr__` as json.dumps writes it: NaN / Infinity for the non-finite values (python-repr.ts for the rest). */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return pyFloatRepr(x);
}

/** json.encoder's py_encode_basestring (ensure_ascii=False). */
function pyStr(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.charCodeAt(0);
    if (c === '"') out += '\\"';
    else if (c === "\\") out += "\\\\";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === "\b") out += "\\b";
    else if (c === "\f") out += "\\f";
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += c;
  }
  return `${out}"`;
}

/** `json.dumps(value, ensure_ascii=False)` with the default separators. */
export function dumpsPyJson(v: PyJson): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "string") return pyStr(v);
  if (typeof v === "number") return floatRepr(v);
  if (v instanceof PyInt) return v.text;
  if (Array.isArray(v)) return `[${v.map(dumpsPyJson).join(", ")}]`;
  return `{${[...v].map(([k, x]) => `${pyStr(k)}: ${dumpsPyJson(x)}`).join(", ")}}`;
}

/** Plain JavaScript values (objects, numbers) for reading a decoded value, not for writing it back. */
export function pyJsonToPlain(v: PyJson): unknown {
  if (v instanceof PyInt) return Number(v.text);
  if (Array.isArray(v)) return v.map(pyJsonToPlain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, pyJsonToPlain(x)]));
  return v;
}

/** Whether a string holds an unpaired surrogate (pyarrow cannot write it as UTF-8). */
export function hasLoneSurrogate(s: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}
