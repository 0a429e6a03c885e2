// @paravt/suite: the procedurally generated long-video needle suite (server-only: it encodes
// video with the npm ffmpeg through @paravt/video). Planning (annotations, questions, oracle
// trajectories, RL rows) is pure and needs no video; writeSuite renders and writes everything.

export {
  DEFAULT_CONFIG,
  durationUnitS,
  OVERVIEW_KS,
  resolveConfig,
  SuiteConfigSchema,
  TEMPLATES,
  type OverviewK,
  type SuiteConfig,
  type SuiteConfigInput,
  type TemplateName,
} from "./config";
export { encodeVideo, encoderArgs, gopFrames, type EncodeSettings } from "./encode";
export { planVideo, videoDuration, videoId, videoTemplates, type VideoPlan } from "./layout";
export { Knowledge, mmss, observe, parseSummary, summarizeFrames, type Observation, type SeenShape } from "./observe";
export {
  coverRuns,
  decide,
  mainPrompt,
  MAX_CALLS_PER_TURN,
  MAX_TOOL_ROUNDS,
  MAX_WINDOW_S,
  firstLookSentence,
  oracleTrajectory,
  subAgentPrompt,
  toolCallText,
  type OracleResult,
  type Priors,
} from "./oracle";
export {
  knobFlag,
  ORACLE_KNOB_VALUES,
  ORACLE_KNOBS,
  ORACLE_PRESET_NAMES,
  ORACLE_PRESETS,
  OracleStyleError,
  OracleStyleInputSchema,
  OracleStyleSchema,
  oracleStyleFlag,
  parseOracleStyle,
  resolveOracleStyle,
  upgradeLegacyConfig,
  type OracleKnob,
  type OraclePreset,
  type OracleStyle,
  type OracleStyleInput,
} from "./oracle-style";
export * from "./palette";
export { checkSuiteOptions, planSuite, RL_DATA_SOURCE, rlRow, type SuiteOptions, type SuitePlan } from "./plan";
export { Rng, rngFor, deckDraw } from "./prng";
export { readSuite, SuiteReadError, type ReadSuiteOptions, type Suite, type SuiteVideo } from "./read-suite";
export { cellGeometry, insideShape, renderFrame } from "./render";
export * from "./schemas";
export {
  COUNT_OPTIONS,
  formatRange,
  groundTruth,
  LETTERS,
  questionStem,
  questionText,
  TEMPLATE_TYPE,
  type GroundTruth,
  type TemplateParams,
} from "./templates";
export {
  evidenceVisibility,
  formatVisibilityTable,
  visibilityTable,
  visibleInOverview,
  type NoCropByQuestion,
} from "./visibility";
export {
  annotationPath,
  buildManifest,
  writeSuite,
  type SuiteProgress,
  type WriteSuiteOptions,
  type WriteSuiteResult,
} from "./write-suite";
