export type OnnxErrorCode =
  /** The config or parameters given to the exporter are invalid. */
  | "BAD_SOURCE"
  /** The bytes are not an ONNX model (protobuf parse failed, no graph). */
  | "NOT_ONNX"
  /** An ONNX model, but not one exported by exportOnnx (no or unknown nano metadata). */
  | "NOT_NANO_ONNX"
  /** model.onnx and the config / tokenizer / parameters it is loaded with disagree. */
  | "MISMATCH"
  /** onnxruntime refused the model. */
  | "LOAD_FAILED"
  /** A call on a runner after close(). */
  | "CLOSED"
  /** The worker thread died or onnxruntime failed during a run. */
  | "RUN_FAILED"
  /** Bad arguments to logits(). */
  | "BAD_INPUT";

export class OnnxError extends Error {
  override name = "OnnxError";
  constructor(
    readonly code: OnnxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
