import { describe, expect, it } from "vitest";
import { stillSettling } from "./options";

describe("stillSettling", () => {
  it("waits settleMs after the last write", () => {
    expect(stillSettling(1_000, 2_000, 2_500)).toBe(true);
    expect(stillSettling(1_000, 2_000, 3_000)).toBe(false);
  });

  it("never waits with settleMs 0, also for a file written within the current millisecond", () => {
    // mtime has sub-millisecond precision, Date.now() does not: the file looks 0.7 ms "ahead".
    expect(stillSettling(1_000.7, 0, 1_000)).toBe(false);
    expect(stillSettling(1_000.7, 1, 1_000)).toBe(true);
  });
});
