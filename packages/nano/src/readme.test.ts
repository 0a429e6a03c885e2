import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { figuresMarkdown } from "../scripts/figures";

describe("README", () => {
  it("states the figures the code produces", () => {
    const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const block = /<!-- nano-figures -->\n([\s\S]*?)\n<!-- \/nano-figures -->/.exec(readme);
    expect(block, "README has a nano-figures block").not.toBeNull();
    expect(block![1]).toBe(figuresMarkdown());
  });
});
