import { z } from "zod";
import { id, projectRef, storable } from "./common";

export const MODEL_KINDS = ["NANO_CHECKPOINT", "OPENAI_COMPATIBLE", "EXTERNAL"] as const;

const name = storable(z.string().trim().min(1, "Give the model a name").max(120));
/** What a model is, in a line (any kind; stored in its config as `description`). */
export const modelDescription = storable(z.string().trim().max(500, "At most 500 characters"));

/**
 * How long an eval waits on an OpenAI-compatible endpoint, per request attempt, and how often it
 * retries a transient failure (network, timeout, 429, 5xx). Without these an endpoint that hangs
 * held a sample for ~20 minutes (300 s x 4 attempts). A non-streamed completion sends its headers
 * only once generated, so the first-byte bound must cover a whole generation; it is at most 300 s
 * because Node's fetch gives up on headers then by itself. Models stored before these settings
 * existed get the defaults.
 */
export const ENDPOINT_LIMIT_DEFAULTS = { firstByteTimeoutS: 120, totalTimeoutS: 600, retries: 2 } as const;
const limitFields = {
  firstByteTimeoutS: z
    .int("The first-byte timeout is a whole number of seconds")
    .min(1, "The first-byte timeout is at least 1 s")
    .max(300, "The first-byte timeout is at most 300 s"),
  totalTimeoutS: z
    .int("The total timeout is a whole number of seconds")
    .min(1, "The total timeout is at least 1 s")
    .max(3600, "The total timeout is at most 3600 s"),
  retries: z.int("Retries is a whole number").min(0, "Retries cannot be negative").max(10, "At most 10 retries"),
};
export const endpointLimits = z.object({
  firstByteTimeoutS: limitFields.firstByteTimeoutS.default(ENDPOINT_LIMIT_DEFAULTS.firstByteTimeoutS),
  totalTimeoutS: limitFields.totalTimeoutS.default(ENDPOINT_LIMIT_DEFAULTS.totalTimeoutS),
  retries: limitFields.retries.default(ENDPOINT_LIMIT_DEFAULTS.retries),
});
/** A change of some limits of a stored endpoint (the others keep their stored values). */
export const endpointLimitsPatch = z.object(limitFields).partial();
export type EndpointLimits = z.infer<typeof endpointLimits>;
const firstByteWithinTotal = {
  check: (c: EndpointLimits) => c.firstByteTimeoutS <= c.totalTimeoutS,
  params: { path: ["firstByteTimeoutS"], error: "The first-byte timeout cannot exceed the total timeout" },
};
/** The limits stored in a model's config (defaults for what is absent), validated. */
export const storedEndpointLimits = endpointLimits.refine(firstByteWithinTotal.check, firstByteWithinTotal.params);

/** Per-kind settings; secrets never live here (they are write-only, encrypted at rest). */
export const modelConfigInput = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("OPENAI_COMPATIBLE"),
      baseUrl: z.url("Enter the server's base URL, e.g. http://gpu-node:8000/v1"),
      servedModel: z.string().trim().min(1, "Enter the model name the server serves").max(200),
      ...endpointLimits.shape,
    })
    .refine(firstByteWithinTotal.check, firstByteWithinTotal.params),
  z.object({
    kind: z.literal("NANO_CHECKPOINT"),
    checkpoint: z.string().trim().min(1, "Enter the checkpoint directory").max(4096),
  }),
  z.object({
    kind: z.literal("EXTERNAL"),
    description: z.string().trim().max(500).default(""),
  }),
]);
export type ModelConfigInput = z.infer<typeof modelConfigInput>;
/** What a caller may send: the endpoint limits may be left out (their defaults apply). */
export type ModelConfigDraft = z.input<typeof modelConfigInput>;

export const modelCreateInput = projectRef.extend({
  name,
  config: modelConfigInput,
  /** API key of an OpenAI-compatible endpoint; stored encrypted and never returned. */
  apiKey: z.string().min(1).max(4096).optional(),
});

export const modelUpdateInput = projectRef.extend({
  modelId: id,
  name: name.optional(),
  /** A new key replaces the stored one; null removes it. */
  apiKey: z.string().min(1).max(4096).nullable().optional(),
  /** New timeouts / retries of an OpenAI-compatible endpoint; the ones left out are kept. */
  limits: endpointLimitsPatch.optional(),
  /** A short free text shown under the name (stored in the model's config; "" clears it). */
  description: modelDescription.optional(),
});

export const modelRefInput = projectRef.extend({ modelId: id });

// What a ParaVT-nano checkpoint's config.json says of its weights: trained Ks, measured quality
// and lineage. The checkpoint format's own schema is packages/nano/src/checkpoint.ts (strict, with
// every check); this is its shape as the API shows it, here because the contracts are client-safe
// and @paravt/shared does not depend on @paravt/nano. contracts/models.test.ts parses the
// committed checkpoints with it, so a renamed field fails there.
const fraction = z.number().min(0).max(1);
const suiteRecipe = z.object({
  name: z.string(),
  seed: z.number().int().nullable(),
  count: z.number().int().nullable(),
  /** Its other `paravt suite generate` options as typed ("" for none). */
  options: z.string(),
});
export const lineageStage = z.object({
  name: z.string(),
  /** "paravt nano train" (the compute core) or "research/torch/train_sft.py" (the PyTorch mirror). */
  trainer: z.string(),
  /** The command line after the trainer, as run. */
  arguments: z.union([z.array(z.string()), z.string()]),
  data: z.object({
    description: z.string(),
    suite: suiteRecipe.optional(),
    examples: z.number().int().optional(),
    /** The data fingerprint, where known. */
    dataHash: z.string().nullable(),
  }),
  steps: z.number().int(),
  batch: z.number().int(),
  seed: z.number().int(),
  hardware: z.string(),
  minutes: z.number().nullable(),
  /** sha256 of the model.safetensors the stage started from; null for a cold start or when not kept. */
  parentHash: z.string().nullable(),
  /** A commit whose checkpoint directory holds this stage's weights. */
  commit: z.string().optional(),
});
export type LineageStage = z.infer<typeof lineageStage>;
export const qualityMeasurement = z.object({
  suite: z.string(),
  k: z.number().int(),
  /** With tools (agentic_general, max_turns 3) or without (max_turns 0); null when not recorded. */
  tools: z.boolean().nullable(),
  questions: z.number().int(),
  formatCompliance: fraction,
  score: fraction,
  byType: z.object({ mcq: fraction, oe: fraction, tvg: fraction }).partial().optional(),
});
export type QualityMeasurement = z.infer<typeof qualityMeasurement>;
export const checkpointQuality = z.object({
  /** YYYY-MM-DD; null when the record gives no date. */
  date: z.string().nullable(),
  method: z.string(),
  /** The held-out suites measured on. */
  suites: z.array(suiteRecipe),
  measurements: z.array(qualityMeasurement),
});
export type CheckpointQuality = z.infer<typeof checkpointQuality>;
/** The provenance keys of a checkpoint's config.json (each absent in checkpoints older than it). */
export const checkpointProvenance = z.object({
  trainedKs: z.array(z.number().int().positive()).optional(),
  quality: checkpointQuality.optional(),
  lineage: z.array(lineageStage).optional(),
});

/** A NANO_CHECKPOINT model's checkpoint, read from its directory when the model is listed. */
export const nanoCheckpointInfo = z.object({
  /** The first 8 hex digits of `modelHash`: which weights, shown next to the model's name. */
  shortId: z.string().nullable(),
  /** sha256 of model.safetensors (what a child stage records as its parentHash). */
  modelHash: z.string().nullable(),
  /** The overview K values it was trained on; null when its config.json does not say. */
  trainedKs: z.array(z.number().int()).nullable(),
  quality: checkpointQuality.nullable(),
  /** Its training stages, first to last; null when its config.json does not say. */
  lineage: z.array(lineageStage).nullable(),
  /** Why the checkpoint could not be read (the other fields are then null). */
  problem: z.string().nullable(),
});
export type NanoCheckpointInfo = z.infer<typeof nanoCheckpointInfo>;

export const modelOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(MODEL_KINDS),
  config: z.record(z.string(), z.unknown()),
  hasApiKey: z.boolean(),
  createdAt: z.date(),
  /** NANO_CHECKPOINT only (null otherwise): trained Ks, quality and lineage from the checkpoint itself. */
  nano: nanoCheckpointInfo.nullable(),
  /** The config's `description` ("" when none). */
  description: z.string(),
  /** The train.sft / train.rl run that registered it (its config's `runId`), null for one added by hand. */
  producedByRunId: z.string().nullable(),
  /** The evaluations that ran it, newest first (at most 5). */
  evaluations: z.array(z.object({ groupId: z.string(), name: z.string(), createdAt: z.date() })),
});
export type ModelOutput = z.infer<typeof modelOutput>;

const imageCheck = z.union([
  z.object({
    ok: z.literal(true),
    /** The start of the model's answer. */
    answer: z.string(),
    /** The field a server-side reasoning parser filled, null when none. */
    reasoningField: z.enum(["reasoning", "reasoning_content"]).nullable(),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** What probing an OpenAI-compatible endpoint found (server/endpoint-probe.ts); stored in the model's config as `probe`. */
export const endpointProbe = z.object({
  probedAt: z.string(),
  durationMs: z.number(),
  /** Model ids of GET /models. */
  modelIds: z.array(z.string()),
  modelsError: z.string().nullable(),
  servedModelListed: z.boolean(),
  /** The served model's context length when the server tells it (vLLM, SGLang). */
  maxModelLen: z.number().int().nullable(),
  oneImage: imageCheck,
  severalImages: imageCheck,
  /** `reasoning` / `reasoning_content` when the server runs a reasoning parser. */
  reasoningParser: z.enum(["reasoning", "reasoning_content"]).nullable(),
  warnings: z.array(z.string()),
});
export type EndpointProbe = z.infer<typeof endpointProbe>;
