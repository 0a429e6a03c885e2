// @paravt/nano: everything of ParaVT-nano (issue 6) that needs no compute core: the tokenizer,
// the sequence builder (token ids, frame slots, loss masks, SFT examples from the needle suite),
// the model config and parameter layout (= the compute core's), safetensors, checkpoints, the SFT
// trainer and generation on the compute core (kernels/), and the ONNX export with its onnxruntime
// engine (a worker thread). Server-only (node:crypto, node:fs, node:worker_threads).

export {
  channelMedians,
  DEFAULT_THUMBNAIL,
  elementCount,
  FRAME_ENCODINGS,
  frameFeatureCount,
  MODEL_ARCHITECTURE,
  modelConfig,
  ModelConfigError,
  ModelConfigSchema,
  parameterCount,
  parameterLayout,
  parseModelConfig,
  thumbnailFeatures,
  type FrameEncoding,
  type ModelConfig,
  type ModelConfigOverrides,
  type ParamSpec,
} from "./config";
export {
  CHECKPOINT_FORMAT,
  CHECKPOINT_FORMAT_VERSION,
  CheckpointConfigSchema,
  CheckpointError,
  checkParameters,
  CONFIG_FILE,
  describeTokenizerDifference,
  loadCheckpoint,
  MODEL_FILE,
  OPTIMIZER_FILE,
  saveCheckpoint,
  TOKENIZER_FILE,
  TrainingStateSchema,
  type Checkpoint,
  type CheckpointConfig,
  type CheckpointErrorCode,
  type LoadOptions,
  type Moments,
  type TrainingState,
} from "./checkpoint";
export {
  coreConfig,
  coreLayoutMismatch,
  createCoreModel,
  flattenParameters,
  toCoreTokens,
  unflattenParameters,
} from "./core";
export { boxDownsample, frameFeatures, imageThumbnail, videoFrameSource, type FrameSource } from "./frames";
export { FrameEncodingError, resetFrameProjection, withFrameEncoding } from "./frame-encoding";
export {
  DEFAULT_FRAME_TARGET_ORDER,
  FrameTargetsError,
  parseFrameTargetOrder,
  suiteFrameTargets,
  type FrameTargetLabel,
  type FrameTargetOrder,
  type FrameTargets,
} from "./frame-targets";
export { generate, GenerateError, sampleToken, type Generation, type GenerateOptions } from "./generate";
export { initParameters, Mulberry32 } from "./init";
export { OnnxError, type OnnxErrorCode } from "./onnx/errors";
export {
  configDifferences,
  exportOnnx,
  ONNX_FILE,
  ONNX_FORMAT,
  ONNX_FORMAT_VERSION,
  ONNX_FRAME_TOKEN,
  ONNX_OPSET,
  parametersSha256,
  readOnnxMetadata,
  writeOnnxFile,
  type OnnxMetadata,
  type OnnxSource,
} from "./onnx/export-onnx";
export {
  OrtNano,
  type LogitsInput,
  type OrtGenerateItem,
  type OrtNanoOptions,
  type OrtNanoSource,
} from "./onnx/ort-nano";
export {
  epochOrder,
  epochSeed,
  learningRate,
  nextBatch,
  SPEC_ADAMW,
  trainSft,
  TrainError,
  type AdamWSettings,
  type LrSchedule,
  type StepMetrics,
  type TrainErrorCode,
  type TrainSftOptions,
  type TrainSftResult,
} from "./train-sft";
export {
  decodeSafetensors,
  encodeSafetensors,
  f32,
  i32,
  readSafetensorsFile,
  SafetensorsError,
  writeSafetensorsFile,
  type Dtype,
  type Safetensors,
  type SafetensorsErrorCode,
  type Tensor,
  type TensorMap,
} from "./safetensors";
export {
  buildPrompt,
  buildSequence,
  ContextOverflowError,
  datasetHash,
  expandVideo,
  frameParts,
  frameTimestampText,
  mainAgentTurns,
  nextTokenArrays,
  padSequence,
  SequenceError,
  sftExamples,
  subAgentTurns,
  THINK_PREFIX,
  truncateSequence,
  videoPathAlias,
  VIDEO_MARKER,
  type EpisodeTurn,
  type FrameRef,
  type ModelSequence,
  type Part,
  type Role,
  type SequenceOptions,
  type SftExample,
  type SftOptions,
  type SftSet,
} from "./sequence";
export {
  BYTE_OFFSET,
  CONTROL_TOKENS,
  PIECE_OFFSET,
  TIME_PIECE_COUNT,
  TIME_TOKENIZER_VERSION,
  timePieceText,
  Tokenizer,
  TokenizerError,
  TOKENIZER_FORMAT,
  TOKENIZER_VERSION,
  TOKENIZER_VERSIONS,
  vocabHash,
  type ControlMode,
  type ControlToken,
  type VocabJson,
} from "./tokenizer";
export {
  defaultPieces,
  defaultTokenizer,
  planTexts,
  PROTOCOL_PIECES,
  templateTexts,
  uncoveredWords,
  VOCAB_CORPUS_PLANS,
  vocabJson,
  wordsOf,
} from "./vocabulary";
export { wtf8Decode, wtf8Encode } from "./wtf8";
export { repeatTemplates } from "./oversample";
export { digitIds, digitPermutable, drawDigitPermutation, permuteDigitIds } from "./digit-permutation";
export { emphasisWeights, lastTurnStart, PALETTE_WORDS, paletteTokenIds, type LossEmphasis } from "./emphasis";
export {
  drawPermutation,
  palettePieces,
  permutable,
  permuteIds,
  PERMUTED_GROUPS,
  type PalettePieces,
} from "./palette-permutation";
export {
  exportGpuDataset,
  GPU_EXPORT_FORMAT,
  gpuRecipe,
  importGpuModel,
  type GpuExportOptions,
  type GpuExportResult,
  type GpuImportOptions,
} from "./gpu-export";
