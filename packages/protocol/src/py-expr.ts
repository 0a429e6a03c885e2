/**
 * A reader for ONE line of Python source in `eval` mode, standing in for the reference's
 * `ast.parse(line, mode="eval")` in the training parser's `<tool_code>` path (SPEC §4).
 *
 * What matters for SPEC §4 is (a) whether CPython raises SyntaxError for the line (that
 * decides whether the stray-quote retry runs), (b) the shape of a top-level call (function
 * name, positional and keyword arguments) and (c) the value `ast.literal_eval` gives for each
 * argument. So this module tokenizes like CPython 3.11's tokenizer (numbers, string prefixes,
 * identifiers with NFKC, brackets, comments, `\r` as a line break) and parses the whole
 * expression grammar (lambda, conditional, comprehensions, f-strings, walrus, slices, ...) to
 * decide validity, but only builds detailed nodes for what literal_eval can read.
 *
 * Behaviour that raises something other than SyntaxError in CPython is reported as `fatal`
 * (RecursionError / MemoryError for an expression nested about 3000 deep, UnicodeEncodeError
 * for a lone surrogate): the reference lets those escape to the caller.
 *
 * Known deviations from CPython 3.11 (all far from anything a model writes in a tool call):
 * - `\N{NAME}` escapes are treated as a SyntaxError (no Unicode name table client-side).
 * - The nesting limit is approximate (CPython: ~2985 for most chains, ~2975 for `**`/lambda).
 * - Some of CPython's semantic checks inside lambda parameter lists are not replicated.
 * - Targets of comprehensions are checked structurally (names, attributes, subscripts,
 *   starred, tuples/lists of those), which is what CPython's grammar does.
 */

/** A Python value `ast.literal_eval` can produce. */
export type PyValue =
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "bytes" }
  | { readonly t: "int"; readonly v: bigint }
  | { readonly t: "float"; readonly v: number }
  | { readonly t: "complex"; readonly re: number; readonly im: number }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "none" }
  | { readonly t: "ellipsis" }
  | { readonly t: "tuple" | "list" | "set"; readonly items: readonly PyValue[] }
  | { readonly t: "dict"; readonly entries: readonly (readonly [PyValue, PyValue])[] };

/** The expression nodes this reader keeps; everything else is `Other`. */
export type PyNode =
  | { readonly k: "Name"; readonly id: string; readonly d: number }
  | { readonly k: "Const"; readonly v: PyValue; readonly d: number }
  | {
      readonly k: "Call";
      readonly func: PyNode;
      readonly args: readonly PyNode[];
      readonly keywords: readonly PyKeyword[];
      readonly d: number;
    }
  | { readonly k: "Attr"; readonly value: PyNode; readonly attr: string; readonly d: number }
  | { readonly k: "Subscript"; readonly d: number }
  | { readonly k: "Tuple" | "List" | "Set"; readonly elts: readonly PyNode[]; readonly d: number }
  | {
      readonly k: "Dict";
      readonly keys: readonly (PyNode | null)[];
      readonly values: readonly PyNode[];
      readonly d: number;
    }
  | { readonly k: "Unary"; readonly op: string; readonly operand: PyNode; readonly d: number }
  | {
      readonly k: "BinOp";
      readonly op: string;
      readonly left: PyNode;
      readonly right: PyNode;
      readonly d: number;
    }
  | { readonly k: "Starred"; readonly value: PyNode; readonly d: number }
  | { readonly k: "Other"; readonly d: number };

/** A keyword argument; `arg` is null for `**mapping`. */
export interface PyKeyword {
  readonly arg: string | null;
  readonly value: PyNode;
}

export type PyParseResult =
  | { readonly ok: true; readonly node: PyNode }
  | { readonly ok: false; readonly fatal: boolean; readonly error: string };

/** SPEC §4 (retry rule): raised where CPython raises SyntaxError. */
export class PySyntaxError extends Error {}
/** SPEC §4: raised where CPython raises something else (RecursionError, MemoryError, UnicodeError). */
export class PyFatalError extends Error {}

/** AST nesting depth CPython 3.11 still accepts (measured: 2984 unary minus inside a call). */
const MAX_AST_DEPTH = 2986;
/** CPython's tokenizer MAXLEVEL: at most 200 open brackets. */
const MAX_BRACKET_LEVEL = 200;
/** CPython refuses decimal int literals longer than sys.get_int_max_str_digits() (4300). */
const MAX_INT_DIGITS = 4300;

const HARD_KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

// ---------------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------------

type Tok =
  | { readonly t: "name"; readonly raw: string; readonly v: string }
  | { readonly t: "num"; readonly kind: "int" | "float" | "imag"; readonly text: string }
  | {
      readonly t: "str";
      readonly bytes: boolean;
      readonly raw: boolean;
      readonly f: boolean;
      readonly body: string;
    }
  | { readonly t: "op"; readonly v: string }
  | { readonly t: "newline" }
  | { readonly t: "end" };

// Longest first, so that e.g. `**=` wins over `**` and `*`.
const OPERATORS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "...",
  "->",
  ":=",
  "==",
  "!=",
  "<=",
  ">=",
  "**",
  "//",
  "<<",
  ">>",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "@=",
  "&=",
  "|=",
  "^=",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ";",
  ".",
  "@",
  "=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "&",
  "|",
  "^",
  "~",
];
const CLOSING: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

const XID_IDENTIFIER_RE = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;
const LONE_SURROGATE_RE = /\p{Cs}/u;

function isAsciiDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}
function isHexDigit(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}
function isPotentialIdStart(c: string | undefined): boolean {
  if (c === undefined) return false;
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c.charCodeAt(0) >= 128;
}
function isPotentialIdChar(c: string | undefined): boolean {
  return isPotentialIdStart(c) || isAsciiDigit(c);
}

function syntax(msg: string): never {
  throw new PySyntaxError(msg);
}

class Tokenizer {
  readonly toks: Tok[] = [];
  private i = 0;
  private level = 0;
  private readonly brackets: string[] = [];
  private sawLogicalLine = false;

  constructor(private readonly src: string) {}

  private at(k = 0): string | undefined {
    return this.src[this.i + k];
  }

  run(): Tok[] {
    const src = this.src;
    let atLineStart = true;
    let lineHasTokens = false;
    while (this.i < src.length) {
      if (atLineStart && this.level === 0) {
        atLineStart = false;
        // Indentation and blank lines (CPython skips lines holding only blanks / a comment).
        let col = 0;
        let j = this.i;
        for (; j < src.length; j++) {
          const c = src[j];
          if (c === " ") col++;
          else if (c === "\t") col = (Math.floor(col / 8) + 1) * 8;
          else if (c === "\f") col = 0;
          else break;
        }
        const c = src[j];
        if (c === undefined) {
          // Eval input gets no implicit final newline, so trailing blanks are an indented line.
          if (col > 0) syntax("unexpected indent");
          this.i = j;
        } else if (c === "\n" || c === "#") {
          this.i = j;
        } else {
          if (this.sawLogicalLine) syntax("invalid syntax");
          if (col > 0) syntax("unexpected indent");
          this.i = j;
        }
        if (this.i >= src.length) break;
      }
      const c = src[this.i] as string;
      if (c === " " || c === "\t" || c === "\f") {
        this.i++;
        continue;
      }
      if (c === "#") {
        while (this.i < src.length && src[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "\n") {
        this.i++;
        if (this.level > 0) continue;
        if (lineHasTokens) {
          this.toks.push({ t: "newline" });
          this.sawLogicalLine = true;
          lineHasTokens = false;
        }
        atLineStart = true;
        continue;
      }
      if (c === "\\") {
        if (this.at(1) === "\n") {
          this.i += 2;
          continue;
        }
        if (this.at(1) === undefined) syntax("unexpected EOF while parsing");
        syntax("unexpected character after line continuation character");
      }
      if (this.sawLogicalLine && this.level === 0) syntax("invalid syntax");
      lineHasTokens = true;
      this.token(c);
    }
    if (this.level > 0) syntax(`'${this.brackets[this.brackets.length - 1]}' was never closed`);
    if (lineHasTokens) this.toks.push({ t: "newline" });
    this.toks.push({ t: "end" });
    return this.toks;
  }

  private token(c: string): void {
    if (isPotentialIdStart(c)) return this.nameOrString();
    if (isAsciiDigit(c) || (c === "." && isAsciiDigit(this.at(1)))) return this.number();
    if (c === "'" || c === '"') return this.string(false, false, false);
    for (const op of OPERATORS) {
      if (this.src.startsWith(op, this.i)) {
        this.i += op.length;
        if (op === "(" || op === "[" || op === "{") {
          if (this.level >= MAX_BRACKET_LEVEL) syntax("too many nested parentheses");
          this.level++;
          this.brackets.push(op);
        } else if (op === ")" || op === "]" || op === "}") {
          if (this.level === 0) syntax(`unmatched '${op}'`);
          const open = this.brackets.pop();
          this.level--;
          if (open !== CLOSING[op]) syntax(`closing parenthesis '${op}' does not match`);
        }
        this.toks.push({ t: "op", v: op });
        return;
      }
    }
    const cp = c.codePointAt(0) ?? 0;
    if (cp < 0x20 || cp === 0x7f) syntax(`invalid non-printable character U+${cp.toString(16)}`);
    syntax(`invalid character '${c}'`);
  }

  private nameOrString(): void {
    const src = this.src;
    // CPython's prefix state machine: b, r, u, f in the combinations it allows, then a quote.
    let sawB = false;
    let sawR = false;
    let sawU = false;
    let sawF = false;
    let j = this.i;
    for (;;) {
      const c = src[j];
      if (!(sawB || sawU || sawF) && (c === "b" || c === "B")) sawB = true;
      else if (!(sawB || sawU || sawR || sawF) && (c === "u" || c === "U")) sawU = true;
      else if (!(sawR || sawU) && (c === "r" || c === "R")) sawR = true;
      else if (!(sawF || sawB || sawU) && (c === "f" || c === "F")) sawF = true;
      else break;
      j++;
      if (src[j] === "'" || src[j] === '"') {
        this.i = j;
        this.string(sawB, sawR, sawF);
        return;
      }
    }
    const start = this.i;
    let nonAscii = false;
    let k = start;
    while (k < src.length) {
      const cp = src.codePointAt(k) ?? 0;
      const ch = String.fromCodePoint(cp);
      if (!isPotentialIdChar(ch)) break;
      if (cp >= 128) nonAscii = true;
      k += ch.length;
    }
    this.i = k;
    const raw = src.slice(start, k);
    if (nonAscii && !XID_IDENTIFIER_RE.test(raw)) syntax(`invalid character in identifier`);
    // Identifiers are NFKC-normalized by the parser (keywords are matched on the raw text).
    this.toks.push({ t: "name", raw, v: nonAscii ? raw.normalize("NFKC") : raw });
  }

  /** CPython verify_end_of_number: a keyword may follow a number directly (`1if`), else not. */
  private endOfNumber(kind: string): void {
    const src = this.src;
    const c = src[this.i];
    const rest = (s: string) => src.startsWith(s, this.i + 1);
    let keyword = false;
    if (c === "a") keyword = rest("nd");
    else if (c === "e") keyword = rest("lse");
    else if (c === "f") keyword = rest("or");
    else if (c === "i") keyword = rest("f") || rest("n") || rest("s");
    else if (c === "o") keyword = rest("r");
    else if (c === "n") keyword = rest("ot");
    if (!keyword && isPotentialIdChar(c)) syntax(`invalid ${kind} literal`);
  }

  /** Digits with single underscores between them (CPython tok_decimal_tail). */
  private decimalTail(): void {
    const src = this.src;
    for (;;) {
      while (isAsciiDigit(src[this.i])) this.i++;
      if (src[this.i] !== "_") return;
      this.i++;
      if (!isAsciiDigit(src[this.i])) syntax("invalid decimal literal");
    }
  }

  private radixDigits(isDigit: (c: string | undefined) => boolean, kind: string): void {
    const src = this.src;
    do {
      if (src[this.i] === "_") this.i++;
      if (!isDigit(src[this.i])) {
        if (kind === "octal" || kind === "binary") {
          if (isAsciiDigit(src[this.i])) syntax(`invalid digit in ${kind} literal`);
        }
        syntax(`invalid ${kind} literal`);
      }
      while (isDigit(src[this.i])) this.i++;
    } while (src[this.i] === "_");
    if ((kind === "octal" || kind === "binary") && isAsciiDigit(src[this.i])) {
      syntax(`invalid digit in ${kind} literal`);
    }
    this.endOfNumber(kind);
  }

  private number(): void {
    const src = this.src;
    const start = this.i;
    let kind: "int" | "float" | "imag" = "int";
    const push = () => this.toks.push({ t: "num", kind, text: src.slice(start, this.i) });

    const fraction = (): void => {
      // Called with this.i just past the '.'.
      kind = "float";
      if (isAsciiDigit(src[this.i])) this.decimalTail();
      exponentOrEnd();
    };
    const exponentOrEnd = (): void => {
      const c = src[this.i];
      if (c === "e" || c === "E") {
        const ePos = this.i;
        this.i++;
        const s = src[this.i];
        if (s === "+" || s === "-") {
          this.i++;
          if (!isAsciiDigit(src[this.i])) syntax("invalid decimal literal");
        } else if (!isAsciiDigit(s)) {
          // `1else`: the number ends before the 'e'.
          this.i = ePos;
          this.endOfNumber("decimal");
          push();
          return;
        }
        kind = "float";
        this.decimalTail();
      }
      const j = src[this.i];
      if (j === "j" || j === "J") {
        this.i++;
        kind = "imag";
        this.endOfNumber("imaginary");
      } else {
        this.endOfNumber("decimal");
      }
      push();
    };

    if (src[this.i] === ".") {
      this.i++;
      fraction();
      return;
    }
    if (src[this.i] === "0") {
      this.i++;
      const c = src[this.i];
      if (c === "x" || c === "X") {
        this.i++;
        this.radixDigits(isHexDigit, "hexadecimal");
        push();
        return;
      }
      if (c === "o" || c === "O") {
        this.i++;
        this.radixDigits((d) => d !== undefined && d >= "0" && d <= "7", "octal");
        push();
        return;
      }
      if (c === "b" || c === "B") {
        this.i++;
        this.radixDigits((d) => d === "0" || d === "1", "binary");
        push();
        return;
      }
      // Zeros, possibly with underscores; other digits only if a '.', 'e' or 'j' follows.
      for (;;) {
        if (src[this.i] === "_") {
          this.i++;
          if (!isAsciiDigit(src[this.i])) syntax("invalid decimal literal");
        }
        if (src[this.i] !== "0") break;
        this.i++;
      }
      let nonzero = false;
      if (isAsciiDigit(src[this.i])) {
        nonzero = true;
        this.decimalTail();
      }
      const d = src[this.i];
      if (d === ".") {
        this.i++;
        fraction();
        return;
      }
      if (d === "e" || d === "E" || d === "j" || d === "J") {
        exponentOrEnd();
        return;
      }
      if (nonzero) syntax("leading zeros in decimal integer literals are not permitted");
      this.endOfNumber("decimal");
      push();
      return;
    }
    this.decimalTail();
    if (src[this.i] === ".") {
      this.i++;
      fraction();
      return;
    }
    exponentOrEnd();
  }

  private string(isBytes: boolean, isRaw: boolean, isF: boolean): void {
    const src = this.src;
    const quote = src[this.i] as string;
    let quoteSize = 1;
    let endQuoteSize = 0;
    this.i++;
    if (src[this.i] === quote) {
      this.i++;
      if (src[this.i] === quote) {
        quoteSize = 3;
        this.i++;
      } else {
        endQuoteSize = 1;
      }
    }
    const bodyStart = this.i;
    while (endQuoteSize !== quoteSize) {
      const c = src[this.i];
      if (c === undefined || (quoteSize === 1 && c === "\n")) {
        syntax("unterminated string literal");
      }
      this.i++;
      if (c === quote) {
        endQuoteSize++;
      } else {
        endQuoteSize = 0;
        if (c === "\\") {
          if (this.i >= src.length) syntax("unterminated string literal");
          this.i++;
        }
      }
    }
    const body = quoteSize === 1 && bodyStart === this.i ? "" : src.slice(bodyStart, this.i - quoteSize);
    this.toks.push({ t: "str", bytes: isBytes, raw: isRaw, f: isF, body });
  }
}

// ---------------------------------------------------------------------------------------------
// String literal values
// ---------------------------------------------------------------------------------------------

const SIMPLE_ESCAPES: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** Value of a non-raw str literal body (Python's unicode-escape rules). */
function decodeStrEscapes(body: string): string {
  let out = "";
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) {
      // Only reachable for an f-string literal part that ends right before a '{'.
      out += "\\";
      break;
    }
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (e >= "0" && e <= "7") {
      let j = i + 1;
      let v = 0;
      while (j < i + 4 && body[j] !== undefined && (body[j] as string) >= "0" && (body[j] as string) <= "7") {
        v = v * 8 + Number(body[j]);
        j++;
      }
      out += String.fromCharCode(v);
      i = j;
    } else if (e === "x" || e === "u" || e === "U") {
      const n = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) syntax(`truncated \\${e} escape`);
      const v = parseInt(hex, 16);
      if (v > 0x10ffff) syntax("illegal Unicode character");
      out += String.fromCodePoint(v);
      i += 2 + n;
    } else if (e === "N") {
      syntax("\\N{...} escapes are not supported");
    } else {
      // Unknown escapes keep their backslash (a DeprecationWarning in CPython, not an error).
      out += "\\" + e;
      i += 2;
    }
  }
  return out;
}

/** Validates a non-raw bytes literal body (only `\x` can be malformed there). */
function checkBytesEscapes(body: string): void {
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") continue;
    if (body[i + 1] === "x" && !/^[0-9a-fA-F]{2}$/.test(body.slice(i + 2, i + 4))) {
      syntax("invalid \\x escape");
    }
    i++;
  }
}

/**
 * Validates an f-string body the way CPython 3.11's fstring_find_literal / fstring_find_expr
 * do: `{{`/`}}` escapes, replacement fields whose expression must parse, no backslash or '#'
 * in an expression, conversion `!s`/`!r`/`!a`, a format spec with at most one nested level.
 */
function checkFString(body: string, raw: boolean, recurseLevel: number, startAt = 0): number {
  let i = startAt;
  let literal = "";
  const flushLiteral = () => {
    if (!raw) decodeStrEscapes(literal);
    literal = "";
  };
  while (i < body.length) {
    const c = body[i] as string;
    if (!raw && c === "\\") {
      const next = body[i + 1];
      if (next === "N") syntax("\\N{...} escapes are not supported");
      if (next === "{" || next === "}") {
        // CPython keeps the backslash as literal text and still treats the brace as a brace.
        literal += c;
        i++;
        continue;
      }
      literal += body.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "{" || c === "}") {
      if (recurseLevel === 0) {
        if (body[i + 1] === c) {
          i += 2;
          continue;
        }
        if (c === "}") syntax("f-string: single '}' is not allowed");
      }
      flushLiteral();
      if (c === "}") return i; // end of a nested format spec
      i = checkFStringField(body, i + 1, raw, recurseLevel);
      continue;
    }
    literal += c;
    i++;
  }
  flushLiteral();
  if (recurseLevel > 0) syntax("f-string: expecting '}'");
  return i;
}

function checkFStringField(body: string, start: number, raw: boolean, recurseLevel: number): number {
  if (recurseLevel >= 2) syntax("f-string: expressions nested too deeply");
  let i = start;
  let quote = "";
  let stringType = 0;
  const stack: string[] = [];
  for (; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch === "\\") syntax("f-string expression part cannot include a backslash");
    if (quote !== "") {
      if (ch === quote) {
        if (stringType === 3) {
          if (i + 2 < body.length && body[i + 1] === ch && body[i + 2] === ch) {
            i += 2;
            quote = "";
            stringType = 0;
          }
        } else {
          quote = "";
          stringType = 0;
        }
      }
      continue;
    }
    if (ch === "'" || ch === '"') {
      if (i + 2 < body.length && body[i + 1] === ch && body[i + 2] === ch) {
        stringType = 3;
        i += 2;
      } else {
        stringType = 1;
      }
      quote = ch;
    } else if (ch === "[" || ch === "{" || ch === "(") {
      if (stack.length >= MAX_BRACKET_LEVEL) syntax("f-string: too many nested parenthesis");
      stack.push(ch);
    } else if (ch === "#") {
      syntax("f-string expression part cannot include '#'");
    } else if (
      stack.length === 0 &&
      (ch === "!" || ch === ":" || ch === "}" || ch === "=" || ch === ">" || ch === "<")
    ) {
      const next = body[i + 1];
      if (next === "=" && (ch === "!" || ch === "=" || ch === "<" || ch === ">")) {
        i++;
        continue;
      }
      if (ch === ">" || ch === "<") continue;
      break;
    } else if (ch === "]" || ch === "}" || ch === ")") {
      const open = stack.pop();
      if (open === undefined) syntax(`f-string: unmatched '${ch}'`);
      if (open !== CLOSING[ch]) syntax("f-string: closing parenthesis does not match");
    }
  }
  if (quote !== "") syntax("f-string: unterminated string");
  if (stack.length > 0) syntax("f-string: unmatched bracket");
  if (i >= body.length) syntax("f-string: expecting '}'");
  const expr = body.slice(start, i);
  if (/^[ \t\n\r\f\v]*$/.test(expr)) {
    syntax(body[i] === "!" ? "f-string: expression required before '!'" : "f-string: empty expression not allowed");
  }
  parseFStringExpression(expr);
  if (body[i] === "=") {
    i++;
    while (i < body.length && /[ \t\n\r\f\v]/.test(body[i] as string)) i++;
    if (i >= body.length) syntax("f-string: expecting '}'");
  }
  if (body[i] === "!") {
    i++;
    if (i >= body.length) syntax("f-string: expecting '}'");
    const conv = body[i];
    i++;
    if (conv !== "s" && conv !== "r" && conv !== "a") {
      syntax("f-string: invalid conversion character: expected 's', 'r', or 'a'");
    }
  }
  if (i >= body.length) syntax("f-string: expecting '}'");
  if (body[i] === ":") {
    i++;
    if (i >= body.length) syntax("f-string: expecting '}'");
    i = checkFString(body, raw, recurseLevel + 1, i);
  }
  if (i >= body.length || body[i] !== "}") syntax("f-string: expecting '}'");
  return i + 1;
}

/** CPython 3.11 compiles an f-string expression as `(expr)` in "fstring" mode (star_expressions). */
function parseFStringExpression(expr: string): void {
  const toks = new Tokenizer(`(${expr})`).run();
  const p = new Parser(toks);
  p.fstringTop();
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

function depthOf(...nodes: readonly (PyNode | null | undefined)[]): number {
  let d = 0;
  for (const n of nodes) if (n && n.d > d) d = n.d;
  if (d + 1 > MAX_AST_DEPTH) throw new PyFatalError("RecursionError: expression nested too deeply");
  return d + 1;
}

function other(...children: readonly (PyNode | null | undefined)[]): PyNode {
  return { k: "Other", d: depthOf(...children) };
}

function parseIntLiteral(text: string): bigint {
  const clean = text.replace(/_/g, "");
  if (!/^0[xXoObB]/.test(clean) && clean.length > MAX_INT_DIGITS) {
    syntax("Exceeds the limit (4300 digits) for integer string conversion");
  }
  return BigInt(clean);
}

class Parser {
  private i = 0;
  constructor(private readonly toks: readonly Tok[]) {}

  private peek(k = 0): Tok {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)] as Tok;
  }
  private isOp(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.t === "op" && t.v === v;
  }
  private isKw(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.t === "name" && t.raw === v;
  }
  private eatOp(v: string): boolean {
    if (!this.isOp(v)) return false;
    this.i++;
    return true;
  }
  private eatKw(v: string): boolean {
    if (!this.isKw(v)) return false;
    this.i++;
    return true;
  }
  private expectOp(v: string): void {
    if (!this.eatOp(v)) syntax("invalid syntax");
  }
  private expectKw(v: string): void {
    if (!this.eatKw(v)) syntax("invalid syntax");
  }
  /** A NAME token usable as an identifier (not a hard keyword). */
  private isPlainName(k = 0): boolean {
    const t = this.peek(k);
    return t.t === "name" && !HARD_KEYWORDS.has(t.raw);
  }
  private takeName(): string {
    const t = this.peek();
    if (t.t !== "name" || HARD_KEYWORDS.has(t.raw)) syntax("invalid syntax");
    this.i++;
    return t.v;
  }

  /** `eval` input: expressions NEWLINE* ENDMARKER. */
  evalTop(): PyNode {
    const node = this.expressions();
    while (this.peek().t === "newline") this.i++;
    if (this.peek().t !== "end") syntax("invalid syntax");
    return node;
  }

  /** f-string expression: `(` star_expressions `)`; a lone starred expression is refused. */
  fstringTop(): void {
    this.expectOp("(");
    if (this.isOp(")")) syntax("f-string: empty expression not allowed");
    const first = this.starExpression();
    if (this.isOp(",")) {
      while (this.eatOp(",")) {
        if (this.isOp(")")) break;
        this.starExpression();
      }
    } else if (first.k === "Starred") {
      syntax("f-string: cannot use starred expression here");
    }
    this.expectOp(")");
    while (this.peek().t === "newline") this.i++;
    if (this.peek().t !== "end") syntax("f-string: invalid syntax");
  }

  private starExpression(): PyNode {
    if (this.eatOp("*")) {
      const v = this.bitwiseOr();
      return { k: "Starred", value: v, d: depthOf(v) };
    }
    return this.expression();
  }

  private expressions(): PyNode {
    const first = this.expression();
    if (!this.isOp(",")) return first;
    const elts = [first];
    while (this.eatOp(",")) {
      if (!this.startsExpression()) break;
      elts.push(this.expression());
    }
    return { k: "Tuple", elts, d: depthOf(...elts) };
  }

  private startsExpression(): boolean {
    const t = this.peek();
    if (t.t === "num" || t.t === "str") return true;
    if (t.t === "name") {
      return !HARD_KEYWORDS.has(t.raw) || ["True", "False", "None", "not", "lambda", "await"].includes(t.raw);
    }
    if (t.t === "op") return ["(", "[", "{", "-", "+", "~", "..."].includes(t.v);
    return false;
  }

  expression(): PyNode {
    if (this.isKw("lambda")) return this.lambda();
    const d = this.disjunction();
    if (this.eatKw("if")) {
      const cond = this.disjunction();
      this.expectKw("else");
      const orelse = this.expression();
      return other(d, cond, orelse);
    }
    return d;
  }

  private namedExpression(): PyNode {
    if (this.isPlainName() && this.isOp(":=", 1)) {
      const t = this.peek();
      this.i += 2;
      const value = this.expression();
      return other({ k: "Name", id: t.t === "name" ? t.v : "", d: 1 }, value);
    }
    const e = this.expression();
    if (this.isOp(":=")) syntax("cannot use assignment expressions with this expression");
    return e;
  }

  private starNamedExpression(): PyNode {
    if (this.eatOp("*")) {
      const v = this.bitwiseOr();
      return { k: "Starred", value: v, d: depthOf(v) };
    }
    return this.namedExpression();
  }

  private lambda(): PyNode {
    this.expectKw("lambda");
    const defaults: PyNode[] = [];
    if (!this.isOp(":")) this.lambdaParams(defaults);
    this.expectOp(":");
    const body = this.expression();
    return other(body, ...defaults);
  }

  private lambdaParams(defaults: PyNode[]): void {
    let sawSlash = false;
    let sawStar = false;
    let sawDefault = false;
    let params = 0;
    let starNeedsKeyword = false;
    for (;;) {
      if (this.eatOp("**")) {
        this.takeName();
        this.eatOp(",");
        if (!this.isOp(":")) syntax("arguments cannot follow var-keyword argument");
        break;
      }
      if (this.eatOp("/")) {
        if (sawSlash || sawStar || params === 0) syntax("invalid syntax");
        sawSlash = true;
      } else if (this.eatOp("*")) {
        if (sawStar) syntax("* argument may appear only once");
        sawStar = true;
        if (this.isPlainName()) this.takeName();
        else starNeedsKeyword = true;
      } else {
        this.takeName();
        params++;
        if (this.eatOp("=")) {
          defaults.push(this.expression());
          if (!sawStar) sawDefault = true;
        } else if (sawDefault && !sawStar) {
          syntax("non-default argument follows default argument");
        }
        if (sawStar) starNeedsKeyword = false;
      }
      if (!this.eatOp(",")) break;
      if (this.isOp(":")) break;
    }
    if (starNeedsKeyword) syntax("named arguments must follow bare *");
  }

  private disjunction(): PyNode {
    const first = this.conjunction();
    if (!this.isKw("or")) return first;
    const parts = [first];
    while (this.eatKw("or")) parts.push(this.conjunction());
    return other(...parts);
  }

  private conjunction(): PyNode {
    const first = this.inversion();
    if (!this.isKw("and")) return first;
    const parts = [first];
    while (this.eatKw("and")) parts.push(this.inversion());
    return other(...parts);
  }

  private inversion(): PyNode {
    let nots = 0;
    while (this.eatKw("not")) nots++;
    let node = this.comparison();
    for (let k = 0; k < nots; k++) node = { k: "Unary", op: "not", operand: node, d: depthOf(node) };
    return node;
  }

  private compareOp(): boolean {
    const t = this.peek();
    if (t.t === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(t.v)) {
      this.i++;
      return true;
    }
    if (this.eatKw("in")) return true;
    if (this.isKw("not") && this.isKw("in", 1)) {
      this.i += 2;
      return true;
    }
    if (this.eatKw("is")) {
      this.eatKw("not");
      return true;
    }
    return false;
  }

  private comparison(): PyNode {
    const first = this.bitwiseOr();
    const parts = [first];
    while (this.compareOp()) parts.push(this.bitwiseOr());
    return parts.length === 1 ? first : other(...parts);
  }

  private binaryLevel(ops: readonly string[], next: () => PyNode): PyNode {
    let left = next();
    for (;;) {
      const t = this.peek();
      if (t.t !== "op" || !ops.includes(t.v)) return left;
      this.i++;
      const right = next();
      left = { k: "BinOp", op: t.v, left, right, d: depthOf(left, right) };
    }
  }

  bitwiseOr(): PyNode {
    return this.binaryLevel(["|"], () => this.bitwiseXor());
  }
  private bitwiseXor(): PyNode {
    return this.binaryLevel(["^"], () => this.bitwiseAnd());
  }
  private bitwiseAnd(): PyNode {
    return this.binaryLevel(["&"], () => this.shiftExpr());
  }
  private shiftExpr(): PyNode {
    return this.binaryLevel(["<<", ">>"], () => this.sum());
  }
  private sum(): PyNode {
    return this.binaryLevel(["+", "-"], () => this.term());
  }
  private term(): PyNode {
    return this.binaryLevel(["*", "/", "//", "%", "@"], () => this.factor());
  }

  private factor(): PyNode {
    const ops: string[] = [];
    for (;;) {
      const t = this.peek();
      if (t.t === "op" && (t.v === "+" || t.v === "-" || t.v === "~")) {
        ops.push(t.v);
        this.i++;
      } else {
        break;
      }
    }
    let node = this.power();
    for (let k = ops.length - 1; k >= 0; k--) {
      node = { k: "Unary", op: ops[k] as string, operand: node, d: depthOf(node) };
    }
    return node;
  }

  private power(): PyNode {
    const base = this.awaitPrimary();
    if (!this.eatOp("**")) return base;
    const exp = this.factor();
    return { k: "BinOp", op: "**", left: base, right: exp, d: depthOf(base, exp) };
  }

  private awaitPrimary(): PyNode {
    if (this.eatKw("await")) return other(this.primary());
    return this.primary();
  }

  private primary(): PyNode {
    let node = this.atom();
    for (;;) {
      if (this.eatOp(".")) {
        const attr = this.takeName();
        node = { k: "Attr", value: node, attr, d: depthOf(node) };
      } else if (this.eatOp("(")) {
        node = this.callArgs(node);
      } else if (this.eatOp("[")) {
        const parts = this.slices();
        node = { k: "Subscript", d: depthOf(node, ...parts) };
      } else {
        return node;
      }
    }
  }

  private callArgs(func: PyNode): PyNode {
    const args: PyNode[] = [];
    const keywords: PyKeyword[] = [];
    let sawKeyword = false;
    let sawDoubleStar = false;
    while (!this.isOp(")")) {
      if (this.eatOp("*")) {
        const v = this.expression();
        if (sawDoubleStar) syntax("iterable argument unpacking follows keyword argument unpacking");
        args.push({ k: "Starred", value: v, d: depthOf(v) });
      } else if (this.eatOp("**")) {
        const v = this.expression();
        keywords.push({ arg: null, value: v });
        sawDoubleStar = true;
      } else if (this.peek().t === "name" && this.isOp("=", 1)) {
        const t = this.peek();
        if (t.t !== "name" || HARD_KEYWORDS.has(t.raw)) syntax("cannot assign to keyword");
        this.i += 2;
        keywords.push({ arg: t.v, value: this.expression() });
        sawKeyword = true;
      } else {
        let e = this.namedExpression();
        if (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
          this.forIfClauses();
          e = other(e);
          if (args.length > 0 || keywords.length > 0 || !this.isOp(")")) {
            syntax("Generator expression must be parenthesized");
          }
        }
        if (this.isOp("=")) syntax("expression cannot contain assignment");
        if (sawDoubleStar) syntax("positional argument follows keyword argument unpacking");
        if (sawKeyword) syntax("positional argument follows keyword argument");
        args.push(e);
      }
      if (!this.eatOp(",")) break;
    }
    this.expectOp(")");
    const kwNodes = keywords.map((k) => k.value);
    return { k: "Call", func, args, keywords, d: depthOf(func, ...args, ...kwNodes) };
  }

  private slices(): PyNode[] {
    const parts: PyNode[] = [];
    if (this.isOp("]")) syntax("invalid syntax");
    for (;;) {
      parts.push(...this.slice());
      if (!this.eatOp(",")) break;
      if (this.isOp("]")) break;
    }
    this.expectOp("]");
    return parts;
  }

  private slice(): PyNode[] {
    if (this.eatOp("*")) {
      const v = this.bitwiseOr();
      return [{ k: "Starred", value: v, d: depthOf(v) }];
    }
    const parts: PyNode[] = [];
    if (!this.isOp(":")) {
      const lower = this.namedExpression();
      if (!this.isOp(":")) return [lower];
      parts.push(lower);
    }
    this.expectOp(":");
    if (!this.isOp(":") && !this.isOp(",") && !this.isOp("]")) parts.push(this.expression());
    if (this.eatOp(":")) {
      if (!this.isOp(",") && !this.isOp("]")) parts.push(this.expression());
    }
    return [other(...parts)];
  }

  private forIfClauses(): void {
    while (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
      this.eatKw("async");
      this.expectKw("for");
      this.starTargets();
      this.expectKw("in");
      this.disjunction();
      while (this.eatKw("if")) this.disjunction();
    }
  }

  private starTargets(): void {
    // A lone starred target parses (CPython only rejects it when compiling).
    this.starTarget();
    if (!this.isOp(",")) return;
    while (this.eatOp(",")) {
      if (this.isKw("in")) break;
      this.starTarget();
    }
  }

  private starTarget(): PyNode {
    if (this.eatOp("*")) {
      if (this.isOp("*")) syntax("invalid syntax");
      const v = this.starTarget();
      return { k: "Starred", value: v, d: depthOf(v) };
    }
    const t = this.bitwiseOr();
    if (!isAssignable(t)) syntax("cannot assign to expression");
    return t;
  }

  private atom(): PyNode {
    const t = this.peek();
    switch (t.t) {
      case "name": {
        if (t.raw === "True" || t.raw === "False") {
          this.i++;
          return { k: "Const", v: { t: "bool", v: t.raw === "True" }, d: 1 };
        }
        if (t.raw === "None") {
          this.i++;
          return { k: "Const", v: { t: "none" }, d: 1 };
        }
        if (HARD_KEYWORDS.has(t.raw)) syntax("invalid syntax");
        this.i++;
        return { k: "Name", id: t.v, d: 1 };
      }
      case "num":
        this.i++;
        return { k: "Const", v: numberValue(t), d: 1 };
      case "str":
        return this.strings();
      case "op":
        if (t.v === "...") {
          this.i++;
          return { k: "Const", v: { t: "ellipsis" }, d: 1 };
        }
        if (t.v === "(") return this.parenAtom();
        if (t.v === "[") return this.listAtom();
        if (t.v === "{") return this.braceAtom();
        return syntax("invalid syntax");
      default:
        return syntax("invalid syntax");
    }
  }

  private strings(): PyNode {
    let anyBytes = false;
    let anyStr = false;
    let anyF = false;
    let value = "";
    while (this.peek().t === "str") {
      const t = this.peek();
      if (t.t !== "str") break;
      this.i++;
      if (t.bytes) {
        anyBytes = true;
        if (/[^\p{ASCII}]/u.test(t.body)) syntax("bytes can only contain ASCII literal characters");
        if (!t.raw) checkBytesEscapes(t.body);
      } else {
        anyStr = true;
        if (t.f) {
          anyF = true;
          checkFString(t.body, t.raw, 0);
        } else {
          value += t.raw ? t.body : decodeStrEscapes(t.body);
        }
      }
    }
    if (anyBytes && anyStr) syntax("cannot mix bytes and nonbytes literals");
    if (anyF) return { k: "Other", d: 1 }; // JoinedStr: never a literal
    if (anyBytes) return { k: "Const", v: { t: "bytes" }, d: 1 };
    return { k: "Const", v: { t: "str", v: value }, d: 1 };
  }

  private parenAtom(): PyNode {
    this.expectOp("(");
    if (this.eatOp(")")) return { k: "Tuple", elts: [], d: 1 };
    if (this.eatKw("yield")) {
      let v: PyNode | null = null;
      if (this.eatKw("from")) v = this.expression();
      else if (!this.isOp(")")) v = this.yieldValues();
      this.expectOp(")");
      return other(v);
    }
    const first = this.starNamedExpression();
    if (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
      if (first.k === "Starred") syntax("iterable unpacking cannot be used in comprehension");
      this.forIfClauses();
      this.expectOp(")");
      return other(first);
    }
    if (this.isOp(",")) {
      const elts = [first];
      while (this.eatOp(",")) {
        if (this.isOp(")")) break;
        elts.push(this.starNamedExpression());
      }
      this.expectOp(")");
      return { k: "Tuple", elts, d: depthOf(...elts) };
    }
    this.expectOp(")");
    if (first.k === "Starred") syntax("cannot use starred expression here");
    return first;
  }

  private yieldValues(): PyNode {
    const first = this.starExpression();
    if (!this.isOp(",")) {
      if (first.k === "Starred") syntax("invalid syntax");
      return first;
    }
    const elts = [first];
    while (this.eatOp(",")) {
      if (this.isOp(")")) break;
      elts.push(this.starExpression());
    }
    return other(...elts);
  }

  private listAtom(): PyNode {
    this.expectOp("[");
    if (this.eatOp("]")) return { k: "List", elts: [], d: 1 };
    const first = this.starNamedExpression();
    if (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
      if (first.k === "Starred") syntax("iterable unpacking cannot be used in comprehension");
      this.forIfClauses();
      this.expectOp("]");
      return other(first);
    }
    const elts = [first];
    while (this.eatOp(",")) {
      if (this.isOp("]")) break;
      elts.push(this.starNamedExpression());
    }
    this.expectOp("]");
    return { k: "List", elts, d: depthOf(...elts) };
  }

  private braceAtom(): PyNode {
    this.expectOp("{");
    if (this.eatOp("}")) return { k: "Dict", keys: [], values: [], d: 1 };
    // Dict if the first item is `**x` or `key: value`; set otherwise.
    if (this.eatOp("**")) {
      const v = this.bitwiseOr();
      return this.dictRest([null], [v]);
    }
    let first: PyNode;
    if (this.isOp("*") || (this.isPlainName() && this.isOp(":=", 1))) {
      first = this.starNamedExpression();
    } else {
      first = this.expression();
      if (this.eatOp(":")) {
        const value = this.expression();
        if (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
          this.forIfClauses();
          this.expectOp("}");
          return other(first, value);
        }
        return this.dictRest([first], [value]);
      }
      if (this.isOp(":=")) syntax("cannot use assignment expressions with this expression");
    }
    if (this.isKw("for") || (this.isKw("async") && this.isKw("for", 1))) {
      if (first.k === "Starred") syntax("iterable unpacking cannot be used in comprehension");
      this.forIfClauses();
      this.expectOp("}");
      return other(first);
    }
    const elts = [first];
    while (this.eatOp(",")) {
      if (this.isOp("}")) break;
      elts.push(this.starNamedExpression());
    }
    this.expectOp("}");
    return { k: "Set", elts, d: depthOf(...elts) };
  }

  private dictRest(keys: (PyNode | null)[], values: PyNode[]): PyNode {
    while (this.eatOp(",")) {
      if (this.isOp("}")) break;
      if (this.eatOp("**")) {
        keys.push(null);
        values.push(this.bitwiseOr());
      } else {
        keys.push(this.expression());
        this.expectOp(":");
        values.push(this.expression());
      }
    }
    this.expectOp("}");
    return { k: "Dict", keys, values, d: depthOf(...keys, ...values) };
  }
}

function isAssignable(n: PyNode): boolean {
  switch (n.k) {
    case "Name":
    case "Attr":
    case "Subscript":
      return true;
    case "Starred":
      return isAssignable(n.value);
    case "Tuple":
    case "List":
      return n.elts.every(isAssignable);
    default:
      return false;
  }
}

function numberValue(t: Extract<Tok, { t: "num" }>): PyValue {
  const text = t.text.replace(/_/g, "");
  if (t.kind === "int") return { t: "int", v: parseIntLiteral(t.text) };
  if (t.kind === "float") return { t: "float", v: Number(text) };
  return { t: "complex", re: 0, im: Number(text.slice(0, -1)) };
}

/**
 * SPEC §4 training parser: Python `ast.parse(line, mode="eval")`: the expression node, or why CPython would refuse it
 * (`fatal` when CPython raises something other than SyntaxError).
 */
export function parsePyExpression(line: string): PyParseResult {
  try {
    if (line.includes("\0")) syntax("source code string cannot contain null bytes");
    if (LONE_SURROGATE_RE.test(line)) throw new PyFatalError("UnicodeEncodeError: surrogates not allowed");
    // compile() of a str translates "\r\n" and "\r" to "\n" before tokenizing.
    const toks = new Tokenizer(line.replace(/\r\n?/g, "\n")).run();
    return { ok: true, node: new Parser(toks).evalTop() };
  } catch (e) {
    if (e instanceof PySyntaxError) return { ok: false, fatal: false, error: e.message };
    if (e instanceof PyFatalError) return { ok: false, fatal: true, error: e.message };
    if (e instanceof RangeError) return { ok: false, fatal: true, error: "RecursionError" };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// ast.literal_eval
// ---------------------------------------------------------------------------------------------

/** SPEC §4: raised where `ast.literal_eval` raises ValueError ("malformed node") or TypeError. */
export class PyLiteralError extends Error {}

function malformed(): never {
  throw new PyLiteralError("malformed node or string");
}

function convertNum(n: PyNode): PyValue {
  if (n.k !== "Const") malformed();
  const t = n.v.t;
  if (t !== "int" && t !== "float" && t !== "complex") malformed();
  return n.v;
}

function negate(v: PyValue): PyValue {
  if (v.t === "int") return { t: "int", v: -v.v };
  if (v.t === "float") return { t: "float", v: -v.v };
  if (v.t === "complex") return { t: "complex", re: -v.re, im: -v.im };
  return malformed();
}

function convertSignedNum(n: PyNode): PyValue {
  if (n.k === "Unary" && (n.op === "+" || n.op === "-")) {
    const operand = convertNum(n.operand);
    return n.op === "+" ? operand : negate(operand);
  }
  return convertNum(n);
}

function isHashable(v: PyValue): boolean {
  if (v.t === "list" || v.t === "set" || v.t === "dict") return false;
  if (v.t === "tuple") return v.items.every(isHashable);
  return true;
}

function numericOf(v: PyValue): { re: number; im: number } | null {
  switch (v.t) {
    case "int":
      return { re: Number(v.v), im: 0 };
    case "float":
      return { re: v.v, im: 0 };
    case "complex":
      return { re: v.re, im: v.im };
    case "bool":
      return { re: v.v ? 1 : 0, im: 0 };
    default:
      return null;
  }
}

/** SPEC §4 (literal arguments): Python `==` between two hashable literal values (1 == 1.0 == True, as dict keys see it). */
export function pyKeyEquals(a: PyValue, b: PyValue): boolean {
  if (a.t === "int" && b.t === "int") return a.v === b.v;
  const na = numericOf(a);
  const nb = numericOf(b);
  if (na && nb) return na.re === nb.re && na.im === nb.im;
  if (na || nb) return false;
  if (a.t === "str" && b.t === "str") return a.v === b.v;
  if (a.t === "none" && b.t === "none") return true;
  if (a.t === "ellipsis" && b.t === "ellipsis") return true;
  if (a.t === "tuple" && b.t === "tuple") {
    return a.items.length === b.items.length && a.items.every((x, i) => pyKeyEquals(x, b.items[i] as PyValue));
  }
  // bytes values are not kept; a bytes key is unserializable anyway.
  return false;
}

/**
 * SPEC §4 "keyword literal arguments are read": Python `ast.literal_eval(node)` (3.11): constants, tuples, lists, sets, `set()`, dicts,
 * `+x`/`-x` on numbers, and `real ± complex`. Throws PyLiteralError where Python raises
 * ValueError or TypeError (unhashable set element or dict key).
 */
export function literalEval(n: PyNode): PyValue {
  switch (n.k) {
    case "Const":
      return n.v;
    case "Tuple":
    case "List":
      return { t: n.k === "Tuple" ? "tuple" : "list", items: n.elts.map(literalEval) };
    case "Set": {
      const items: PyValue[] = [];
      for (const e of n.elts) {
        const v = literalEval(e);
        if (!isHashable(v)) throw new PyLiteralError("unhashable type");
        if (!items.some((x) => pyKeyEquals(x, v))) items.push(v);
      }
      return { t: "set", items };
    }
    case "Call":
      if (n.func.k === "Name" && n.func.id === "set" && n.args.length === 0 && n.keywords.length === 0) {
        return { t: "set", items: [] };
      }
      return malformed();
    case "Dict": {
      // dict(zip(map(_convert, keys), map(_convert, values))): keys first, then values.
      const keys = n.keys.map((k) => (k === null ? malformed() : literalEval(k)));
      const values = n.values.map(literalEval);
      const entries: [PyValue, PyValue][] = [];
      keys.forEach((k, idx) => {
        if (!isHashable(k)) throw new PyLiteralError("unhashable type");
        const v = values[idx] as PyValue;
        const existing = entries.find((e) => pyKeyEquals(e[0], k));
        if (existing) existing[1] = v;
        else entries.push([k, v]);
      });
      return { t: "dict", entries };
    }
    case "BinOp":
      if (n.op === "+" || n.op === "-") {
        const left = convertSignedNum(n.left);
        const right = convertNum(n.right);
        if ((left.t === "int" || left.t === "float") && right.t === "complex") {
          const re = left.t === "int" ? Number(left.v) : left.v;
          return n.op === "+"
            ? { t: "complex", re: re + right.re, im: right.im }
            : { t: "complex", re: re - right.re, im: -right.im };
        }
      }
      return malformed();
    default:
      return convertSignedNum(n);
  }
}
