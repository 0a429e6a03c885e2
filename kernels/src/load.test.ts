// Loading the addon: a missing build gives an error that says how to build it.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.doUnmock("node:fs");
  vi.resetModules();
});

describe("addon loading", () => {
  it("says how to build the addon when it is missing", async () => {
    vi.resetModules();
    vi.doMock("node:fs", async (importOriginal) => {
      const fs = await importOriginal<typeof import("node:fs")>();
      return { ...fs, default: { ...fs, existsSync: () => false } };
    });
    const kernels = await import("./index");
    expect(() => kernels.getThreads()).toThrow(
      /the native addon is not built \(.*build\/Release\/paravt_kernels\.node is missing\)\. Build it with `node kernels\/scripts\/build\.mjs`/,
    );
  });

  it("loads the built addon", async () => {
    const kernels = await import("./index");
    expect(kernels.backendName()).toBe("cpu");
    expect(kernels.getThreads()).toBeGreaterThanOrEqual(1);
  });
});
