import { describe, expect, it } from "vitest";
import { backendName, resolveDevice } from "./index";

describe("PARAVT_DEVICE", () => {
  it("cpu is the reference core whatever the build has", () => {
    expect(resolveDevice("cpu", "cuda")).toEqual({ backend: "cpu", note: null });
  });

  it("cuda without a CUDA backend is an error that says what to do, never a silent CPU run", () => {
    expect(() => resolveDevice("cuda", "cpu")).toThrow(
      /PARAVT_DEVICE=cuda.*only the cpu backend.*PARAVT_DEVICE=cpu or auto/,
    );
    expect(resolveDevice("cuda", "cuda")).toEqual({ backend: "cuda", note: null });
  });

  it("auto takes CUDA when built in, else the CPU core and says so", () => {
    expect(resolveDevice("auto", "cuda")).toEqual({ backend: "cuda", note: null });
    expect(resolveDevice("auto", "cpu")).toEqual({
      backend: "cpu",
      note: "PARAVT_DEVICE=auto: no CUDA backend in this build; using the cpu core",
    });
  });

  it("this build's op table is the CPU reference (no CUDA backend is built in yet)", () => {
    expect(backendName()).toBe("cpu");
    expect(() => resolveDevice("cuda", backendName())).toThrow(/no CUDA backend/);
  });
});
