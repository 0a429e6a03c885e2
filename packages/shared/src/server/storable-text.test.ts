import { describe, expect, it } from "vitest";
import { capText, escapeUnstorable, hasUnstorable, StorableText } from "./storable-text";

describe("storable text", () => {
  it("escapes NUL and lone surrogates as literal \\uXXXX text and keeps surrogate pairs", () => {
    expect(escapeUnstorable("a\u0000b")).toEqual({ text: "a\\u0000b", escaped: 1 });
    expect(escapeUnstorable("\ud800x\udfff")).toEqual({ text: "\\ud800x\\udfff", escaped: 2 });
    expect(escapeUnstorable("\udc00\ud800")).toEqual({ text: "\\udc00\\ud800", escaped: 2 }); // reversed pair
    expect(escapeUnstorable("ok \ud83d\ude00")).toEqual({ text: "ok \ud83d\ude00", escaped: 0 });
    expect(hasUnstorable("a\u0000")).toBe(true);
    expect(hasUnstorable("a\u0000")).toBe(true); // the shared regex keeps no state between calls
    expect(hasUnstorable("\ud83d\ude00")).toBe(false);
  });

  it("caps a long text to its head and tail within the limit, never splitting a surrogate pair", () => {
    const s = `${"a".repeat(500)}${"b".repeat(500)}`;
    const capped = capText(s, 200);
    expect(capped.length).toBeLessThanOrEqual(200);
    expect(capped).toMatch(/^a+\n…\[\d+ characters omitted of 1000\]…\nb+$/);
    const emoji = "\ud83d\ude00".repeat(300);
    for (let max = 100; max < 110; max++) {
      const c = capText(emoji, max);
      expect(c.length).toBeLessThanOrEqual(max);
      expect(hasUnstorable(c)).toBe(false);
    }
    expect(capText("short", 200)).toBe("short");
  });

  it("walks JSON values (keys too) and notes every change by field", () => {
    const st = new StorableText(100);
    const v = st.json("details", { "a\u0000": ["x\ud800", "y".repeat(300)], n: 1, ok: "fine" });
    expect(v).toEqual({ "a\\u0000": ["x\\ud800", expect.stringMatching(/^y+\n…\[/)], n: 1, ok: "fine" });
    expect(st.text("finalText", null)).toBeNull();
    expect(st.notes()).toEqual({
      escaped: ["details{key}", "details.a\\u0000[0]"],
      escapedCount: 2,
      truncated: [{ field: "details.a\\u0000[1]", originalChars: 300, keptChars: expect.any(Number) }],
      truncatedCount: 1,
      maxChars: 100,
    });
    expect(new StorableText().notes()).toBeNull();
  });
});
