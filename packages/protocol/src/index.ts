/**
 * @paravt/protocol: the ParaVT protocol core (SPEC.md §2 rewards and §4 parsers, bit-for-bit
 * with the reference; the §5 episode knobs), pure and client-safe: no I/O, no Node-only imports.
 */
export { extractAnswer, firstAnswerBody, removeBlocks } from "./answer";
export { extractLetter, extractTimeRange } from "./eval-extract";
export { evalCallWindow, parseEvalToolCalls, parseTimeValue } from "./eval-parser";
export {
  FORMAT_CONTRACTS,
  formatContract,
  formatVerdict,
  type FormatContract,
  type FormatTurn,
  type FormatVerdict,
} from "./format-compliance";
export {
  formatReward,
  hasNonemptyAnswer,
  hasSubstantiveThink,
  MIN_THINK_CHARS,
  tagsBalanced,
  thinkBeforeTool,
  thinkBodyRange,
  type FormatRewardConfig,
} from "./format-reward";
export {
  DISPATCH_STYLES,
  episodeKnobs,
  isAgentic,
  LAUNCH_KNOB_RANGES,
  LOCKED_KNOBS,
  PROMPT_MODES,
  PROMPT_PRESET_NAMES,
  promptModeSchema,
  refuseKnobConflicts,
  REQUEST_STYLES,
  RUNNER_KNOB_RANGES,
  VIDEO_CHANNELS,
  type DispatchStyle,
  type KnobConflictInput,
  type KnobRanges,
  type PromptMode,
  type RequestStyle,
} from "./knobs";
export { normalizeText } from "./normalize";
export {
  findLazyBlocks,
  hasParseableToolCall,
  isParseableToolCallBody,
  isParseableToolCodeBody,
} from "./parseable-call";
export {
  isJsonObject,
  parsePyJson,
  PY_JSON_MAX_DEPTH,
  type JsonObject,
  type JsonValue,
  type PyJsonResult,
} from "./py-json";
export { parsePyExpression, literalEval, type PyNode, type PyParseResult, type PyValue } from "./py-expr";
export { codePointLength, pyFloat, pySplitlines, pyStrip } from "./py-text";
export {
  computeReward,
  DEFAULT_REWARD_CONFIG,
  isDegenerate,
  judgePrompt,
  judgeQuestion,
  judgeRequest,
  PARA_GRPO,
  parseJudgeReply,
  VANILLA_GRPO,
  type JudgeRequest,
  type QuestionType,
  type Recipe,
  type RewardBreakdown,
  type RewardConfig,
  type RewardInput,
} from "./reward";
export { accReward, hullIou, optionMatch, parseTrainingRange, temporalIou, tokenF1, type RewardMode } from "./scoring";
export { segmentProtocolText, type ProtocolSegment, type SegmentKind } from "./segments";
export { toolReward } from "./tool-reward";
export {
  findGreedyTailBlocks,
  parsePythonCalls,
  parseTrainingToolCalls,
  POSITIONAL_ARG_NAMES,
  type PythonCall,
  type ToolCall,
} from "./training-parser";
