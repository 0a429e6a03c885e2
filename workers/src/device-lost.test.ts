import { CUDA_CONTEXT_LOST } from "@paravt/kernels";
import { describe, expect, it } from "vitest";
import { deviceLoss, DeviceLostError } from "./job-context";

// The message the CUDA backend gives once a kernel fault has cost the process its context
// (kernels/src/cuda/backend_cuda.cu cuda_fail, context_lost).
const faulted =
  "matmul.cu:212: cudaMemcpy: an illegal memory access was encountered (CUDA error 700); " +
  "the CUDA context is lost: this process must restart to use the GPU again";

describe("deviceLoss", () => {
  it("is the worker's own failure only for work on the core in this process", () => {
    expect(faulted).toContain(CUDA_CONTEXT_LOST);
    const lost = deviceLoss(faulted, true);
    expect(lost).toBeInstanceOf(DeviceLostError);
    expect(lost?.message).toBe(faulted);
    // The same words from a training child or a remote vLLM server's GPU say nothing about ours.
    expect(deviceLoss(faulted, false)).toBeNull();
  });

  it("leaves every other failure to the usual paths (out of memory is not a lost context)", () => {
    expect(
      deviceLoss("backend_cuda.cu:80: out of device memory: asked for 512.0 MiB, 3.1 MiB free of 143771.0 MiB", true),
    ).toBeNull();
    expect(deviceLoss(null, true)).toBeNull();
    expect(deviceLoss("", true)).toBeNull();
  });
});
