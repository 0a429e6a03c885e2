// Which queues a worker pulls when WORKER_QUEUES is unset, and when it is set (issue 39 item 6).
import { describe, expect, it } from "vitest";
import { workerEnv, workerQueues } from "./env";

describe("workerQueues", () => {
  it("pulls only cpu on the CPU backend and gpu,cpu on CUDA when WORKER_QUEUES is unset", () => {
    const unset = workerEnv({}).WORKER_QUEUES;
    expect(unset).toBeUndefined();
    expect(workerQueues(unset, "cpu")).toEqual({ queues: ["cpu"], warning: null });
    expect(workerQueues(unset, "cuda")).toEqual({ queues: ["gpu", "cpu"], warning: null });
  });

  it("keeps an explicit WORKER_QUEUES on either backend", () => {
    expect(workerQueues(workerEnv({ WORKER_QUEUES: "gpu" }).WORKER_QUEUES, "cuda")).toEqual({
      queues: ["gpu"],
      warning: null,
    });
    expect(workerQueues(workerEnv({ WORKER_QUEUES: " cpu " }).WORKER_QUEUES, "cuda").queues).toEqual(["cpu"]);
  });

  it("warns a CPU-backend worker told to pull gpu, and still pulls it", () => {
    const { queues, warning } = workerQueues(workerEnv({ WORKER_QUEUES: "cpu,gpu" }).WORKER_QUEUES, "cpu");
    expect(queues).toEqual(["cpu", "gpu"]);
    expect(warning).toMatch(/includes gpu, but this worker's core runs on the cpu backend/);
  });

  it("refuses a WORKER_QUEUES that names no known queue", () => {
    expect(() => workerEnv({ WORKER_QUEUES: "" })).toThrow(/at least one of cpu,gpu/);
    expect(() => workerEnv({ WORKER_QUEUES: "tpu" })).toThrow(/Invalid worker configuration/);
  });

  it("takes the CUDA core's matmul precision, fp32 by default, and refuses an unknown one at start", () => {
    expect(workerEnv({}).PARAVT_MATMUL_PRECISION).toBe("fp32");
    expect(workerEnv({ PARAVT_MATMUL_PRECISION: "bf16" }).PARAVT_MATMUL_PRECISION).toBe("bf16");
    expect(() => workerEnv({ PARAVT_MATMUL_PRECISION: "fp16" })).toThrow(
      /Invalid worker configuration[\s\S]*PARAVT_MATMUL_PRECISION/,
    );
  });
});
