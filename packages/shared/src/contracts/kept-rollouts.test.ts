import { describe, expect, it } from "vitest";
import { keptRolloutCount } from "./training";

/** `groups` groups of `size` rollouts, in batch order. */
const batch = (groups: number, size: number) => Array<number>(groups).fill(size);

describe("keptRolloutCount", () => {
  it("keeps every rollout when the batch fits (SPEC §3's 4 prompts x 8 under the default 64)", () => {
    expect(keptRolloutCount(batch(4, 8), 64)).toBe(32);
  });
  it("keeps whole groups only: 20 of 4 x 8 is the first two groups", () => {
    expect(keptRolloutCount(batch(4, 8), 20)).toBe(16);
    expect(keptRolloutCount(batch(4, 8), 24)).toBe(24);
  });
  it("keeps the head of the first group when one group is over the budget", () => {
    expect(keptRolloutCount(batch(2, 8), 3)).toBe(3);
  });
  it("keeps none at budget 0 or of an empty step", () => {
    expect(keptRolloutCount(batch(2, 8), 0)).toBe(0);
    expect(keptRolloutCount([], 10)).toBe(0);
  });
});
