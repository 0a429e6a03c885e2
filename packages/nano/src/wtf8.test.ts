import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wtf8Decode, wtf8Encode } from "./wtf8";

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

describe("wtf8", () => {
  it("is UTF-8 on well-formed strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        expect(wtf8Encode(s)).toEqual(new TextEncoder().encode(s));
      }),
    );
  });

  it("round-trips every JS string, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnit, maxLength: 200 }), (s) => {
        expect(wtf8Decode(wtf8Encode(s))).toBe(s);
      }),
    );
    expect(wtf8Encode("\uD800")).toEqual(Uint8Array.from([0xed, 0xa0, 0x80]));
    expect(wtf8Decode(wtf8Encode("a\uDC00\uD83D"))).toBe("a\uDC00\uD83D");
  });

  it("decodes arbitrary bytes exactly like TextDecoder outside the surrogate range", () => {
    const decoder = new TextDecoder();
    const noSurrogateForm = (b: Uint8Array) =>
      !b.some((x, i) => x === 0xed && (b[i + 1] ?? 0) >= 0xa0 && (b[i + 1] ?? 0) <= 0xbf);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }).filter(noSurrogateForm), (bytes) => {
        expect(wtf8Decode(bytes)).toBe(decoder.decode(bytes));
      }),
      { numRuns: 2000 },
    );
    // Truncated and overlong sequences, stray continuation bytes.
    for (const b of [
      [0xe2, 0x82],
      [0xc0, 0xaf],
      [0x80, 0x41],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98],
    ]) {
      expect(wtf8Decode(b)).toBe(decoder.decode(Uint8Array.from(b)));
    }
  });
});
