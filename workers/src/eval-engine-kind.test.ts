// Which engine a worker evaluates nano checkpoints with (issue 39 item 6): a GPU worker must use
// the compute core on its device, not onnxruntime's CPU provider.
import { describe, expect, it } from "vitest";
import { nanoEvalEngineKind } from "./eval-sample";

describe("nanoEvalEngineKind", () => {
  it("runs nano on the CUDA core in a GPU worker and on onnxruntime elsewhere", () => {
    expect(nanoEvalEngineKind("cuda")).toBe("core");
    expect(nanoEvalEngineKind("cpu")).toBe("onnxruntime");
  });
});
