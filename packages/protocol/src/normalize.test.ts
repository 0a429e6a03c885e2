import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize";

describe("normalizeText (SPEC §2 Normalization)", () => {
  it("lower-cases", () => {
    expect(normalizeText("RED Car")).toBe("red car");
  });

  it("replaces whole-word articles a|an|the by spaces, not inside words", () => {
    expect(normalizeText("The cat and a dog ate an apple")).toBe("cat and dog ate apple");
    expect(normalizeText("theatre another atheist")).toBe("theatre another atheist");
  });

  it("uses Unicode word boundaries for articles (é is a word char)", () => {
    expect(normalizeText("éa a")).toBe("éa");
  });

  it("removes every char that is neither a word char nor whitespace", () => {
    expect(normalizeText("Hello, world! (ok) - yes_no")).toBe("hello world ok yes_no");
  });

  it("keeps Unicode letters and numbers, drops combining marks like Python", () => {
    expect(normalizeText("Café ½ Ⅻ ² 日本")).toBe("café ½ ⅻ ² 日本");
    expect(normalizeText("e\u0301")).toBe("e");
  });

  it("collapses whitespace, including Unicode whitespace", () => {
    expect(normalizeText("  a\u00a0\u2028 b\t\tc ")).toBe("b c");
  });
});
