// A ParaVT-nano checkpoint is a directory:
//
//   config.json            {format, formatVersion, model (ModelConfig), tokenizer {version, hash, size},
//                           training {step, seed, rng {algorithm, state}, dataCursor, optimizer | null}}
//   tokenizer.json         the tokenizer's vocab JSON (so the checkpoint is self-contained)
//   model.safetensors      every parameter of parameterLayout(model), F32, in layout order
//   optimizer.safetensors  AdamW moments `m.<param>` / `v.<param>`, only when training.optimizer is set
//
// Everything a deterministic trainer needs to continue the same loss curve is here: parameters,
// moments, step (Adam's bias correction), RNG state and data cursor. Saving writes a temporary
// directory and renames it, so a crash never leaves half a checkpoint; loading cross-checks every
// file against config.json and throws a CheckpointError naming the file and the mismatch.
//
// config.json may also say where the weights come from (optional: checkpoints written before
// these keys load as before): `trainedKs` (the overview K values it was trained on), `quality`
// (what was measured of it on held-out suites) and `lineage` (every training stage, first to
// last, each naming the sha256 of its parent's model.safetensors). The workbench shows them on
// the Model row and the eval launch form warns from them (packages/shared services/models-nano.ts).

import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { elementCount, ModelConfigSchema, parameterLayout, type ModelConfig } from "./config";
import { decodeSafetensors, encodeSafetensors, SafetensorsError, type TensorMap } from "./safetensors";
import { Tokenizer, TokenizerError } from "./tokenizer";

export const CHECKPOINT_FORMAT = "paravt-nano-checkpoint";
export const CHECKPOINT_FORMAT_VERSION = 1;
export const CONFIG_FILE = "config.json";
export const TOKENIZER_FILE = "tokenizer.json";
export const MODEL_FILE = "model.safetensors";
export const OPTIMIZER_FILE = "optimizer.safetensors";

const u32 = z.number().int().min(0).max(0xffffffff);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 hex digest");

export const TrainingStateSchema = z.strictObject({
  /** Optimizer steps taken. */
  step: z.number().int().min(0),
  /** The run's seed. */
  seed: u32,
  /** The trainer's RNG state after `step` steps (e.g. Mulberry32: one word). */
  rng: z.strictObject({ algorithm: z.string().min(1), state: z.array(u32).min(1) }),
  /** Where the next batch starts: epoch, position in that epoch's order, and which data (datasetHash). */
  dataCursor: z.strictObject({
    epoch: z.number().int().min(0),
    position: z.number().int().min(0),
    datasetHash: sha256.nullable(),
  }),
  /** AdamW hyper-parameters; null when the checkpoint carries no moments (inference export, step 0). */
  optimizer: z
    .strictObject({
      kind: z.literal("adamw"),
      lr: z.number().nonnegative(),
      beta1: z.number().min(0).lt(1),
      beta2: z.number().min(0).lt(1),
      eps: z.number().positive(),
      weightDecay: z.number().nonnegative(),
      gradClip: z.number().positive().nullable(),
    })
    .nullable(),
});
export type TrainingState = z.output<typeof TrainingStateSchema>;

const positiveInt = z.number().int().positive();
const fraction = z.number().min(0).max(1);

/** A needle suite as `paravt suite generate` made it: seed, video count and the options that shape its questions and oracle. */
export const SuiteRecipeSchema = z.strictObject({
  /** Its directory name in the records, e.g. "sco400", "heldout120tf". */
  name: z.string().min(1),
  /** null when the record does not give it. */
  seed: u32.nullable(),
  count: positiveInt.nullable(),
  /** Its other `suite generate` options as typed, e.g. "--when-answer mmss --option-style text-first" ("" for none). */
  options: z.string(),
});
export type SuiteRecipe = z.output<typeof SuiteRecipeSchema>;

/** One training stage of a checkpoint's lineage. */
export const LineageStageSchema = z.strictObject({
  /** The stage's name in the records (README, research log), e.g. "scratch-fg", "o1". */
  name: z.string().min(1),
  /** What trained it: "paravt nano train" (the compute core) or "research/torch/train_sft.py" (the PyTorch mirror). */
  trainer: z.string().min(1),
  /** Its command line after the trainer as it was run (that day's flags; shell variables expanded), or in words. */
  arguments: z.union([z.array(z.string()), z.string().min(1)]),
  data: z.strictObject({
    /** In words: the suite, the export and its drills. */
    description: z.string().min(1),
    /** The suite its examples were made from, when one. */
    suite: SuiteRecipeSchema.optional(),
    /** SFT examples in the set, where recorded. */
    examples: positiveInt.optional(),
    /** The data fingerprint (what a checkpoint's `training.dataCursor.datasetHash` records), where known. */
    dataHash: sha256.nullable(),
  }),
  steps: z.number().int().min(0),
  batch: positiveInt,
  /** The stage's data-order seed. */
  seed: u32,
  /** Where it ran, e.g. "2-core VM CPU", "1x H100 (beside three other runs)". */
  hardware: z.string().min(1),
  /** Wall-clock minutes of training, as recorded; null when not recorded. */
  minutes: z.number().nonnegative().nullable(),
  /** sha256 of the model.safetensors it started from; null for a cold start or when that file was not kept. */
  parentHash: sha256.nullable(),
  /** A repository commit whose checkpoint directory holds this stage's weights, where the records give one. */
  commit: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/, "a git commit id")
    .optional(),
});
export type LineageStage = z.output<typeof LineageStageSchema>;

/** One measured row: a held-out suite at one K, with or without tools. */
export const QualityMeasurementSchema = z.strictObject({
  /** A name of `quality.suites`. */
  suite: z.string().min(1),
  k: positiveInt,
  /** With tools (agentic_general, max_turns 3) or without (max_turns 0); null when the record does not say. */
  tools: z.boolean().nullable(),
  questions: positiveInt,
  /** SPEC §2 format compliance of the main agent's turns (`formatVerdict`). */
  formatCompliance: fraction,
  /** Mean score: mcq / oe correctness (oe by token F1), hull IoU for `when`. */
  score: fraction,
  /** The score per question type, where measured. */
  byType: z.strictObject({ mcq: fraction, oe: fraction, tvg: fraction }).partial().optional(),
});
export type QualityMeasurement = z.output<typeof QualityMeasurementSchema>;

/** What was measured of these weights (never inherited: a new stage is new weights). */
export const CheckpointQualitySchema = z
  .strictObject({
    /** When it was measured (YYYY-MM-DD); null when the record gives no date. */
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
      .nullable(),
    /** How: runner, prompt mode, settings. */
    method: z.string().min(1),
    /** The held-out suites the measurements name (never trained on). */
    suites: z.array(SuiteRecipeSchema).min(1),
    measurements: z.array(QualityMeasurementSchema).min(1),
  })
  .refine((q) => q.measurements.every((m) => q.suites.some((s) => s.name === m.suite)), {
    error: "every measurement names one of `suites`",
    path: ["measurements"],
  });
export type CheckpointQuality = z.output<typeof CheckpointQualitySchema>;

/** Overview K values, ascending, each once. */
const trainedKsSchema = z
  .array(positiveInt)
  .min(1)
  .refine((ks) => ks.every((k, i) => i === 0 || k > ks[i - 1]!), "ascending, each K once");

export const CheckpointConfigSchema = z.strictObject({
  format: z.literal(CHECKPOINT_FORMAT),
  formatVersion: z.literal(CHECKPOINT_FORMAT_VERSION),
  model: ModelConfigSchema,
  tokenizer: z.strictObject({ version: z.number().int().positive(), hash: sha256, size: z.number().int().positive() }),
  training: TrainingStateSchema,
  /** The overview K values of the main-agent trajectories it was trained on, over its whole lineage. */
  trainedKs: trainedKsSchema.optional(),
  quality: CheckpointQualitySchema.optional(),
  /** Every training stage, first to last; the last one made these weights. */
  lineage: z.array(LineageStageSchema).min(1).optional(),
});
export type CheckpointConfig = z.output<typeof CheckpointConfigSchema>;

/** Where a checkpoint's weights come from (config.json; each absent in checkpoints written before it existed). */
export type Provenance = Pick<CheckpointConfig, "trainedKs" | "quality" | "lineage">;

export interface Moments {
  m: TensorMap;
  v: TensorMap;
}

export interface Checkpoint extends Provenance {
  config: ModelConfig;
  tokenizer: Tokenizer;
  params: TensorMap;
  training: TrainingState;
  /** Present exactly when `training.optimizer` is set. */
  moments: Moments | null;
}

export type CheckpointErrorCode =
  | "MISSING_FILE"
  | "EXISTS"
  | "BAD_CONFIG"
  | "BAD_TOKENIZER"
  | "TOKENIZER_MISMATCH"
  | "CONFIG_MISMATCH"
  | "CORRUPT_TENSORS"
  | "MISSING_TENSOR"
  | "UNEXPECTED_TENSOR"
  | "SHAPE_MISMATCH"
  | "DTYPE_MISMATCH";

export class CheckpointError extends Error {
  override name = "CheckpointError";
  constructor(
    readonly code: CheckpointErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const shapeText = (s: readonly number[]) => `[${s.join(", ")}]`;

/**
 * Checks a tensor map against the layout of `config`: every parameter present, F32, with its
 * shape, and nothing else; `file` names the source in errors.
 */
export function checkParameters(config: ModelConfig, tensors: TensorMap, file = MODEL_FILE): void {
  const layout = parameterLayout(config);
  const wanted = new Set(layout.map((p) => p.name));
  for (const p of layout) {
    const name = p.name;
    const t = tensors.get(name);
    if (!t) throw new CheckpointError("MISSING_TENSOR", `${file}: tensor ${name} ${shapeText(p.shape)} is missing`);
    if (t.dtype !== "F32")
      throw new CheckpointError("DTYPE_MISMATCH", `${file}: tensor ${name} is ${t.dtype}, expected F32`);
    if (t.shape.length !== p.shape.length || t.shape.some((d, i) => d !== p.shape[i])) {
      throw new CheckpointError(
        "SHAPE_MISMATCH",
        `${file}: tensor ${name} has shape ${shapeText(t.shape)} but the config (V=${config.vocabSize}, T=${config.contextLength}, C=${config.width}, L=${config.layers}, P=${config.frameFeatures}) needs ${shapeText(p.shape)}`,
      );
    }
    if (t.data.length !== elementCount(p.shape)) {
      throw new CheckpointError(
        "SHAPE_MISMATCH",
        `${file}: tensor ${name} has ${t.data.length} values for shape ${shapeText(p.shape)}`,
      );
    }
  }
  for (const name of tensors.keys()) {
    if (!wanted.has(name)) {
      throw new CheckpointError(
        "UNEXPECTED_TENSOR",
        `${file}: tensor ${name} is not a parameter of this config (L=${config.layers})`,
      );
    }
  }
}

function checkConsistency(c: Checkpoint): CheckpointConfig {
  const parsed = CheckpointConfigSchema.safeParse({
    format: CHECKPOINT_FORMAT,
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    model: c.config,
    tokenizer: { version: c.tokenizer.version, hash: c.tokenizer.hash, size: c.tokenizer.size },
    training: c.training,
    // After `training`, so a config.json without them reads as before these keys existed.
    ...provenanceOf(c),
  });
  if (!parsed.success) throw new CheckpointError("BAD_CONFIG", `invalid checkpoint: ${issues(parsed.error)}`);
  if (c.config.vocabSize !== c.tokenizer.size) {
    throw new CheckpointError(
      "CONFIG_MISMATCH",
      `model vocabSize ${c.config.vocabSize} differs from the tokenizer's size ${c.tokenizer.size}`,
    );
  }
  checkParameters(c.config, c.params);
  if ((c.training.optimizer === null) !== (c.moments === null)) {
    throw new CheckpointError(
      "CONFIG_MISMATCH",
      c.moments ? "moments given but training.optimizer is null" : "training.optimizer is set but no moments are given",
    );
  }
  if (c.moments) {
    checkParameters(c.config, c.moments.m, `${OPTIMIZER_FILE} (m.*)`);
    checkParameters(c.config, c.moments.v, `${OPTIMIZER_FILE} (v.*)`);
  }
  return parsed.data;
}

/** The provenance keys that are set, in config.json's order. */
function provenanceOf(p: Provenance): Provenance {
  return {
    ...(p.trainedKs !== undefined ? { trainedKs: p.trainedKs } : {}),
    ...(p.quality !== undefined ? { quality: p.quality } : {}),
    ...(p.lineage !== undefined ? { lineage: p.lineage } : {}),
  };
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Writes a checkpoint directory atomically; refuses to replace an existing one unless `overwrite`. */
export async function saveCheckpoint(dir: string, c: Checkpoint, opts: { overwrite?: boolean } = {}): Promise<void> {
  const config = checkConsistency(c);
  if (!opts.overwrite && (await exists(dir))) {
    throw new CheckpointError("EXISTS", `${dir} already exists (pass overwrite to replace it)`);
  }
  const layout = parameterLayout(c.config).map((p) => p.name);
  const ordered = (prefix: string, m: TensorMap) => layout.map((n) => [prefix + n, m.get(n)!] as const);
  const meta = { format: CHECKPOINT_FORMAT, tokenizer_hash: c.tokenizer.hash, step: String(c.training.step) };
  await mkdir(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${randomBytes(6).toString("hex")}`;
  await mkdir(tmp);
  try {
    await writeFile(join(tmp, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
    await writeFile(join(tmp, TOKENIZER_FILE), `${JSON.stringify(c.tokenizer.vocabJson())}\n`);
    await writeFile(join(tmp, MODEL_FILE), encodeSafetensors(ordered("", c.params), meta));
    if (c.moments) {
      const tensors = [...ordered("m.", c.moments.m), ...ordered("v.", c.moments.v)];
      await writeFile(join(tmp, OPTIMIZER_FILE), encodeSafetensors(tensors, meta));
    }
    if (await exists(dir)) {
      const old = `${dir}.old-${randomBytes(6).toString("hex")}`;
      await rename(dir, old);
      await rename(tmp, dir);
      await rm(old, { recursive: true, force: true });
    } else await rename(tmp, dir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function readIn(dir: string, file: string): Promise<Buffer> {
  try {
    return await readFile(join(dir, file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      throw new CheckpointError("MISSING_FILE", `${join(dir, file)}: missing (is ${dir} a ParaVT-nano checkpoint?)`);
    }
    throw e;
  }
}

function readTensors(bytes: Uint8Array, path: string): { tensors: TensorMap; metadata: Record<string, string> } {
  try {
    return decodeSafetensors(bytes, path);
  } catch (e) {
    if (e instanceof SafetensorsError) throw new CheckpointError("CORRUPT_TENSORS", e.message, { cause: e });
    throw e;
  }
}

function checkMetadata(meta: Record<string, string>, config: CheckpointConfig, path: string): void {
  if (meta.tokenizer_hash !== config.tokenizer.hash || meta.step !== String(config.training.step)) {
    throw new CheckpointError(
      "CONFIG_MISMATCH",
      `${path}: written for tokenizer ${meta.tokenizer_hash ?? "?"} at step ${meta.step ?? "?"}, but config.json records tokenizer ${config.tokenizer.hash} at step ${config.training.step} (files of different checkpoints?)`,
    );
  }
}

/** What differs between two tokenizers, for error messages. */
export function describeTokenizerDifference(a: Tokenizer, b: Tokenizer): string {
  const n = Math.max(a.pieces.length, b.pieces.length);
  let first = -1;
  let differing = 0;
  for (let i = 0; i < n; i++) {
    if (a.pieces[i] !== b.pieces[i]) {
      differing++;
      if (first < 0) first = i;
    }
  }
  if (first < 0) return "same pieces";
  const show = (t: Tokenizer) => JSON.stringify(t.pieces[first] ?? null);
  return `${differing} piece ids differ, the first at piece ${first}: ${show(a)} vs ${show(b)}`;
}

export interface LoadOptions {
  /** The tokenizer the caller will encode with; refused unless it is the checkpoint's (same hash). */
  tokenizer?: Tokenizer;
  /** Read optimizer moments (default true). */
  moments?: boolean;
}

/** Reads and cross-checks a checkpoint directory. */
/** A checkpoint's config.json, parsed and schema-checked (BAD_CONFIG naming the file otherwise). */
async function readCheckpointConfig(dir: string): Promise<CheckpointConfig> {
  const configPath = join(dir, CONFIG_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse((await readIn(dir, CONFIG_FILE)).toString("utf8"));
  } catch (e) {
    if (e instanceof CheckpointError) throw e;
    throw new CheckpointError("BAD_CONFIG", `${configPath}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = CheckpointConfigSchema.safeParse(raw);
  if (!parsed.success) throw new CheckpointError("BAD_CONFIG", `${configPath}: ${issues(parsed.error)}`);
  return parsed.data;
}

export async function loadCheckpoint(dir: string, opts: LoadOptions = {}): Promise<Checkpoint> {
  const configPath = join(dir, CONFIG_FILE);
  const config = await readCheckpointConfig(dir);

  const tokPath = join(dir, TOKENIZER_FILE);
  let tokenizer: Tokenizer;
  try {
    tokenizer = Tokenizer.fromVocabJson(JSON.parse((await readIn(dir, TOKENIZER_FILE)).toString("utf8")));
  } catch (e) {
    if (e instanceof CheckpointError) throw e;
    if (e instanceof TokenizerError || e instanceof SyntaxError) {
      throw new CheckpointError("BAD_TOKENIZER", `${tokPath}: ${e.message}`, { cause: e });
    }
    throw e;
  }
  if (tokenizer.hash !== config.tokenizer.hash) {
    throw new CheckpointError(
      "TOKENIZER_MISMATCH",
      `${tokPath} has hash ${tokenizer.hash} but ${CONFIG_FILE} records ${config.tokenizer.hash}`,
    );
  }
  if (tokenizer.size !== config.tokenizer.size || tokenizer.size !== config.model.vocabSize) {
    throw new CheckpointError(
      "CONFIG_MISMATCH",
      `${configPath}: vocabulary sizes disagree (tokenizer ${tokenizer.size}, tokenizer.size ${config.tokenizer.size}, model.vocabSize ${config.model.vocabSize})`,
    );
  }
  if (opts.tokenizer && opts.tokenizer.hash !== tokenizer.hash) {
    throw new CheckpointError(
      "TOKENIZER_MISMATCH",
      `${dir} was trained with tokenizer ${tokenizer.hash.slice(0, 12)} (${tokenizer.size} tokens), not the given ${opts.tokenizer.hash.slice(0, 12)} (${opts.tokenizer.size} tokens): ${describeTokenizerDifference(tokenizer, opts.tokenizer)}`,
    );
  }

  const modelPath = join(dir, MODEL_FILE);
  const model = readTensors(await readIn(dir, MODEL_FILE), modelPath);
  checkMetadata(model.metadata, config, modelPath);
  checkParameters(config.model, model.tensors, modelPath);
  const params: TensorMap = new Map(parameterLayout(config.model).map((p) => [p.name, model.tensors.get(p.name)!]));

  let moments: Moments | null = null;
  if (config.training.optimizer && (opts.moments ?? true)) {
    const optPath = join(dir, OPTIMIZER_FILE);
    const opt = readTensors(await readIn(dir, OPTIMIZER_FILE), optPath);
    checkMetadata(opt.metadata, config, optPath);
    const split = (prefix: string): TensorMap =>
      new Map([...opt.tensors].filter(([k]) => k.startsWith(prefix)).map(([k, t]) => [k.slice(prefix.length), t]));
    const stray = [...opt.tensors.keys()].find((k) => !k.startsWith("m.") && !k.startsWith("v."));
    if (stray) throw new CheckpointError("UNEXPECTED_TENSOR", `${optPath}: tensor ${stray} is neither m.* nor v.*`);
    moments = { m: split("m."), v: split("v.") };
    checkParameters(config.model, moments.m, `${optPath} (m.*)`);
    checkParameters(config.model, moments.v, `${optPath} (v.*)`);
  }
  return { config: config.model, tokenizer, params, training: config.training, moments, ...provenanceOf(config) };
}

/** sha256 (hex) of a checkpoint's model.safetensors: what a child stage records as `parentHash`. */
export async function modelFileHash(dir: string): Promise<string> {
  return createHash("sha256")
    .update(await readIn(dir, MODEL_FILE))
    .digest("hex");
}

/** What a new stage needs of the checkpoint it starts from; read once, before training. */
export interface LineageParent {
  /** Its stages ([] for a checkpoint written before lineage existed). */
  lineage: readonly LineageStage[];
  /** null when it does not say. */
  trainedKs: readonly number[] | null;
  /** sha256 of its model.safetensors. */
  modelHash: string;
}

/** Reads the lineage, trained Ks and model hash of checkpoint `dir` (config.json schema-checked, no tensors decoded). */
export async function lineageParent(dir: string): Promise<LineageParent> {
  const config = await readCheckpointConfig(dir);
  return {
    lineage: config.lineage ?? [],
    trainedKs: config.trainedKs ?? null,
    modelHash: await modelFileHash(dir),
  };
}

/** A stage as its trainer knows it: everything but the parent's hash, plus the K values it trained on. */
export type NewStage = Omit<LineageStage, "parentHash"> & { ks: readonly number[] };

/**
 * The provenance of a checkpoint that `stage` trained from `parent` (null: from scratch): the
 * parent's lineage plus this stage (its `parentHash` the parent's model hash), and the union of
 * the trained Ks (unknown when the parent's are). No `quality`: new weights are not measured yet.
 * Pure, so a trainer can call it at every checkpoint with the steps and minutes so far.
 */
export function withStage(parent: LineageParent | null, stage: NewStage): Provenance {
  const { ks, ...record } = stage;
  const lineage = [...(parent?.lineage ?? []), { ...record, parentHash: parent?.modelHash ?? null }];
  const known = parent === null ? [] : parent.trainedKs;
  const trainedKs = known === null ? [] : [...new Set([...known, ...ks])].sort((a, b) => a - b);
  return trainedKs.length ? { lineage, trainedKs } : { lineage };
}
