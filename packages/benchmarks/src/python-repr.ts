// Python's `str()` of the values the reference evaluator formats into its ids (paravt/eval/utils.py
// load_samples builds the Charades-STA key f"{video}>>>{caption}>>>{ts}" from the timestamp list), so
// a key computed here equals the one in its output files.

/**
 * CPython's `repr(float)` for finite values: the shortest digits that round-trip (what JavaScript's
 * toExponential() gives), written positionally for exponents -4 <= e < 16 (integral values keep
 * ".0") and as `d.ddde±XX` otherwise.
 */
export function pyFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`${x} is not a finite number`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  if (e + 1 >= digits.length) return `${sign}${digits}${"0".repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** `repr(str)`: single quotes unless the text has a single quote and no double quote. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .split(quote)
    .join(`\\${quote}`);
  return `${quote}${body}${quote}`;
}

/**
 * `str(list)` of floats and strings, e.g. "[0.0, 6.9]" or "['0.0', '6.9']". Numbers are printed as
 * Python floats (a parquet DOUBLE column; an INT64 one would print "24", which the rows cannot tell
 * apart once read); non-finite numbers are refused (Python prints nan / inf, JSON NaN).
 */
export function pyListRepr(items: readonly (number | string)[]): string {
  const each = (v: number | string) => {
    if (typeof v === "string") return pyStrRepr(v);
    return pyFloatRepr(v);
  };
  return `[${items.map(each).join(", ")}]`;
}
