// The evaluation launch form as plain data: what the inputs hold (strings, as typed), the
// launch input they make, the reasons the shared schema gives per field, and the run preview.
// Pure, so the form and its unit test see exactly what the API will be sent.
import {
  evalKnobs,
  evalLaunchInput,
  evalModelProblems,
  type EvalMode,
  type MODEL_KINDS,
  type NanoCheckpointInfo,
} from "@paravt/shared";
import { headlineMeasurements, kText, measurementText, qualitySource } from "../models/nano-checkpoint-text";

/** SPEC §5 locked protocol for headline rows: the schema's own defaults (one source of truth). */
export const LOCKED_KNOBS = evalKnobs.parse({});
export const DEFAULT_SHARD_SIZE: number = evalLaunchInput.shape.shardSize.parse(undefined);
/** The K values of the paper's tables; others can be typed in. */
export const K_CHOICES = [4, 8, 16, 32, 64] as const;

export const NUMERIC_KNOBS = ["temperature", "maxTokens", "maxTurns", "maxParallel"] as const;
type NumericKnob = (typeof NUMERIC_KNOBS)[number];

export interface LaunchFormState {
  name: string;
  modelIds: string[];
  datasetIds: string[];
  modes: EvalMode[];
  ks: number[];
  /** More K values, comma or space separated. */
  otherKs: string;
  knobs: Record<NumericKnob, string>;
  thinkPrefix: boolean;
  dispatch: (typeof LOCKED_KNOBS)["dispatch"];
  /** Ours, or the reference evaluator's request (which then fixes dispatch, think prefix and preset). */
  requestStyle: (typeof LOCKED_KNOBS)["requestStyle"];
  /** Reference request only: frames from the workbench, or the file for the server to decode. */
  videoChannel: (typeof LOCKED_KNOBS)["videoChannel"];
  subtitles: boolean;
  promptPreset: "" | "generic" | "nano";
  /** Empty: every sample. */
  sampleLimit: string;
  shardSize: string;
  /** Empty: every split. */
  split: string;
}

export function initialLaunchForm(name: string): LaunchFormState {
  return {
    name,
    modelIds: [],
    datasetIds: [],
    modes: ["agentic_general"],
    ks: [64],
    otherKs: "",
    knobs: {
      temperature: String(LOCKED_KNOBS.temperature),
      maxTokens: String(LOCKED_KNOBS.maxTokens),
      maxTurns: String(LOCKED_KNOBS.maxTurns),
      maxParallel: String(LOCKED_KNOBS.maxParallel),
    },
    thinkPrefix: LOCKED_KNOBS.thinkPrefix,
    dispatch: LOCKED_KNOBS.dispatch,
    requestStyle: LOCKED_KNOBS.requestStyle,
    videoChannel: LOCKED_KNOBS.videoChannel,
    subtitles: LOCKED_KNOBS.subtitles,
    promptPreset: "",
    sampleLimit: "",
    shardSize: String(DEFAULT_SHARD_SIZE),
    split: "",
  };
}

/** A typed number; NaN when the text is not one (the schema then reports the field). */
function numberOf(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text.trim());
}

function otherKValues(text: string): { values: number[]; bad: string[] } {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  const values = tokens.map(Number);
  return { values: values.filter((v) => Number.isFinite(v)), bad: tokens.filter((t) => !Number.isFinite(Number(t))) };
}

/** The launch input the form describes (not yet validated). */
export function toLaunchInput(projectId: string, s: LaunchFormState) {
  const extra = otherKValues(s.otherKs).values;
  return {
    projectId,
    name: s.name,
    modelIds: s.modelIds,
    datasetIds: s.datasetIds,
    modes: s.modes,
    ks: [...s.ks, ...extra],
    knobs: {
      temperature: numberOf(s.knobs.temperature),
      maxTokens: numberOf(s.knobs.maxTokens),
      maxTurns: numberOf(s.knobs.maxTurns),
      maxParallel: numberOf(s.knobs.maxParallel),
      thinkPrefix: s.thinkPrefix,
      dispatch: s.dispatch,
      requestStyle: s.requestStyle,
      videoChannel: s.videoChannel,
      subtitles: s.subtitles,
      ...(s.promptPreset ? { promptPreset: s.promptPreset } : {}),
    },
    ...(s.sampleLimit.trim() ? { sampleLimit: numberOf(s.sampleLimit) } : {}),
    shardSize: numberOf(s.shardSize),
    ...(s.split.trim() ? { split: s.split.trim() } : {}),
  };
}

/** Field key of a schema issue: "knobs.temperature", "ks", "modelIds", ... */
function fieldOf(path: readonly PropertyKey[]): string {
  return path[0] === "knobs" ? `knobs.${String(path[1])}` : String(path[0] ?? "form");
}

const NUMBER_FIELDS: Record<string, (s: LaunchFormState) => string> = {
  "knobs.temperature": (s) => s.knobs.temperature,
  "knobs.maxTokens": (s) => s.knobs.maxTokens,
  "knobs.maxTurns": (s) => s.knobs.maxTurns,
  "knobs.maxParallel": (s) => s.knobs.maxParallel,
  sampleLimit: (s) => s.sampleLimit,
  shardSize: (s) => s.shardSize,
};

export interface LaunchValidation {
  /** The parsed input when every field is fine and every model can run every mode. */
  input: ReturnType<typeof evalLaunchInput.parse> | null;
  /** First reason per field key. */
  errors: Record<string, string>;
  /** evalModelProblems: a reason per chosen model that cannot run a chosen mode. */
  modelProblems: string[];
}

export function validateLaunch(
  projectId: string,
  s: LaunchFormState,
  models: readonly { id: string; name: string; kind: (typeof MODEL_KINDS)[number] }[],
): LaunchValidation {
  const parsed = evalLaunchInput.safeParse(toLaunchInput(projectId, s));
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = fieldOf(issue.path);
      errors[key] ??= issue.message;
    }
  }
  // The schema's message for NaN is about types; say what the person has to do.
  for (const [key, get] of Object.entries(NUMBER_FIELDS)) {
    const text = get(s);
    if (key === "sampleLimit" && text.trim() === "") continue; // empty limit: every sample
    if (!Number.isFinite(numberOf(text))) errors[key] = "Enter a number";
  }
  const bad = otherKValues(s.otherKs).bad;
  if (bad.length) errors.ks = `Not a number: ${bad.join(", ")}`;
  const modelProblems = evalModelProblems(
    models.filter((m) => s.modelIds.includes(m.id)),
    s.modes,
  );
  const ok = parsed.success && Object.keys(errors).length === 0 && modelProblems.length === 0;
  return { input: ok ? parsed.data : null, errors, modelProblems };
}

/** Knobs that differ from the locked protocol, by label (empty: a headline-row setting). */
export function changedFromLocked(s: LaunchFormState): string[] {
  const changed: string[] = [];
  const labels: Record<NumericKnob, string> = {
    temperature: "temperature",
    maxTokens: "max tokens",
    maxTurns: "max turns",
    maxParallel: "max parallel",
  };
  for (const k of NUMERIC_KNOBS) if (numberOf(s.knobs[k]) !== LOCKED_KNOBS[k]) changed.push(labels[k]);
  if (s.thinkPrefix !== LOCKED_KNOBS.thinkPrefix) changed.push("think prefix");
  if (s.dispatch !== LOCKED_KNOBS.dispatch) changed.push("dispatch");
  if (s.requestStyle !== LOCKED_KNOBS.requestStyle) changed.push("request style");
  return changed;
}

/** A model as the form sees it (models.list): nano checkpoints carry their trained Ks and quality. */
export interface LaunchModel {
  id: string;
  name: string;
  kind: (typeof MODEL_KINDS)[number];
  nano?: Pick<NanoCheckpointInfo, "trainedKs" | "quality"> | null;
}

export interface NanoKAdvice {
  text: string;
  /** A K every chosen nano checkpoint was trained on, the best measured one; null when there is none. */
  suggestedK: number | null;
}

/**
 * A note when a chosen ParaVT-nano checkpoint is asked for a K it was not trained on (its
 * checkpoint's `trainedKs`), with what was measured of it (its `quality`): the form starts at the
 * SPEC §5 headline K = 64, longer prompts than a small model trained on K ≤ 16 has seen, and a new
 * user should know before launching. Null when nothing to say: every K trained on, or no chosen
 * checkpoint says which K it was trained on. Advice, not an error: any K is a legitimate measurement.
 */
export function nanoKAdvice(
  s: Pick<LaunchFormState, "modelIds" | "ks" | "otherKs">,
  models: readonly LaunchModel[],
): NanoKAdvice | null {
  const ks = [...new Set([...s.ks, ...otherKValues(s.otherKs).values])].sort((a, b) => a - b);
  const known = models.filter(
    (m) => m.kind === "NANO_CHECKPOINT" && s.modelIds.includes(m.id) && (m.nano?.trainedKs?.length ?? 0) > 0,
  );
  const notes = known.flatMap((m) => {
    const trained = m.nano!.trainedKs!;
    const beyond = ks.filter((k) => !trained.includes(k));
    if (beyond.length === 0) return [];
    const q = m.nano!.quality;
    const measured = q ? headlineMeasurements(q) : [];
    const unmeasured = beyond.filter((k) => !measured.some((r) => r.k === k));
    const how =
      unmeasured.length === 0
        ? ""
        : unmeasured.length === beyond.length
          ? " (not measured)"
          : ` (${kText(unmeasured)} not measured)`;
    const untrained = `${kText(beyond)} ${beyond.length === 1 ? "is" : "are"} untrained${how}.`;
    const figures =
      q && measured.length ? ` Measured on ${qualitySource(q)}: ${measured.map(measurementText).join("; ")}.` : "";
    return [`${m.name}: trained on ${kText(trained)}, so ${untrained}${figures}`];
  });
  if (notes.length === 0) return null;
  return { text: notes.join(" "), suggestedK: suggestedK(known) };
}

/**
 * The K all these checkpoints were trained on with the best measured compliance (the lowest over
 * the models; ties: the larger K, more frames), else the largest shared trained K.
 */
function suggestedK(models: readonly LaunchModel[]): number | null {
  const shared = models.map((m) => m.nano!.trainedKs!).reduce((acc, ks) => acc.filter((k) => ks.includes(k)));
  if (shared.length === 0) return null;
  const compliance = (k: number) =>
    Math.min(
      ...models.map((m) => {
        const row = m.nano!.quality ? headlineMeasurements(m.nano!.quality).find((r) => r.k === k) : undefined;
        return row ? row.formatCompliance : -1;
      }),
    );
  return [...shared].sort((a, b) => compliance(b) - compliance(a) || b - a)[0]!;
}

export interface LaunchPreview {
  runs: number;
  /** Samples per run, per chosen dataset (after the sample limit; the split is applied at launch). */
  samplesPerRun: number[];
  episodes: number;
}

export function preview(s: LaunchFormState, datasets: readonly { id: string; sampleCount: number }[]): LaunchPreview {
  const ks = new Set([...s.ks, ...otherKValues(s.otherKs).values]).size;
  const perDatasetRuns = s.modelIds.length * s.modes.length * ks;
  const limit = Number(s.sampleLimit);
  const samplesPerRun = datasets
    .filter((d) => s.datasetIds.includes(d.id))
    .map((d) =>
      s.sampleLimit.trim() && Number.isFinite(limit) && limit > 0 ? Math.min(d.sampleCount, limit) : d.sampleCount,
    );
  return {
    runs: perDatasetRuns * samplesPerRun.length,
    samplesPerRun,
    episodes: perDatasetRuns * samplesPerRun.reduce((a, b) => a + b, 0),
  };
}

/** "6 runs × 3 samples = 18 episodes", or with a range when the datasets differ in size. */
export function previewText(p: LaunchPreview): string {
  if (p.runs === 0) return "Pick models, datasets, modes and K values to see the runs.";
  const lo = Math.min(...p.samplesPerRun);
  const hi = Math.max(...p.samplesPerRun);
  const samples = lo === hi ? `${lo} sample${lo === 1 ? "" : "s"}` : `${lo}–${hi} samples`;
  return `${p.runs} run${p.runs === 1 ? "" : "s"} × ${samples} = ${p.episodes} episodes`;
}
