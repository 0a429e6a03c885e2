// Evaluation contracts (issue 7, SPEC §5 and §6): what a launch asks for, what a run, a sample
// row, an episode transcript and the results matrix look like. Client-safe: the launch form
// validates with the same schema and shows the same reasons as the API.
import {
  episodeKnobs,
  isAgentic,
  LAUNCH_KNOB_RANGES,
  PROMPT_MODES,
  promptModeSchema,
  refuseKnobConflicts,
  type PromptMode,
} from "@paravt/protocol";
import { z } from "zod";
import { dbInt, id, pageLimit, projectRef, storable, syncFirst } from "./common";
import { questionTypeSchema } from "./datasets";
import { EVAL_QUANTITY_KEYS } from "./eval-quantities";
import { MODEL_KINDS } from "./models";
import { runOutput } from "./runs";

/**
 * SPEC §5 prompt modes, as an evaluation launch names them: @paravt/protocol's PROMPT_MODES (one
 * definition). `isAgentic` tells the "with tool" rows of the results matrix from the one-pass ones.
 */
export const EVAL_MODES = PROMPT_MODES;
export const evalModeSchema = promptModeSchema;
export type EvalMode = PromptMode;
export { isAgentic };

/**
 * SPEC §5 dispatch styles ("evaluator": a crop's frames straight back to the main agent;
 * "subagent": training's summaries) and request styles (ours, or the reference evaluator's,
 * docs/serving.md): the episode knobs' own, from @paravt/protocol.
 */
export { DISPATCH_STYLES, REQUEST_STYLES, type RequestStyle } from "@paravt/protocol";

/** VideoMME's duration groups (SPEC §5 "accuracy by duration"). */
export const DURATION_CATEGORIES = ["short", "medium", "long"] as const;
export const durationCategorySchema = z.enum(DURATION_CATEGORIES);
export type DurationCategory = z.infer<typeof durationCategorySchema>;

/** The per-question-type figures (eval-quantities.ts, the glossary). */
export const evalQuantitySchema = z.enum(EVAL_QUANTITY_KEYS);

/** Which prompt modes each model kind can run. External models only hold imported results. */
export const MODEL_KIND_EVAL_MODES: Record<(typeof MODEL_KINDS)[number], readonly EvalMode[]> = {
  NANO_CHECKPOINT: EVAL_MODES,
  OPENAI_COMPATIBLE: EVAL_MODES,
  EXTERNAL: [],
};

export const MAX_K = 256;
/** One launch is a cross product; more runs than this is almost surely a mistake in the form. */
export const MAX_EVAL_RUNS_PER_LAUNCH = 64;

const { promptPreset, requestStyle, videoChannel, ...launchKnobs } = episodeKnobs(LAUNCH_KNOB_RANGES).shape;

/**
 * Episode settings of every run of a launch: @paravt/protocol's episode knobs (SPEC §5's locked
 * protocol for headline rows as defaults: temperature 0, 2048 tokens, max_turns 3, max_parallel 5,
 * the evaluator's dispatch) in a launch's ranges, plus the launch's own `subtitles` and `prompts`.
 * Reference runs (`requestStyle`) need the evaluator's dispatch, no think prefix, no prompt preset
 * and no prompt overrides (`refuseKnobConflicts`, the runner's rule too), and samples imported with
 * the reference's question text (metadata.reference).
 */
export const evalKnobs = z
  .object({
    ...launchKnobs,
    /** Prefix the sample's subtitles (metadata.subtitles) to the question (VideoMME w/ subs). */
    subtitles: z.boolean().default(false),
    promptPreset,
    /**
     * Prompt texts replacing the preset's (SPEC §5: users may supply a published row's exact
     * templates). Checked by the episode runner when the run starts; a bad template fails the run
     * with the runner's reason.
     */
    prompts: z.record(z.string(), z.string().max(20_000)).optional(),
    requestStyle,
    videoChannel,
  })
  .superRefine(refuseKnobConflicts);
export type EvalKnobs = z.infer<typeof evalKnobs>;

const kValue = z
  .number()
  .int("K must be a whole number")
  .min(1, `K must be between 1 and ${MAX_K}`)
  .max(MAX_K, `K must be between 1 and ${MAX_K}`);

function distinct<T>(what: string) {
  return (values: T[], ctx: z.RefinementCtx) => {
    if (new Set(values).size !== values.length) ctx.addIssue({ code: "custom", message: `${what} are listed twice` });
  };
}

export const evalLaunchInput = projectRef
  .extend({
    name: storable(z.string().trim().min(1, "Give the evaluation a name").max(120)),
    modelIds: z.array(id).min(1, "Pick at least one model").max(16).superRefine(distinct("Models")),
    datasetIds: z.array(id).min(1, "Pick at least one dataset").max(16).superRefine(distinct("Datasets")),
    modes: z.array(evalModeSchema).min(1, "Pick at least one prompt mode").superRefine(distinct("Modes")),
    ks: z.array(kValue).min(1, "Pick at least one K").max(8).superRefine(distinct("K values")),
    knobs: evalKnobs.prefault({}),
    /** Only the first N samples of each dataset (by sample key), e.g. for a smoke run. */
    sampleLimit: dbInt.min(1, "The sample limit must be at least 1").optional(),
    /** Only samples whose metadata.split equals this (e.g. "dev", "test"). */
    split: z.string().trim().min(1).max(100).optional(),
    /** Samples per shard job; shards are what workers pull in parallel and resume after a crash. */
    shardSize: z.number().int().min(1).max(1000).default(25),
    /**
     * Only these samples (each must belong to one of the chosen datasets), e.g. one sample for a
     * side-by-side comparison (issue 8). Split and sample limit still apply on top.
     */
    sampleIds: z.array(id).min(1, "Name at least one sample").max(10_000).superRefine(distinct("Samples")).optional(),
  })
  .superRefine((v, ctx) => {
    const runs = v.modelIds.length * v.datasetIds.length * v.modes.length * v.ks.length;
    if (runs > MAX_EVAL_RUNS_PER_LAUNCH) {
      ctx.addIssue({
        code: "custom",
        path: ["modelIds"],
        message: `This selection makes ${runs} runs (models x datasets x modes x K); at most ${MAX_EVAL_RUNS_PER_LAUNCH} per launch`,
      });
    }
  });
export type EvalLaunchInput = z.infer<typeof evalLaunchInput>;

/** A readable reason for each model that cannot run one of the chosen modes (empty = fine). */
export function evalModelProblems(
  models: readonly { name: string; kind: (typeof MODEL_KINDS)[number] }[],
  modes: readonly EvalMode[],
): string[] {
  const problems: string[] = [];
  for (const m of models) {
    const allowed = MODEL_KIND_EVAL_MODES[m.kind];
    if (allowed.length === 0) {
      problems.push(`"${m.name}" is an external model: it has no engine to run; import its reference outputs instead`);
      continue;
    }
    const refused = modes.filter((mode) => !allowed.includes(mode));
    if (refused.length) problems.push(`"${m.name}" (${m.kind}) cannot run ${refused.join(", ")}`);
  }
  return problems;
}

/** What an eval run stores in Run.config; the shard jobs read it back, validated. */
export const evalRunConfig = z.object({
  group: z.object({ id: z.string(), name: z.string() }),
  modelId: z.string(),
  datasetId: z.string(),
  mode: evalModeSchema,
  k: z.number().int().min(1).max(MAX_K),
  knobs: evalKnobs,
  /**
   * How many samples the run covers, fixed at launch. The ids themselves, in order, are the run's
   * `eval_run_samples` rows (services/evals-run-samples.ts): shard i covers ordinals [from, to).
   */
  sampleCount: z.number().int().min(0),
  shardSize: z.number().int().min(1),
  split: z.string().optional(),
  sampleLimit: z.number().int().optional(),
});
export type EvalRunConfig = z.infer<typeof evalRunConfig>;

/** What an imported reference run stores in Run.config (SPEC §6). */
export const importedRunConfig = z.object({
  group: z.object({ id: z.string(), name: z.string() }),
  modelId: z.string(),
  datasetId: z.string(),
  mode: evalModeSchema,
  k: z.number().int().min(1).max(MAX_K),
  imported: z.object({
    rows: z.number().int(),
    matched: z.number().int(),
    unmatched: z.array(z.string()),
    duplicates: z.array(z.string()),
    /** Rows not stored, per reason (unmatched, ambiguous, key_mismatch, duplicate); absent on older imports. */
    skipped: z.number().int().optional(),
    byReason: z.record(z.string(), z.number().int()).optional(),
    /** The reference's dataset name and the benchmark it is here. */
    dataset: z.string().nullable().optional(),
    /** The file's own summary object, kept verbatim for comparison. */
    referenceSummary: z.unknown(),
  }),
});

// ----- summaries (SPEC §5) ---------------------------------------------------------------------

const ratio = z.object({ n: z.number().int(), correct: z.number().int(), accuracy: z.number().nullable() });
export type AccuracyCount = z.infer<typeof ratio>;

/**
 * SPEC §5 summary of one run, computed from its stored episode rows (services/evals-summary.ts).
 *
 * ERROR episodes (an infrastructure failure: dead model server, dropped connection, unreadable
 * video) are counted in `errors` and in NO rate: not as wrong answers, not as zero IoU, not as
 * samples without tool calls. This differs on purpose from the reference evaluator (ParaVT
 * paravt/eval/utils.py `run_dataset`; SPEC §5 "weaknesses not to inherit"), where
 * error rows count as wrong in MCQ accuracy and as 0 calls in the tool figures over `total`,
 * while its grounding figures skip them as ours do. Its accuracy is recovered from ours as
 * correct / (n + errors) for a run whose samples are all multiple choice.
 */
export const evalSummary = z.object({
  /** Samples the run covers. */
  samples: z.number().int(),
  /** Episode rows stored so far (answered + errors). */
  stored: z.number().int(),
  /** Episodes with status OK. */
  answered: z.number().int(),
  /** ERROR episodes: counted here only. */
  errors: z.number().int(),
  /**
   * Multiple choice accuracy: correct / n over answered rows that carry a verdict (like the
   * reference, a row with `correct` null is not counted).
   */
  mcq: ratio.nullable(),
  /** VideoMME accuracy by the sample's duration group (short / medium / long), as `mcq`. */
  byDuration: z.record(durationCategorySchema, ratio).nullable(),
  /**
   * Temporal grounding over answered rows: mean IoU and recall at IoU >= 0.3 / 0.5 / 0.7 (IoU =
   * intersection / hull span, SPEC §5; an answer without a readable range scores 0). `se`: the
   * standard error of mIoU (eval-quantities.ts `meanSE`; null below 2 samples).
   */
  grounding: z
    .object({
      n: z.number().int(),
      mIoU: z.number(),
      se: z.number().nullable(),
      r03: z.number(),
      r05: z.number(),
      r07: z.number(),
    })
    .nullable(),
  /** Open-ended questions: mean score and its standard error (`meanSE`; null below 2 samples). */
  openEnded: z.object({ n: z.number().int(), meanScore: z.number(), se: z.number().nullable() }).nullable(),
  /**
   * Share of answered episodes that are format compliant (@paravt/protocol `formatVerdict`, the
   * definition RL metrics and the review filter use). Only episodes with stored turns are judged:
   * null for an imported reference run (its rows keep 500 characters of the answer, no turns).
   */
  formatCompliance: z.object({ n: z.number().int(), compliant: z.number().int(), rate: z.number() }).nullable(),
  /** Mean dispatched tool calls per answered episode. */
  avgToolCalls: z.number().nullable(),
  /** Share of answered samples with at least one tool call. */
  toolUsageRate: z.number().nullable(),
});
export type EvalSummary = z.infer<typeof evalSummary>;

// ----- outputs ---------------------------------------------------------------------------------

export const evalRunOutput = runOutput.extend({
  group: z.object({ id: z.string(), name: z.string() }),
  model: z.object({ id: z.string(), name: z.string(), kind: z.enum(MODEL_KINDS) }).nullable(),
  dataset: z.object({ id: z.string(), name: z.string() }).nullable(),
  mode: evalModeSchema,
  k: z.number().int(),
  withTool: z.boolean(),
  /** Null for imported runs (their settings are whatever the reference evaluator used). */
  knobs: evalKnobs.nullable(),
  imported: z.boolean(),
  summary: evalSummary,
});
export type EvalRunOutput = z.infer<typeof evalRunOutput>;

export const evalGroupOutput = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.date(),
  runs: z.array(evalRunOutput),
});
export type EvalGroupOutput = z.infer<typeof evalGroupOutput>;

export const evalLaunchOutput = z.object({
  group: z.object({ id: z.string(), name: z.string() }),
  runs: z.array(runOutput),
});

export const evalGroupListInput = projectRef.extend({ limit: pageLimit(100, 20) });
export const evalGroupRefInput = projectRef.extend({ groupId: id });

export const SAMPLE_OUTCOMES = ["correct", "wrong", "error"] as const;

/**
 * Samples whose correctness differs between two runs (issue 8): "right_to_wrong" = correct in the
 * other run (the baseline) and wrong in this one. Errors are neither right nor wrong.
 */
export const FLIP_DIRECTIONS = ["right_to_wrong", "wrong_to_right", "any"] as const;
export const flipDirectionSchema = z.enum(FLIP_DIRECTIONS);
export type FlipDirection = z.infer<typeof flipDirectionSchema>;

export const evalSampleListInput = projectRef.extend({
  runId: id,
  outcome: z.enum(SAMPLE_OUTCOMES).optional(),
  questionType: questionTypeSchema.optional(),
  minToolCalls: dbInt.min(0).optional(),
  maxToolCalls: dbInt.min(0).optional(),
  k: z.number().int().min(1).max(MAX_K).optional(),
  duration: durationCategorySchema.optional(),
  /** Only samples that flipped between `flippedAgainst` (the baseline run) and this run. */
  flippedAgainst: id.optional(),
  // Not `direction`: tRPC infinite queries add their own `direction` ("forward") to the input.
  flipDirection: flipDirectionSchema.optional(),
  cursor: z.string().optional(),
  limit: pageLimit(200, 50),
});
export type EvalSampleListInput = z.infer<typeof evalSampleListInput>;

export const evalSampleRow = z.object({
  episodeId: z.string(),
  sampleId: z.string(),
  key: z.string(),
  question: z.string(),
  questionType: questionTypeSchema,
  answer: z.string(),
  prediction: z.string().nullable(),
  correct: z.boolean().nullable(),
  score: z.number().nullable(),
  status: z.enum(["OK", "ERROR"]),
  error: z.string().nullable(),
  toolCallCount: z.number().int(),
  k: z.number().int(),
  rolloutIndex: z.number().int(),
  duration: durationCategorySchema.nullable(),
  videoId: z.string().nullable(),
});
export type EvalSampleRow = z.infer<typeof evalSampleRow>;

export const evalSamplePageOutput = syncFirst(
  z.object({ items: z.array(evalSampleRow), nextCursor: z.string().nullable() }),
);

export const evalEpisodeRefInput = projectRef.extend({ episodeId: id });

// ----- one episode, in bounded answers (issue 37 item 13) ------------------------------------------
// A stored text may be 256 Ki characters and an episode has many of them, so the episode answer
// carries previews (head and tail) of the long ones and a bounded share of its turns; the rest
// comes page by page: `nextCursor` for turns and tool calls, `evals.episodeText` for full texts.

/** Characters (UTF-16 code units) of a text in an episode answer; a longer one is a head + tail preview. */
export const EPISODE_PREVIEW_CHARS = 16 * 1024;
/**
 * An episode answer stops adding turns and tool calls once its JSON would pass this many bytes; it
 * always has at least one, so a page is at most this or the episode's fields with one turn (or call).
 */
export const EPISODE_PAGE_BYTES = 256 * 1024;
/** The most characters one `evals.episodeText` answer carries. */
export const EPISODE_TEXT_PAGE_CHARS = 64 * 1024;

/**
 * The fields `evals.episodeText` serves, by what they belong to: the episode (with its sample's
 * question, answer, options and metadata), a turn, or a tool call of a turn. The text of a JSON
 * field is its JSON.
 */
export const EPISODE_TEXT_FIELDS = {
  episode: [
    "finalText",
    "prediction",
    "error",
    "details",
    "timings",
    "tokenCounts",
    "question",
    "answer",
    "options",
    "metadata",
  ],
  turn: ["rawText", "forcedPrefix", "parsedCalls", "parseIssues", "timings"],
  call: ["name", "arguments", "subAgentOutput", "error", "details"],
} as const;
export type EpisodeTextField =
  | (typeof EPISODE_TEXT_FIELDS.episode)[number]
  | (typeof EPISODE_TEXT_FIELDS.turn)[number]
  | (typeof EPISODE_TEXT_FIELDS.call)[number];
const episodeTextFields = [
  ...new Set<EpisodeTextField>([
    ...EPISODE_TEXT_FIELDS.episode,
    ...EPISODE_TEXT_FIELDS.turn,
    ...EPISODE_TEXT_FIELDS.call,
  ]),
] as [EpisodeTextField, ...EpisodeTextField[]];

/**
 * Fields of the object that carries it whose value in this answer is a preview: field name ->
 * full length (UTF-16 code units; of its JSON for a JSON field). Absent when nothing was clipped.
 */
const clippedFields = z
  .record(z.string(), z.number().int().min(0))
  .optional()
  .describe("Fields given as a preview: name -> full length; the full text via GET …/episodes/{episodeId}/text");

/** `<turn>.<call>`: the first turn and tool call of the page (nextCursor of the previous one). */
const episodeCursor = z.string().regex(/^\d{1,6}\.\d{1,6}$/, "The cursor is the nextCursor of a previous page");

export const evalEpisodeInput = evalEpisodeRefInput.extend({ cursor: episodeCursor.optional() });
export type EvalEpisodeInput = z.infer<typeof evalEpisodeInput>;

const MAX_TEXT_OFFSET = 2 ** 31 - 1;
export const evalEpisodeTextInput = evalEpisodeRefInput
  .extend({
    field: z.enum(episodeTextFields),
    /** The turn's index, for a turn's or a tool call's field. */
    turn: z.number().int().min(0).max(100_000).optional(),
    /** The tool call's index in its turn, for a tool call's field. */
    call: z.number().int().min(0).max(100_000).optional(),
    /** Where the page starts, in UTF-16 code units (what the lengths count). */
    offset: z.number().int().min(0).max(MAX_TEXT_OFFSET).default(0),
    limit: z.number().int().min(1).max(EPISODE_TEXT_PAGE_CHARS).default(EPISODE_TEXT_PAGE_CHARS),
  })
  .superRefine((v, ctx) => {
    const level = v.call !== undefined ? "call" : v.turn !== undefined ? "turn" : "episode";
    if (v.call !== undefined && v.turn === undefined) {
      ctx.addIssue({ code: "custom", path: ["turn"], message: "A tool call is named by its turn and its index" });
    } else if (!(EPISODE_TEXT_FIELDS[level] as readonly string[]).includes(v.field)) {
      const where = { episode: "an episode (no turn, no call)", turn: "a turn", call: "a tool call" }[level];
      ctx.addIssue({
        code: "custom",
        path: ["field"],
        message: `${where} has no field "${v.field}"; it has ${EPISODE_TEXT_FIELDS[level].join(", ")}`,
      });
    }
  });
export type EvalEpisodeTextInput = z.infer<typeof evalEpisodeTextInput>;

export const evalEpisodeTextOutput = z.object({
  field: z.string(),
  turn: z.number().int().nullable(),
  call: z.number().int().nullable(),
  offset: z.number().int(),
  /** The whole text's length (UTF-16 code units). */
  length: z.number().int(),
  /** `limit` characters from `offset` (one fewer or more rather than split a surrogate pair). */
  text: z.string(),
  /** Where the next page starts; null at the end. */
  nextOffset: z.number().int().nullable(),
});
export type EvalEpisodeTextOutput = z.infer<typeof evalEpisodeTextOutput>;

const toolCallOutput = z.object({
  index: z.number().int(),
  name: z.string(),
  arguments: z.unknown(),
  startS: z.number().nullable(),
  endS: z.number().nullable(),
  clamped: z.boolean(),
  frameTimestamps: z.array(z.number()),
  subAgentOutput: z.string().nullable(),
  status: z.enum(["OK", "ERROR", "REJECTED"]),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  details: z.unknown(),
  clipped: clippedFields,
});

export const evalEpisodeOutput = z.object({
  id: z.string(),
  run: z.object({ id: z.string(), name: z.string() }),
  sample: z.object({
    id: z.string(),
    key: z.string(),
    question: z.string(),
    options: z.array(z.string()).nullable(),
    answer: z.string(),
    questionType: questionTypeSchema,
    videoId: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    clipped: clippedFields,
  }),
  rolloutIndex: z.number().int(),
  k: z.number().int(),
  promptMode: z.string(),
  status: z.enum(["OK", "ERROR"]),
  error: z.string().nullable(),
  finalText: z.string().nullable(),
  prediction: z.string().nullable(),
  score: z.number().nullable(),
  correct: z.boolean().nullable(),
  toolCallCount: z.number().int(),
  overviewTimestamps: z.array(z.number()),
  timings: z.unknown(),
  tokenCounts: z.unknown(),
  details: z.unknown(),
  turns: z.array(
    z.object({
      index: z.number().int(),
      rawText: z.string(),
      forcedPrefix: z.string().nullable(),
      forcedFinal: z.boolean(),
      parsedCalls: z.unknown(),
      parseIssues: z.unknown(),
      promptTokens: z.number().int().nullable(),
      completionTokens: z.number().int().nullable(),
      timings: z.unknown(),
      toolCalls: z.array(toolCallOutput),
      clipped: clippedFields,
    }),
  ),
  createdAt: z.date(),
  clipped: clippedFields,
  /** Turns stored; `turns` holds this page's share (a turn continued from the previous page repeats its fields, with its remaining calls). */
  turnCount: z.number().int(),
  /** The cursor of the next page of turns and tool calls; null when this page ends the episode. */
  nextCursor: z.string().nullable(),
});
export type EvalEpisodeOutput = z.infer<typeof evalEpisodeOutput>;

/**
 * The pages of one episode as one: a turn split across pages is joined (its tool calls in order).
 * The fields outside `turns` are the first page's (every page carries them).
 */
export function mergeEpisodePages(pages: readonly EvalEpisodeOutput[]): EvalEpisodeOutput {
  const [first, ...rest] = pages;
  if (!first) throw new Error("mergeEpisodePages needs at least one page");
  const turns = first.turns.map((t) => ({ ...t, toolCalls: [...t.toolCalls] }));
  for (const page of rest) {
    for (const t of page.turns) {
      const last = turns[turns.length - 1];
      if (last && last.index === t.index) last.toolCalls.push(...t.toolCalls);
      else turns.push({ ...t, toolCalls: [...t.toolCalls] });
    }
  }
  return { ...first, turns, nextCursor: pages[pages.length - 1]!.nextCursor };
}

export const evalMatrixInput = projectRef
  .extend({ groupId: id.optional(), runIds: z.array(id).min(1).max(200).optional() })
  .refine((v) => v.groupId !== undefined || v.runIds !== undefined, {
    message: "Name a group or a list of runs",
    path: ["groupId"],
  });

/** One figure of a run (eval-quantities.ts): value in 0..1, its samples and standard error. */
export const quantityFigure = z.object({
  quantity: evalQuantitySchema,
  value: z.number().nullable(),
  n: z.number().int(),
  se: z.number().nullable(),
});

/**
 * One (model, setting, dataset) cell: its headline figure (`metric`, `value`, `n`, `se`: MCQ
 * accuracy, else grounding mIoU, else open-ended score; eval-quantities.ts `headlineOf`) and every
 * per-question-type figure of the run (`figures`).
 */
export const matrixCell = z.object({
  runId: z.string(),
  metric: evalQuantitySchema,
  value: z.number().nullable(),
  n: z.number().int(),
  se: z.number().nullable(),
  figures: z.array(quantityFigure),
  answered: z.number().int(),
  errors: z.number().int(),
  status: z.string(),
});

export const evalMatrixOutput = syncFirst(
  z.object({
    columns: z.array(z.object({ datasetId: z.string(), name: z.string() })),
    rows: z.array(
      z.object({
        modelId: z.string(),
        modelName: z.string(),
        mode: evalModeSchema,
        k: z.number().int(),
        withTool: z.boolean(),
        cells: z.record(z.string(), matrixCell),
        /** Mean of the row's cell values over the columns that have one. */
        average: z.number().nullable(),
      }),
    ),
  }),
);
export type EvalMatrixOutput = z.infer<typeof evalMatrixOutput>;

// ----- paper-shaped table of a group (SPEC §5) -------------------------------------------------

/**
 * An evaluation group as the paper's main table: one row per (model, with/without tools, K), one
 * column per benchmark (its headline figure: MCQ accuracy, or mIoU for grounding), and the
 * average. A row joins the prompt modes of its tool class when they cover different benchmarks
 * (the reference runs MCQ in agentic_general and Charades-STA in agentic_minimal); two modes on
 * one benchmark give two rows. Values are fractions in [0, 1]; `csv` and `markdown` print them in
 * % with one decimal.
 */
export const evalGroupTableOutput = syncFirst(
  z.object({
    group: z.object({ id: z.string(), name: z.string() }),
    columns: z.array(z.object({ datasetId: z.string(), name: z.string(), metric: evalQuantitySchema })),
    rows: z.array(
      z.object({
        modelName: z.string(),
        /** The prompt modes of the row's runs, in column order. */
        modes: z.array(evalModeSchema),
        k: z.number().int(),
        withTool: z.boolean(),
        /** One per column, in column order; null where the row has no run or no answered sample. */
        values: z.array(z.number().nullable()),
        /** Mean over ALL columns (as the paper averages its benchmarks); null when a value is missing. */
        average: z.number().nullable(),
        /** What a reader must know about the row's figures: unfinished runs, ERROR episodes left out. */
        notes: z.array(z.string()),
      }),
    ),
    /** Download file name without extension. */
    fileName: z.string(),
    csv: z.string(),
    markdown: z.string(),
  }),
);
export type EvalGroupTableOutput = z.infer<typeof evalGroupTableOutput>;

// ----- reference import (SPEC §6) --------------------------------------------------------------

export const importReferenceInput = projectRef.extend({
  name: storable(z.string().trim().min(1, "Give the imported run a name").max(120)),
  datasetId: id,
  modelId: id,
  mode: evalModeSchema.default("agentic_general"),
  k: kValue.default(64),
  /** Add the run to an existing group (matrix) instead of a new one. */
  groupId: id.optional(),
  /** The parsed JSON of one dataset's reference output file: `{summary, results}`. */
  file: z.unknown(),
});

export const importReferenceOutput = z.object({
  run: runOutput,
  group: z.object({ id: z.string(), name: z.string() }),
  rows: z.number().int(),
  matched: z.number().int(),
  errors: z.number().int(),
  /** Row ids that name no sample of the dataset (first 100). */
  unmatched: z.array(z.string()),
  unmatchedCount: z.number().int(),
  /** Row ids seen more than once; only the first was kept. */
  duplicates: z.array(z.string()),
  /** Matched rows stored as ERROR episodes, by cause: the row's `error`, or an `[API error: …]` final. */
  errorKinds: z.object({ rowError: z.number().int(), apiError: z.number().int() }),
  /** Rows not stored (rows = matched + skipped), per reason (@paravt/benchmarks REFERENCE_SKIP_REASONS). */
  skipped: z.number().int(),
  skippedByReason: z.record(z.string(), z.number().int()),
  /** The first 100 rows not stored: position in `results`, id, reason, what was found. */
  skippedRows: z.array(z.object({ index: z.number().int(), id: z.string(), reason: z.string(), detail: z.string() })),
});

// ----- side-by-side comparison (issue 8) -------------------------------------------------------

export const MAX_COMPARED_RUNS = 4;

export const evalCompareInput = projectRef.extend({
  sampleId: id,
  /** May be empty: then only the sample (the page before any run is picked). */
  runIds: z
    .array(id)
    .max(MAX_COMPARED_RUNS, `At most ${MAX_COMPARED_RUNS} runs side by side`)
    .superRefine(distinct("Runs")),
});

/** The compared sample: what the player and the answer column need. */
export const compareSampleOutput = z.object({
  id: z.string(),
  key: z.string(),
  datasetId: z.string(),
  datasetName: z.string(),
  question: z.string(),
  options: z.array(z.string()).nullable(),
  answer: z.string(),
  questionType: questionTypeSchema,
  video: z
    .object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      durationS: z.number().nullable(),
      hasThumbnail: z.boolean(),
    })
    .nullable(),
});
export type CompareSampleOutput = z.infer<typeof compareSampleOutput>;

/** One model's column: its run (live status), and its episode on the sample once stored. */
export const compareColumnOutput = z.object({
  run: evalRunOutput,
  /** The first rollout's episode on the sample; null while the run has not reached it. */
  episode: evalEpisodeOutput.nullable(),
  /** timings.totalMs of the episode (the runner's wall time), when the engine recorded it. */
  latencyMs: z.number().nullable(),
  /** crop_video calls counted for the score (episode.toolCallCount). */
  toolCalls: z.number().int().nullable(),
});
export type CompareColumnOutput = z.infer<typeof compareColumnOutput>;

export const evalCompareOutput = syncFirst(
  z.object({ sample: compareSampleOutput, columns: z.array(compareColumnOutput) }),
);
export type EvalCompareOutput = z.infer<typeof evalCompareOutput>;

/** Eval runs on a dataset, or on the dataset of a sample (then with that sample's episode). */
export const evalRunsOnInput = projectRef
  .extend({ datasetId: id.optional(), sampleId: id.optional() })
  .refine((v) => (v.datasetId === undefined) !== (v.sampleId === undefined), {
    message: "Name a dataset or a sample",
    path: ["datasetId"],
  });

export const evalRunOnOutput = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  modelName: z.string().nullable(),
  mode: evalModeSchema,
  k: z.number().int(),
  imported: z.boolean(),
  createdAt: z.date(),
  /** With a sample: its first episode in this run, if stored. */
  episodeId: z.string().nullable(),
  /** That episode's status: an ERROR has no answer (never a wrong one). */
  episodeStatus: z.enum(["OK", "ERROR"]).nullable(),
  correct: z.boolean().nullable(),
});
export type EvalRunOnOutput = z.infer<typeof evalRunOnOutput>;

export const evalFindSamplesInput = projectRef.extend({
  /** Part of the sample key or of the question, case-insensitive. */
  query: z.string().trim().max(200).default(""),
  datasetId: id.optional(),
  limit: pageLimit(50, 20),
});

export const foundSampleOutput = z.object({
  id: z.string(),
  key: z.string(),
  question: z.string(),
  questionType: questionTypeSchema,
  datasetId: z.string(),
  datasetName: z.string(),
  videoId: z.string().nullable(),
});

/** The per-project dataset that holds questions typed on the comparison page. */
export const ADHOC_DATASET_NAME = "Ad-hoc questions";

const comparedModel = z.object({
  modelId: id,
  mode: evalModeSchema,
  k: kValue,
  knobs: evalKnobs.prefault({}),
});

/** A question of one's own on a project video; stored as a sample of the ad-hoc dataset. */
export const adhocQuestion = z
  .object({
    videoId: id,
    question: z.string().trim().min(1, "Write a question").max(4_000),
    questionType: z.enum(["oe", "mcq"]),
    /** Multiple choice: the options in order (letters A, B, ... follow this order). */
    options: z.array(z.string().trim().min(1, "An option cannot be empty").max(500)).max(10).optional(),
    /** MCQ: the correct letter; open-ended: a reference answer (may be empty: then unscored). */
    answer: z.string().trim().max(2_000).default(""),
  })
  .superRefine((v, ctx) => {
    if (v.questionType !== "mcq") return;
    const n = v.options?.length ?? 0;
    if (n < 2) ctx.addIssue({ code: "custom", path: ["options"], message: "Give at least two options" });
    const letters = "ABCDEFGHIJ".slice(0, n);
    if (!/^[A-J]$/.test(v.answer) || !letters.includes(v.answer)) {
      ctx.addIssue({
        code: "custom",
        path: ["answer"],
        message: `The answer must be one of ${[...letters].join(", ")}`,
      });
    }
  });
export type AdhocQuestion = z.infer<typeof adhocQuestion>;

export const evalCompareRunInput = projectRef
  .extend({
    /** An existing sample, or a video and one's own question (exactly one of the two). */
    sampleId: id.optional(),
    adhoc: adhocQuestion.optional(),
    models: z
      .array(comparedModel)
      .min(2, "Pick at least two models")
      .max(MAX_COMPARED_RUNS, `At most ${MAX_COMPARED_RUNS} models side by side`),
  })
  .superRefine((v, ctx) => {
    if ((v.sampleId === undefined) === (v.adhoc === undefined)) {
      ctx.addIssue({ code: "custom", path: ["sampleId"], message: "Pick a sample, or a video and a question" });
    }
    const keys = v.models.map((m) => `${m.modelId}|${m.mode}|${m.k}|${JSON.stringify(m.knobs)}`);
    if (new Set(keys).size !== keys.length) {
      ctx.addIssue({ code: "custom", path: ["models"], message: "The same model and settings are listed twice" });
    }
  });
export type EvalCompareRunInput = z.infer<typeof evalCompareRunInput>;

export const evalCompareRunOutput = z.object({
  sampleId: z.string(),
  group: z.object({ id: z.string(), name: z.string() }),
  runs: z.array(runOutput),
});
