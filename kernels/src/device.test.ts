import { describe, expect, it } from "vitest";
import { backendName, cudaProbe, resolveDevice, selectDevice } from "./index";

const gpu = {
  available: true,
  reason: null,
  device: {
    name: "NVIDIA H200",
    totalBytes: 150e9,
    freeBytes: 149e9,
    multiprocessors: 132,
    computeCapability: "9.0",
    emulated: false,
    matmul: "cuBLAS 13.1.0 (libcublas.so.13); fp32",
  },
};
const noDriver = { available: false, reason: "no CUDA device: CUDA driver version is insufficient", device: null };

describe("PARAVT_DEVICE", () => {
  it("cpu is the reference core whatever the machine has", () => {
    expect(resolveDevice("cpu", gpu)).toEqual({ backend: "cpu", note: null });
  });

  it("cuda that cannot run is an error that says why and what to do, never a silent CPU run", () => {
    expect(() => resolveDevice("cuda", noDriver)).toThrow(
      "PARAVT_DEVICE=cuda, but no CUDA device: CUDA driver version is insufficient: start with PARAVT_DEVICE=cpu or auto",
    );
    expect(resolveDevice("cuda", gpu)).toEqual({ backend: "cuda", note: null });
  });

  it("auto takes CUDA when it can run, else the CPU core and says why", () => {
    expect(resolveDevice("auto", gpu)).toEqual({ backend: "cuda", note: null });
    expect(resolveDevice("auto", noDriver)).toEqual({
      backend: "cpu",
      note: "PARAVT_DEVICE=auto: no CUDA device: CUDA driver version is insufficient; using the cpu core",
    });
  });

  it("on this machine (no GPU) the probe names what is missing and auto selects the CPU core", () => {
    const probe = cudaProbe();
    expect(probe.available).toBe(false);
    // Either the library was not built (no nvcc) or it was and found no driver/device.
    expect(probe.reason).toMatch(/no CUDA backend|no CUDA device|not usable/);
    const selected = selectDevice("auto");
    expect(selected.backend).toBe("cpu");
    expect(selected.note).toContain(probe.reason);
    expect(backendName()).toBe("cpu");
    expect(() => selectDevice("cuda")).toThrow(/^PARAVT_DEVICE=cuda, but /);
    expect(backendName()).toBe("cpu");
  });
});
