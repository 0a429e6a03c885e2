import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv";

describe("csv", () => {
  it("quotes only cells that need it", () => {
    expect(csvRow(["a", 'say "hi"', "x,y", "two\nlines", null, 3, true])).toBe(
      'a,"say ""hi""","x,y","two\nlines",,3,true',
    );
  });

  it("guards user text that a spreadsheet would run, never numbers", () => {
    expect(csvCell('=HYPERLINK("x")', { guardFormulas: true })).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("+1 more", { guardFormulas: true })).toBe("'+1 more");
    expect(csvCell("@alice", { guardFormulas: true })).toBe("'@alice");
    expect(csvCell(-0.5, { guardFormulas: true })).toBe("-0.5");
    expect(csvCell("-0.5")).toBe("-0.5");
    expect(csvCell("plain", { guardFormulas: true })).toBe("plain");
  });
});
