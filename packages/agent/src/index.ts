// @paravt/agent: the episode runner of SPEC §1/§5 for any ChatEngine, scoring, prompt modes,
// eval knobs, frame sampling, the engines (ParaVT-nano, OpenAI-compatible HTTP) and the
// OpenAI-compatible nano server. Server-only (node:http, @paravt/video).

export * from "./types";
export { runEpisode, type EpisodeInput, type RunEpisodeOptions } from "./runner";
export { scoreEpisode, predictionOf, groundTruthRange, type EpisodeScore, type ScoreOptions } from "./scoring";
export {
  REFERENCE_FINAL_ANSWER,
  REFERENCE_SYSTEM,
  REFERENCE_TOOL_SCHEMA,
  referenceCropError,
  referenceCropResponse,
} from "./reference-protocol";
export {
  DispatchStyleSchema,
  EvalKnobsSchema,
  KnobsError,
  LOCKED_PROTOCOL,
  parseEvalKnobs,
  ToolParserSchema,
  type DispatchStyle,
  type EvalKnobs,
  type EvalKnobsInput,
  type ToolParserName,
} from "./knobs";
export {
  ANSWER_FORMATS,
  EVALUATOR_RESPONSE_PLACEHOLDERS,
  FRAMES_PLACEHOLDER,
  formatSeconds,
  isAgentic,
  MAIN_PLACEHOLDERS,
  mmss,
  presetTexts,
  PROMPT_MODES,
  PROMPT_PRESET_NAMES,
  PromptModeSchema,
  PromptOverridesSchema,
  QuestionTypeSchema,
  resolvePromptTexts,
  SUB_AGENT_PLACEHOLDERS,
  subAgentValues,
  SUITE_SUB_AGENT_TEMPLATE,
  type EvalQuestionType,
  type PromptMode,
  type PromptOverrides,
  type PromptTexts,
} from "./prompts";
export {
  renderMainPrompt,
  renderSubAgentPrompt,
  videoNameOf,
  withOptions,
  type MainPrompt,
  type MainPromptInput,
  type SubAgentPrompt,
  type SubAgentWindow,
} from "./episode-prompts";
export { fillTemplate, placeholdersOf, TemplateError, unknownPlaceholders } from "./template";
export {
  EpisodeErrorSchema,
  storableJson,
  ToolCallRecordSchema,
  ToolCallStatusSchema,
  TRAJECTORY_VERSION,
  TrajectorySchema,
  TurnRecordSchema,
  type EpisodeError,
  type ToolCallRecord,
  type ToolCallStatus,
  type Trajectory,
  type TurnRecord,
} from "./trajectory";
export { charsTokenCounter, nanoTokenCounter, truncateSummary, TRUNCATION_SUFFIX } from "./token-counter";
export {
  videoFrameSampler,
  type CropFrames,
  type FrameSampler,
  type OverviewResult,
  type VideoFrameSamplerOptions,
  type VideoRef,
} from "./frame-sampler";
export { CROP_VIDEO, parseTurnCalls, planCall, type CallPlan } from "./tool-calls";
export { timestampedFrames, toolResponse } from "./messages";
export { mapPool } from "./pool";
export {
  completionOf,
  NanoEngine,
  type NanoBackend,
  type NanoEngineOptions,
  type NanoGenerateItem,
} from "./engines/nano-engine";
export { CoreNanoBackend, loadCoreNanoEngine } from "./engines/core-backend";
export { loadOrtNanoEngine, OrtNanoBackend } from "./engines/ort-backend";
export { ThumbnailCache, toNanoTurns, chatToNanoContent, NanoMessageError } from "./engines/nano-messages";
export {
  chatCompletionBody,
  HttpEngineError,
  OpenAIEngine,
  OpenAIEngineOptionsSchema,
  toWireMessages,
  type OpenAIEngineOptionsInput,
} from "./engines/openai-engine";
export {
  ChatCompletionRequestSchema,
  decodeImageDataUrl,
  jpegDataUrl,
  type ChatCompletionRequest,
} from "./openai-wire";
export {
  ChatCompletionResponseSchema,
  readCompletionResponse,
  type ChatCompletionResponse,
  type ReadCompletion,
} from "./engines/openai-response";
export { createNanoServer, type NanoServerOptions } from "./server/nano-server";
