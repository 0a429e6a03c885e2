// Runs the C++ test binaries (finite-difference checks of every op and of the whole model, KV-cache
// and thread invariance, the fixture step, and the CUDA backend's parity with the CPU core under
// the host emulation) and fails on a non-zero exit. `make` is a no-op when scripts/build.mjs has
// built them; it rebuilds what is stale. Where nvcc is on the PATH, the CUDA sources must also
// compile for the device (issue 39: CI has nvcc and no GPU).
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
    ["test_cuda_emu", ["fixtures/step-v1.bin"]],
  ] as const) {
    it(binary, () => {
      const r = run(fileURLToPath(new URL(`../build/test/${binary}`, import.meta.url)), [...args], testDir);
      const name = binary === "test_cuda_emu" ? "test_cuda" : binary;
      expect(r.output).toMatch(new RegExp(`${name}: \\d+ checks, 0 failures`));
      expect(r.status, r.output).toBe(0);
    });
  }

  const nvcc = spawnSync(process.env.NVCC || "nvcc", ["--version"], { encoding: "utf8" });
  it.runIf(nvcc.status === 0 && process.env.PARAVT_NO_CUDA !== "1")(
    "the CUDA backend compiles with nvcc for sm_90 and its library refuses to run without a device, saying why",
    () => {
      const r = run("make", ["-s", "-C", testDir, "cuda"], kernels);
      expect(r.status, r.output).toBe(0);
      const t = run(fileURLToPath(new URL("../build/test/cuda/test_cuda", import.meta.url)), [], testDir);
      // This machine has no GPU: the device binary exits 2 with the runtime's reason.
      expect(t.status, t.output).toBe(2);
      expect(t.output).toMatch(/^test_cuda: (no CUDA device|CUDA device 0 is not usable)/m);
    },
    300_000,
  );
});
