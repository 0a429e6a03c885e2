/**
 * A JSON reader that accepts exactly what Python's `json.loads(s)` accepts for a str `s`
 * (SPEC §4: "JSON is parsed like Python's json.loads (accepts NaN, Infinity)"):
 * - JSON whitespace only (space, tab, LF, CR) around and between tokens; anything else after
 *   the value is "Extra data"; a leading BOM is an error.
 * - `NaN`, `Infinity`, `-Infinity` are numbers; no `+`, no leading zeros, no `1.`, no `.5`.
 * - Strings reject raw control characters below U+0020 (strict mode); lone surrogate escapes
 *   are kept as they are.
 * - No trailing commas, keys must be strings, duplicate keys: the last value wins.
 * - Nesting deeper than PY_JSON_MAX_DEPTH fails, standing in for the RecursionError that
 *   CPython raises near its default recursion limit (1000); the exact depth at which Python
 *   gives up depends on its call stack, so this limit is an approximation.
 * Known deviations: integers are JS numbers (Python keeps arbitrary precision, so integers
 * beyond 2**53 lose digits here), and an int and a float of equal value are indistinguishable.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export type PyJsonResult = { ok: true; value: JsonValue } | { ok: false; error: string };

/** SPEC §4 JSON reading: depth beyond which parsing fails like CPython's RecursionError (approximate, see above). */
export const PY_JSON_MAX_DEPTH = 990;

class JsonError extends Error {}

/** SPEC §4 ("a JSON object with name"): true for a JSON object value (not null, not an array). */
export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** SPEC §4 helper: sets a key without invoking the `__proto__` setter, so every JSON key becomes own data. */
export function setJsonKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** SPEC §4 helper: own-property lookup that ignores the prototype chain (`"toString" in {}` must be false). */
export function jsonGet(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

class Reader {
  pos = 0;
  constructor(readonly s: string) {}

  skipWs(): void {
    const s = this.s;
    while (this.pos < s.length && isWs(s.charCodeAt(this.pos))) this.pos++;
  }

  fail(msg: string): never {
    throw new JsonError(`${msg} (char ${this.pos})`);
  }

  value(depth: number): JsonValue {
    if (depth > PY_JSON_MAX_DEPTH) this.fail("maximum nesting depth exceeded");
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    switch (c) {
      case 0x22:
        return this.string();
      case 0x7b:
        return this.object(depth);
      case 0x5b:
        return this.array(depth);
      case 0x6e:
        return this.literal("null", null);
      case 0x74:
        return this.literal("true", true);
      case 0x66:
        return this.literal("false", false);
      case 0x4e:
        return this.literal("NaN", NaN);
      case 0x49:
        return this.literal("Infinity", Infinity);
      case 0x2d:
        if (s.startsWith("-Infinity", this.pos)) {
          this.pos += 9;
          return -Infinity;
        }
        return this.number();
      default:
        if (isDigit(c)) return this.number();
        return this.fail("Expecting value");
    }
  }

  literal<T extends JsonValue>(word: string, v: T): T {
    if (!this.s.startsWith(word, this.pos)) this.fail("Expecting value");
    this.pos += word.length;
    return v;
  }

  number(): number {
    // Mirrors CPython's _match_number_unicode: an optional '-', then '0' or [1-9][0-9]*, then a
    // fraction only if '.' is followed by a digit, then an exponent only if it has digits.
    const s = this.s;
    const start = this.pos;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) i++;
    const c = s.charCodeAt(i);
    if (c >= 0x31 && c <= 0x39) {
      i++;
      while (isDigit(s.charCodeAt(i))) i++;
    } else if (c === 0x30) {
      i++;
    } else {
      this.fail("Expecting value");
    }
    let isFloat = false;
    if (s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      if (isDigit(s.charCodeAt(j))) {
        while (isDigit(s.charCodeAt(j))) j++;
        i = j;
        isFloat = true;
      }
    }
    this.pos = i;
    const n = Number(s.slice(start, i));
    // Python's int has no negative zero: `json.loads("-0")` is 0, `json.loads("-0.0")` is -0.0.
    return isFloat ? n : n + 0;
  }

  string(): string {
    const s = this.s;
    let i = this.pos + 1;
    let out = "";
    let chunkStart = i;
    for (;;) {
      if (i >= s.length) {
        this.pos = i;
        this.fail("Unterminated string");
      }
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        out += s.slice(chunkStart, i);
        this.pos = i + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = i;
        this.fail("Invalid control character");
      }
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += s.slice(chunkStart, i);
      const esc = s.charCodeAt(i + 1);
      switch (esc) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75: {
          let code = 0;
          for (let k = 2; k < 6; k++) {
            const h = hexVal(s.charCodeAt(i + k));
            if (h < 0) {
              this.pos = i;
              this.fail("Invalid \\uXXXX escape");
            }
            code = code * 16 + h;
          }
          // A surrogate pair written as two escapes ends up as one code point, as in Python;
          // a lone surrogate stays a lone surrogate, as in Python.
          out += String.fromCharCode(code);
          i += 4;
          break;
        }
        default:
          this.pos = i;
          this.fail("Invalid \\escape");
      }
      i += 2;
      chunkStart = i;
    }
  }

  array(depth: number): JsonValue[] {
    const s = this.s;
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWs();
    if (s.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWs();
      const c = s.charCodeAt(this.pos);
      if (c === 0x5d) {
        this.pos++;
        return out;
      }
      if (c !== 0x2c) this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }

  object(depth: number): JsonObject {
    const s = this.s;
    this.pos++;
    const out: JsonObject = {};
    this.skipWs();
    if (s.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (s.charCodeAt(this.pos) !== 0x22) {
        this.fail("Expecting property name enclosed in double quotes");
      }
      const key = this.string();
      this.skipWs();
      if (s.charCodeAt(this.pos) !== 0x3a) this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      setJsonKey(out, key, this.value(depth + 1));
      this.skipWs();
      const c = s.charCodeAt(this.pos);
      if (c === 0x7d) {
        this.pos++;
        return out;
      }
      if (c !== 0x2c) this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }
}

/**
 * SPEC §4: Python `json.loads(text)` for a str. Never throws; returns the value or the reason
 * Python would have raised (JSONDecodeError, or RecursionError for very deep nesting).
 */
export function parsePyJson(text: string): PyJsonResult {
  const r = new Reader(text);
  try {
    r.skipWs();
    const value = r.value(0);
    r.skipWs();
    if (r.pos !== text.length) r.fail("Extra data");
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonError) return { ok: false, error: e.message };
    throw e;
  }
}
