import { z } from "zod";
import { id, projectRef, storable } from "./common";

export const MODEL_KINDS = ["NANO_CHECKPOINT", "OPENAI_COMPATIBLE", "EXTERNAL"] as const;

const name = storable(z.string().trim().min(1, "Give the model a name").max(120));

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
});

export const modelRefInput = projectRef.extend({ modelId: id });

export const modelOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(MODEL_KINDS),
  config: z.record(z.string(), z.unknown()),
  hasApiKey: z.boolean(),
  createdAt: z.date(),
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
