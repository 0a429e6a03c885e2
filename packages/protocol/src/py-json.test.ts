import { describe, expect, it } from "vitest";
import { isJsonObject, parsePyJson, PY_JSON_MAX_DEPTH } from "./py-json";

const ok = (s: string) => {
  const r = parsePyJson(s);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(s)} to parse: ${r.error}`);
  return r.value;
};
const fails = (s: string) => parsePyJson(s).ok === false;

describe("parsePyJson (SPEC §4: like Python json.loads)", () => {
  it("accepts NaN, Infinity, -Infinity", () => {
    expect(ok("NaN")).toBeNaN();
    expect(ok("[Infinity, -Infinity]")).toEqual([Infinity, -Infinity]);
    expect(fails("-NaN")).toBe(true);
    expect(fails("+Infinity")).toBe(true);
  });

  it("allows JSON whitespace around the value and nothing else", () => {
    expect(ok(' \n{"a": 1}\r\n\t')).toEqual({ a: 1 });
    expect(fails("\u00a01")).toBe(true);
    expect(fails("1\u00a0")).toBe(true);
    expect(fails("\ufeff{}")).toBe(true);
  });

  it("is strict about trailing commas, keys and extra data", () => {
    expect(fails("[1,]")).toBe(true);
    expect(fails('{"a": 1,}')).toBe(true);
    expect(fails("{a: 1}")).toBe(true);
    expect(fails("{'a': 1}")).toBe(true);
    expect(fails("1 2")).toBe(true);
    expect(fails("")).toBe(true);
  });

  it("reads numbers like CPython's scanner", () => {
    expect(ok("-0")).toBe(0);
    expect(Object.is(ok("-0"), -0)).toBe(false);
    expect(Object.is(ok("-0.0"), -0)).toBe(true);
    expect(ok("1.5E3")).toBe(1500);
    expect(ok("1e400")).toBe(Infinity);
    for (const bad of ["01", "1.", ".5", "1e", "-", "0x1"]) expect(fails(bad), bad).toBe(true);
  });

  it("rejects raw control characters in strings and bad escapes", () => {
    expect(fails('"\t"')).toBe(true);
    expect(fails('"\\x41"')).toBe(true);
    expect(ok('"\\u00e9\\ud83d\\ude00\\/"')).toBe("é😀/");
    expect(ok('"\\ud83d"')).toBe("\ud83d");
  });

  it("a JSON scalar is valid JSON (but not a tool call)", () => {
    expect(ok('"str"')).toBe("str");
    expect(isJsonObject(ok("1"))).toBe(false);
  });

  it("duplicate keys: the last value wins; __proto__ is a plain key", () => {
    expect(ok('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    const v = ok('{"__proto__": {"x": 1}}');
    expect(Object.keys(v as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("fails (instead of overflowing the stack) on very deep nesting", () => {
    expect(parsePyJson("[".repeat(PY_JSON_MAX_DEPTH) + "]".repeat(PY_JSON_MAX_DEPTH)).ok).toBe(true);
    expect(parsePyJson("[".repeat(100000) + "]".repeat(100000)).ok).toBe(false);
  });
});
