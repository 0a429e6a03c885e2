// Runs the C++ test binaries (finite-difference checks of every op and of the whole model, KV-cache
// and thread invariance, the fixture step) and fails on a non-zero exit. `make` is a no-op when
// scripts/build.mjs has built them; it rebuilds what is stale.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

const kernels = fileURLToPath(new URL("..", import.meta.url));
const testDir = fileURLToPath(new URL("../test", import.meta.url));

function run(cmd: string, args: string[], cwd: string) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

describe("C++ reference tests", () => {
  it("builds the test binaries", () => {
    const r = run("make", ["-s", "-C", testDir, "all"], kernels);
    expect(r.output).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  for (const [binary, args] of [
    ["test_ops", []],
    ["test_model", []],
    ["test_fixture", ["fixtures/step-v1.bin"]],
  ] as const) {
    it(binary, () => {
      const r = run(fileURLToPath(new URL(`../build/test/${binary}`, import.meta.url)), [...args], testDir);
      expect(r.output).toMatch(new RegExp(`${binary}: \\d+ checks, 0 failures`));
      expect(r.status, r.output).toBe(0);
    });
  }
});
