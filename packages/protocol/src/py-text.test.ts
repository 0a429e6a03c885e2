import { describe, expect, it } from "vitest";
import {
  codePointLength,
  firstCodePoint,
  pyFloat,
  pyFloatRepr,
  pyMax,
  pyMin,
  pySplitlines,
  pySplitWhitespace,
  pyStrip,
  unicodeDigitValue,
} from "./py-text";

describe("Python str semantics", () => {
  it("strip uses Python's whitespace set (U+001C..U+001F, U+0085 yes; U+FEFF no)", () => {
    expect(pyStrip("\x1c\x85 a \u3000\x1f")).toBe("a");
    expect(pyStrip("\ufeffa\ufeff")).toBe("\ufeffa\ufeff");
    expect(pyStrip("\u200ba")).toBe("\u200ba");
  });

  it("split() splits on whitespace runs and drops empty strings", () => {
    expect(pySplitWhitespace("  a \u00a0b\t\nc  ")).toEqual(["a", "b", "c"]);
    expect(pySplitWhitespace("   ")).toEqual([]);
  });

  it("splitlines() knows \\r\\n, \\v, \\f, \\x1c-\\x1e, \\x85, U+2028/9 but not \\x1f", () => {
    expect(pySplitlines("a\r\nb\rc\vd\fe\x1cf\x85g\u2028h\x1fi")).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h\x1fi",
    ]);
    expect(pySplitlines("a\n")).toEqual(["a"]);
    expect(pySplitlines("a\n\nb")).toEqual(["a", "", "b"]);
  });

  it("len() counts code points", () => {
    expect(codePointLength("😀a")).toBe(2);
    expect(codePointLength("\ud83d")).toBe(1);
    expect(firstCodePoint("😀a")).toBe("😀");
    expect(firstCodePoint("")).toBe("");
  });

  it("float() accepts Unicode digits, underscores, inf/nan and surrounding whitespace", () => {
    expect(pyFloat(" ١٢.٥ ")).toBe(12.5);
    expect(pyFloat("1_000.5")).toBe(1000.5);
    expect(pyFloat("-Infinity")).toBe(-Infinity);
    expect(pyFloat("nAn")).toBeNaN();
    expect(pyFloat("1.")).toBe(1);
    expect(pyFloat(".5e1")).toBe(5);
    for (const bad of ["", "1__0", "_1", "1_", ".", "1.2.3", "0x10", "1 0", "infinity2"]) {
      expect(pyFloat(bad), bad).toBeNull();
    }
  });

  it("Unicode decimal digits map to their value", () => {
    expect(unicodeDigitValue("٣".codePointAt(0) ?? 0)).toBe(3);
    expect(unicodeDigitValue("𝟙".codePointAt(0) ?? 0)).toBe(1);
    expect(unicodeDigitValue("a".codePointAt(0) ?? 0)).toBe(-1);
  });

  it("min/max follow Python's NaN behaviour", () => {
    expect(pyMax(0, NaN)).toBe(0);
    expect(pyMin(NaN, 1)).toBeNaN();
  });

  it("float repr matches Python's", () => {
    expect(pyFloatRepr(1e16)).toBe("1e+16");
    expect(pyFloatRepr(1e15)).toBe("1000000000000000.0");
    expect(pyFloatRepr(0.0001)).toBe("0.0001");
    expect(pyFloatRepr(0.00001)).toBe("1e-05");
    expect(pyFloatRepr(1.5)).toBe("1.5");
    expect(pyFloatRepr(-0)).toBe("-0.0");
    expect(pyFloatRepr(1.2345678901234568e17)).toBe("1.2345678901234568e+17");
  });
});
