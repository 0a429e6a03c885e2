// Ingestion of external runs (issue 11): a trainer on another cluster (the reference ParaVT trainer
// on 8B models) creates a run here and streams its metrics and rollouts in batches. Every item
// carries a client-supplied id, so a retried batch never stores anything twice; the answer has a
// status per item. The JSON Lines form of the same items is documented in docs/ingestion-format.md.
import { z } from "zod";
import { dbInt, id, pageLimit, projectRef, storable, syncFirst } from "./common";
import { questionTypeSchema } from "./datasets";
import { MAX_K } from "./evals";
import { MAX_ROLLOUT_STEP, runOutput } from "./runs";

/** Client ids: the trainer's own (uuid, "step-12/rollout-3", …). */
const clientId = z
  .string()
  .trim()
  .min(1, "Every item needs a client id")
  .max(200, "Client ids are at most 200 characters");

/** Training runs; evaluations from elsewhere come in as reference evaluator output (evals.importReference). */
export const EXTERNAL_RUN_KINDS = ["rl", "sft"] as const;

export const externalRunCreateInput = projectRef.extend({
  /** Idempotency: creating twice with the same client id answers the first run. */
  clientId,
  name: storable(z.string().trim().min(1, "Give the run a name").max(200)),
  kind: z.enum(EXTERNAL_RUN_KINDS).default("rl"),
  /** The trainer's own configuration, kept verbatim (shown in the config diff of runs). */
  config: z.record(z.string(), z.unknown()).default({}),
  /** Samples of ingested rollouts go into this dataset; a new one named after the run otherwise. */
  datasetId: id.optional(),
});
export type ExternalRunCreateInput = z.infer<typeof externalRunCreateInput>;

export const externalRunCreateOutput = z.object({
  run: runOutput,
  datasetId: z.string(),
  /** false when the client id was already used: the existing run is answered. */
  created: z.boolean(),
});

export const externalRunStatusInput = projectRef.extend({
  runId: id,
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
  message: z.string().max(500).optional(),
  error: z.string().max(4000).optional(),
  progress: z.number().min(0).max(1).optional(),
});

// ----- metrics ------------------------------------------------------------------------------------

const metricName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w./:-]+$/, "Metric names use letters, digits and _ . / : -");

/**
 * How far a metric item's `at` may lie ahead of the server's clock (5 minutes). A point cannot
 * happen later than it is received, so a later `at` is the trainer machine's clock running ahead:
 * the point is stored at the server's time and answered `stored` with the reason (code
 * `clock_ahead`). The tolerance absorbs ordinary drift between NTP-synced machines and the time a
 * request spends queued. An `at` more than this before the run was created is kept as given (a log
 * uploaded after the fact, a follower reading a store from the start, keeps its real times) and
 * answered with the reason (code `before_run`), since it may also be a clock running behind.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 5 * 60_000;

export const metricItem = z.object({
  id: clientId,
  /** Steps are int4 in Postgres. */
  step: dbInt.min(0),
  /** name -> value; non-finite values are refused per item. */
  values: z.record(metricName, z.number()),
  /**
   * When the step happened (ISO 8601); the server's time otherwise, and also when it is more than
   * CLOCK_SKEW_TOLERANCE_MS ahead of the server's clock (answered with the reason).
   */
  at: z.iso.datetime({ offset: true }).optional(),
});
export type MetricItem = z.infer<typeof metricItem>;

export const MAX_METRIC_ITEMS = 1000;
export const metricBatchInput = syncFirst(
  projectRef.extend({
    runId: id,
    items: z.array(metricItem).min(1).max(MAX_METRIC_ITEMS, `At most ${MAX_METRIC_ITEMS} items per batch`),
  }),
);

// ----- rollouts (trajectories in our schema) -------------------------------------------------------

const toolCallItem = z.object({
  index: dbInt.min(0),
  name: z.string().max(100).default("crop_video"),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** The window of a crop call, seconds (SPEC §1.2). */
  startS: z.number().min(0).nullable().default(null),
  endS: z.number().min(0).nullable().default(null),
  clamped: z.boolean().default(false),
  frameTimestamps: z.array(z.number().min(0)).max(64).default([]),
  /** The sub-agent's summary returned as the tool response (SPEC §1.4). */
  subAgentOutput: z.string().max(20_000).nullable().default(null),
  status: z.enum(["OK", "ERROR", "REJECTED"]).default("OK"),
  error: z.string().max(4000).nullable().default(null),
});

const turnItem = z.object({
  index: dbInt.min(0),
  rawText: z.string().max(200_000),
  forcedPrefix: z.string().max(1000).nullable().default(null),
  forcedFinal: z.boolean().default(false),
  parseIssues: z.array(z.string().max(500)).max(50).default([]),
  promptTokens: dbInt.min(0).nullable().default(null),
  completionTokens: dbInt.min(0).nullable().default(null),
  toolCalls: z.array(toolCallItem).max(64).default([]),
});

export const rolloutItem = z.object({
  id: clientId,
  /** Training step of the rollout (rollouts of one step share it); 0 for an evaluation. */
  // rolloutIndex = step * 1000 + index is an int4: steps up to MAX_ROLLOUT_STEP.
  step: z.number().int().min(0).max(MAX_ROLLOUT_STEP).default(0),
  /** Position of the rollout within its step (0..999). */
  index: z.number().int().min(0).max(999).default(0),
  k: z.number().int().min(1).max(MAX_K),
  promptMode: z.string().max(50).default("agentic_general"),
  /** The question, matched to a sample of the run's dataset by key (created when new). */
  sample: z.object({
    key: z.string().trim().min(1).max(200),
    question: z.string().max(20_000),
    answer: z.string().max(2000),
    questionType: questionTypeSchema,
    options: z.array(z.string().max(1000)).max(26).optional(),
    /** A video of this project (its id), for the episode viewer's timeline. */
    videoId: id.optional(),
    /**
     * Or the video's path as the trainer read it (absolute or file://, inside the server's
     * MEDIA_ROOTS): matched to the project's video registered at that real path.
     */
    videoPath: z.string().min(1).max(4096).optional(),
  }),
  status: z.enum(["OK", "ERROR"]).default("OK"),
  error: z.string().max(4000).nullable().default(null),
  finalText: z.string().max(200_000).nullable().default(null),
  prediction: z.string().max(2000).nullable().default(null),
  correct: z.boolean().nullable().default(null),
  score: z.number().nullable().default(null),
  /** SPEC §2 terms as the trainer computed them (reward, accReward, formatReward, toolReward, …). */
  rewardTerms: z.record(z.string(), z.union([z.number(), z.boolean()])).optional(),
  overviewTimestamps: z.array(z.number().min(0)).max(MAX_K).default([]),
  turns: z.array(turnItem).max(32).default([]),
});
export type RolloutItem = z.infer<typeof rolloutItem>;
/** What a client sends (defaults not yet filled in). */
export type RolloutItemInput = z.input<typeof rolloutItem>;

export const MAX_ROLLOUT_ITEMS = 200;
export const rolloutBatchInput = syncFirst(
  projectRef.extend({
    runId: id,
    items: z.array(rolloutItem).min(1).max(MAX_ROLLOUT_ITEMS, `At most ${MAX_ROLLOUT_ITEMS} items per batch`),
  }),
);

// ----- answers ---------------------------------------------------------------------------------------

/**
 * stored: written now; duplicate: this client id (or an identical item) was stored before, nothing
 * written; conflict: something else already holds the slot (a different value for a metric's
 * step, another rollout at the same sample and index), nothing written; invalid: refused, reason given.
 */
export const INGEST_ITEM_STATUSES = ["stored", "duplicate", "conflict", "invalid"] as const;
/**
 * The kind of a per-item reason, stable for clients that group reasons (the Python SDK warns once
 * per kind, not once per item); the text says the particulars. repeated_id: the id appears earlier
 * in the batch; not_finite / no_values: a metric item without usable values; kept_stored_values:
 * stored, but some of its values differed from stored ones and were not written;
 * other_values_stored: a metric step holds other values; clock_ahead: `at` was ahead of the
 * server's clock, stored at the server's time; before_run: `at` is before the run was created,
 * kept; index_clash: two turns or calls share an index; video_not_in_project: the rollout names
 * another project's video; video_not_linked: stored without a video timeline; slot_taken: another
 * rollout holds the sample's step and index.
 */
export const INGEST_REASON_CODES = [
  "repeated_id",
  "not_finite",
  "no_values",
  "kept_stored_values",
  "other_values_stored",
  "clock_ahead",
  "before_run",
  "index_clash",
  "video_not_in_project",
  "video_not_linked",
  "slot_taken",
] as const;
export type IngestReasonCode = (typeof INGEST_REASON_CODES)[number];
export const ingestItemResult = z.object({
  id: z.string(),
  status: z.enum(INGEST_ITEM_STATUSES),
  /** Why, in words; several reasons of one item are joined with "; ". */
  reason: z.string().optional(),
  /** The kind of the (first) reason, present whenever `reason` is. */
  code: z.enum(INGEST_REASON_CODES).optional(),
});
export type IngestItemResult = z.infer<typeof ingestItemResult>;

export const ingestBatchOutput = z.object({
  counts: z.object({
    stored: z.number().int(),
    duplicate: z.number().int(),
    conflict: z.number().int(),
    invalid: z.number().int(),
  }),
  items: z.array(ingestItemResult),
});
export type IngestBatchOutput = z.infer<typeof ingestBatchOutput>;

// ----- export -------------------------------------------------------------------------------------------

export const episodeExportInput = projectRef.extend({
  runId: id,
  cursor: z.string().optional(),
  limit: pageLimit(100, 50),
});
