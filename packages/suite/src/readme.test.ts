import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { planSuite } from "./plan";
import { formatVisibilityTable } from "./visibility";

describe("README", () => {
  it("shows the per-K visibility table the generator produces for seed 1, 20 videos", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const m = /<!-- visibility-table seed=(\d+) count=(\d+) -->\n([\s\S]*?)\n<!-- \/visibility-table -->/.exec(readme);
    expect(m, "README markers").not.toBeNull();
    const plan = planSuite({ seed: Number(m![1]), count: Number(m![2]) });
    expect(m![3]).toBe(formatVisibilityTable(plan.visibility));
  });
});
