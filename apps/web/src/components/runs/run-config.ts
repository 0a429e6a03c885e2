// A run's resolved config, its summary of metrics, the diff of resolved configs and the launch
// form state a "Relaunch with changes" starts from. Pure, so the run page, the overlay's config
// diff and their unit test see the same values. Defaults come from one definition each: the
// launch contracts (sftRunConfig, rlRunConfig, evalKnobs) and the RL form's preset knobs
// (presetOverrides: the trainer defaults and the SPEC §2 recipe weights).
import {
  evalKnobs,
  flattenConfig,
  metricGoal,
  RUN_CONFIG_RECORD_KEYS,
  rlRunConfig,
  sftRunConfig,
  type EvalMode,
  type RunAttempt,
} from "@paravt/shared";
import { initialLaunchForm, type LaunchFormState } from "../evals/launch-form-state";
import { OVERRIDE_FIELDS, presetOverrides, type RlFormState } from "../training/rl-launch-state";

/** Keys the page shows apart (the worker and attempts). */
const NOT_SETTINGS = new Set(RUN_CONFIG_RECORD_KEYS);

function withoutNonSettings(config: unknown): Record<string, unknown> {
  const c = config !== null && typeof config === "object" && !Array.isArray(config) ? config : {};
  return Object.fromEntries(Object.entries(c).filter(([k]) => !NOT_SETTINGS.has(k)));
}

/**
 * A run's config with every default filled in: a training run's knobs it left out get the value
 * its job trains with, an eval's knobs the contract's. A config its kind's schema does not accept
 * (an older run, an external one) is shown as stored.
 */
export function resolveRunConfig(kind: string, config: unknown): Record<string, unknown> {
  const stored = withoutNonSettings(config);
  if (kind === "sft") {
    const p = sftRunConfig.safeParse(stored);
    return p.success ? { ...stored, ...p.data } : stored;
  }
  if (kind === "rl") {
    const p = rlRunConfig.safeParse(stored);
    if (!p.success) return stored;
    const knobs = presetOverrides(p.data.preset, p.data.overrides.maxNewTokens);
    const defaults = Object.fromEntries(Object.entries(knobs).map(([k, v]) => [k, Number(v)]));
    return { ...stored, ...p.data, overrides: { ...defaults, ...p.data.overrides } };
  }
  if (kind === "eval") {
    const k = evalKnobs.safeParse((stored as { knobs?: unknown }).knobs ?? {});
    return k.success ? { ...stored, knobs: k.data } : stored;
  }
  return stored;
}

/** The resolved config as dotted rows, in key order. */
export function resolvedRows(kind: string, config: unknown): { key: string; value: string }[] {
  const flat = flattenConfig(resolveRunConfig(kind, config));
  return Object.keys(flat)
    .sort()
    .map((key) => ({ key, value: flat[key]! }));
}

export interface ConfigDiff {
  /** Dotted keys whose resolved values differ; values JSON-encoded, null when absent. */
  rows: { key: string; values: (string | null)[] }[];
  /** Keys equal in every run (not listed). */
  same: number;
}

/** Resolved configs side by side: only real differences (a default left out equals the value typed). */
export function diffRunConfigs(runs: readonly { kind: string; config: unknown }[]): ConfigDiff {
  const flat = runs.map((r) => flattenConfig(resolveRunConfig(r.kind, r.config)));
  const keys = [...new Set(flat.flatMap((f) => Object.keys(f)))].sort();
  const rows: ConfigDiff["rows"] = [];
  let same = 0;
  for (const key of keys) {
    const values = flat.map((f) => f[key] ?? null);
    if (values.every((v) => v === values[0])) same++;
    else rows.push({ key, values });
  }
  return { rows, same };
}

// ----- summary -------------------------------------------------------------------------------

export interface MetricSummary {
  name: string;
  /** Whether lower is better (losses) or higher (rewards, rates). */
  goal: "min" | "max";
  last: { step: number; value: number };
  best: { step: number; value: number };
}

/** The series a training summary reports, train and validation (`val_`), in this order. */
/** The series a run page summarizes; their direction (best = lowest or highest) is `metricGoal`'s. */
const SUMMARY_SERIES: readonly string[] = [
  "loss",
  "token_accuracy",
  "reward_mean",
  "format_compliance",
  "tool_call_rate",
];

export const SUMMARY_METRIC_NAMES: readonly string[] = SUMMARY_SERIES.flatMap((s) => [s, `val_${s}`]);

/**
 * Final and best value of each summary series present (best: lowest loss, highest reward or
 * rate; the earliest step on a tie). Points may come in any order; non-finite values are skipped.
 */
export function trainingSummary(
  series: readonly { name: string; points: readonly { step: number; value: number }[] }[],
): MetricSummary[] {
  const byName = new Map(series.map((s) => [s.name, s.points]));
  const out: MetricSummary[] = [];
  for (const name of SUMMARY_METRIC_NAMES) {
    const points = (byName.get(name) ?? []).filter((p) => Number.isFinite(p.value));
    if (points.length === 0) continue;
    // Each summary series has a direction (contracts/runs.ts; runs.test.ts checks these five).
    const goal = metricGoal(name)!;
    let last = points[0]!;
    let best = points[0]!;
    for (const p of points) {
      if (p.step >= last.step) last = p;
      const better = goal === "min" ? p.value < best.value : p.value > best.value;
      if (better || (p.value === best.value && p.step < best.step)) best = p;
    }
    out.push({
      name,
      goal,
      last: { step: last.step, value: last.value },
      best: { step: best.step, value: best.value },
    });
  }
  return out;
}

/** Seconds between start and end (or now for a run still going); null before it started. */
export function runDurationS(startedAt: Date | null, finishedAt: Date | null, now: Date = new Date()): number | null {
  if (!startedAt) return null;
  return Math.max(0, Math.round(((finishedAt ?? now).getTime() - startedAt.getTime()) / 1000));
}

export function formatDuration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${sec}s` : `${sec}s`;
}

/** One line of the run page's attempt table (issue 39 item 6). */
export interface AttemptRow {
  key: string;
  /** "1", "2", … or "shards" (a worker process that ran shards of an evaluation). */
  attempt: string;
  worker: string;
  /** Backend and device ("cuda · NVIDIA H200"), or "not announced" (an in-process test worker). */
  core: string;
  queue: string;
  /** UTC, to the second: the same text on every machine. */
  started: string;
  /** Start to end; "" while it runs. */
  took: string;
  outcome: string;
  reason: string | null;
}

/**
 * The run's attempts as the run page lists them, oldest first. `runFinished`: an attempt without
 * an outcome is then not running (a row from before outcomes were kept, or a worker lost at the end).
 */
export function attemptRows(attempts: readonly RunAttempt[], runFinished: boolean): AttemptRow[] {
  return attempts.map((a, i) => {
    const started = new Date(a.startedAt);
    const took = a.endedAt
      ? formatDuration(Math.max(0, Math.round((new Date(a.endedAt).getTime() - started.getTime()) / 1000)))
      : "";
    return {
      key: `${i}-${a.startedAt}`,
      attempt: a.attempt !== undefined ? String(a.attempt) : "shards",
      worker: `${a.host} · pid ${a.pid}`,
      core: a.backend ? [a.backend, a.device].filter(Boolean).join(" · ") : "not announced",
      queue: a.queue ?? "—",
      started: `${started.toISOString().slice(0, 19).replace("T", " ")} UTC`,
      took,
      outcome: a.outcome ?? (a.attempt === undefined ? "ran shards" : runFinished ? "no end recorded" : "running"),
      reason: a.reason ?? null,
    };
  });
}

// ----- relaunch ------------------------------------------------------------------------------

/** Where "Relaunch with changes" goes: the launch form, which reads `from` and pre-fills itself. */
export function relaunchHref(projectId: string, run: { id: string; kind: string; config: unknown }): string | null {
  const datasetId = (run.config as { datasetId?: unknown } | null)?.datasetId;
  if ((run.kind === "sft" || run.kind === "rl") && typeof datasetId === "string") {
    return `/projects/${projectId}/datasets/${datasetId}?from=${encodeURIComponent(run.id)}`;
  }
  if (run.kind === "eval") return `/projects/${projectId}/evals?from=${encodeURIComponent(run.id)}`;
  return null;
}

/** The `from` run id of a launch page's URL search, if any. */
export function relaunchFrom(search: string): string | null {
  const from = new URLSearchParams(search).get("from");
  return from && from.trim() ? from.trim() : null;
}

const copyName = (name: unknown, fallback: string) =>
  `${typeof name === "string" && name ? name : fallback} (relaunch)`.slice(0, 120);

/** The SFT form's fields from a run (the form's inputs take these as their initial values). */
export function sftFormFromRun(config: unknown): {
  name: string;
  preset: string;
  steps: number;
  batchSize: number;
  lr: number;
} | null {
  const p = sftRunConfig.safeParse(withoutNonSettings(config));
  if (!p.success) return null;
  return {
    name: copyName(p.data.name, "sft"),
    preset: p.data.preset,
    steps: p.data.steps,
    batchSize: p.data.batchSize,
    lr: p.data.lr,
  };
}

/** The RL form's state from a run: every knob as it ran (resolved), the dataset and start model. */
export function rlFormFromRun(config: unknown): RlFormState | null {
  const p = rlRunConfig.safeParse(withoutNonSettings(config));
  if (!p.success) return null;
  const c = p.data;
  const knobs = presetOverrides(c.preset, c.overrides.maxNewTokens);
  const overrides = { ...knobs };
  for (const f of OVERRIDE_FIELDS) {
    const v = c.overrides[f.key];
    if (v !== undefined) overrides[f.key] = String(v);
  }
  return {
    name: copyName(c.name, "grpo"),
    datasetId: c.datasetId,
    modelId: c.modelId ?? "",
    preset: c.preset,
    steps: String(c.steps),
    checkpointEvery: String(c.checkpointEvery),
    seed: String(c.seed),
    keepRolloutsPerStep: String(c.keepRolloutsPerStep),
    overrides,
  };
}

/** The eval launch form's state from one eval run: its model, dataset, mode, K and knobs. */
export function evalFormFromRun(config: unknown): LaunchFormState | null {
  const c = withoutNonSettings(config) as {
    group?: { name?: unknown };
    modelId?: unknown;
    datasetId?: unknown;
    mode?: unknown;
    k?: unknown;
    knobs?: unknown;
    shardSize?: unknown;
    split?: unknown;
    sampleLimit?: unknown;
  };
  if (typeof c.modelId !== "string" || typeof c.datasetId !== "string" || typeof c.k !== "number") return null;
  const knobs = evalKnobs.safeParse(c.knobs ?? {});
  if (!knobs.success) return null;
  const k = knobs.data;
  const base = initialLaunchForm(copyName(c.group?.name, "eval"));
  return {
    ...base,
    modelIds: [c.modelId],
    datasetIds: [c.datasetId],
    ...(typeof c.mode === "string" ? { modes: [c.mode as EvalMode] } : {}),
    ks: [c.k],
    knobs: {
      temperature: String(k.temperature),
      maxTokens: String(k.maxTokens),
      maxTurns: String(k.maxTurns),
      maxParallel: String(k.maxParallel),
    },
    thinkPrefix: k.thinkPrefix,
    dispatch: k.dispatch,
    requestStyle: k.requestStyle,
    videoChannel: k.videoChannel,
    subtitles: k.subtitles,
    promptPreset: (k.promptPreset ?? "") as LaunchFormState["promptPreset"],
    ...(typeof c.shardSize === "number" ? { shardSize: String(c.shardSize) } : {}),
    ...(typeof c.split === "string" ? { split: c.split } : {}),
    ...(typeof c.sampleLimit === "number" ? { sampleLimit: String(c.sampleLimit) } : {}),
  };
}
