// From a framework's values to ingestion items (docs/ingestion-format.md) that the API accepts:
// client ids derived from the source (so reading a file again never stores a point twice),
// metric names and values the `metrics` schema takes, texts cut to the `rollout` schema's bounds.
import { createHash } from "node:crypto";
import {
  firstAnswerBody,
  isJsonObject,
  parsePyJson,
  parseTimeValue,
  parseTrainingToolCalls,
  type JsonValue,
} from "@paravt/protocol";
import {
  MAX_K,
  MAX_ROLLOUT_STEP,
  metricItem,
  rolloutItem,
  TRAINING_ROLLOUT_STRIDE,
  type MetricItem,
  type RolloutItemInput,
} from "@paravt/shared";

export const sha = (text: string, chars = 16): string =>
  createHash("sha256").update(text).digest("hex").slice(0, chars);

/**
 * A JSON text as Python's `json.dumps` writes it: NaN, Infinity and -Infinity are bare tokens
 * there (verl's dumps, AReaL's dumps, transformers' trainer_state.json), which JSON.parse refuses.
 * Undefined when the text is not JSON.
 */
export function pyJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const r = parsePyJson(text);
    return r.ok ? r.value : undefined;
  }
}

/** Client ids are at most 200 characters (contracts/ingest.ts): a longer one keeps its head and a hash of the whole. */
export function clientId(...parts: (string | number)[]): string {
  const id = parts.join("/");
  return id.length <= 200 ? id : `${id.slice(0, 150)}~${sha(id, 40)}`;
}

/** The rollout index of a step is 0..999 (rolloutIndex = step * 1000 + index). */
export const ROLLOUTS_PER_STEP = TRAINING_ROLLOUT_STRIDE;

const METRIC_NAME = /^[\w./:-]+$/;

/**
 * A metric name the API accepts (letters, digits and `_ . / : -`, at most 100 characters). Other
 * characters become `_` (verl's `val-core/…/mean@4` is `val-core/…/mean_4`); a longer name keeps
 * its head and a hash, so two long names never merge.
 */
export function metricName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return null;
  const safe = METRIC_NAME.test(trimmed) ? trimmed : trimmed.replace(/[^\w./:-]/g, "_");
  return safe.length <= 100 ? safe : `${safe.slice(0, 91)}~${sha(safe, 8)}`;
}

export interface MetricValues {
  values: Record<string, number>;
  /** Names whose value was not a finite number (NaN, ±Infinity, the "NaN" strings trackio stores). */
  nonFinite: string[];
}

/**
 * The finite numbers of a logged dict under accepted names. Booleans, strings, tables, images and
 * other objects are not series and are left out; NaN / Infinity (as numbers or as the strings
 * trackio's `serialize_values` writes) are counted, since the API refuses them.
 */
export function metricValues(data: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): MetricValues {
  const values: Record<string, number> = {};
  const nonFinite: string[] = [];
  for (const [key, raw] of Object.entries(data)) {
    if (skip.has(key)) continue;
    const name = metricName(key);
    if (!name) continue;
    if (typeof raw === "number") {
      if (Number.isFinite(raw)) values[name] = raw;
      else nonFinite.push(key);
    } else if (raw === "NaN" || raw === "Infinity" || raw === "-Infinity" || raw === null) {
      nonFinite.push(key);
    }
  }
  return { values, nonFinite };
}

/** A metrics item, or null when the step has no finite value (the API refuses an empty item). */
export function metricsItem(id: string, step: number, values: Record<string, number>, at?: string): MetricItem | null {
  if (Object.keys(values).length === 0) return null;
  const item = { id, step, values, ...(at ? { at } : {}) };
  const parsed = metricItem.safeParse(item);
  return parsed.success ? parsed.data : null;
}

/**
 * ISO 8601 with an offset as the API takes it, from what Python writes (`isoformat()` with
 * microseconds and `+00:00`), or undefined when it is not a time.
 */
export function isoTime(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Cuts a text to `max` characters (never inside a surrogate pair); says so in `notes`. */
export function cut(text: string, max: number, what: string, notes: string[]): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  notes.push(`${what} cut from ${text.length} to ${end} characters (the ingestion limit)`);
  return text.slice(0, end);
}

export interface ParsedCall {
  index: number;
  name: string;
  arguments: Record<string, unknown>;
  startS: number | null;
  endS: number | null;
  subAgentOutput: string | null;
}

/** A crop call's window (SPEC §4: `start_time` / `end_time` in seconds, numbers or strings such as "01:05"). */
function windowOf(args: Record<string, JsonValue>): { startS: number | null; endS: number | null } {
  if (!("start_time" in args) || !("end_time" in args)) return { startS: null, endS: null };
  const s = parseTimeValue(args.start_time);
  const e = parseTimeValue(args.end_time);
  return Number.isFinite(s) && Number.isFinite(e) && s >= 0 && e >= 0
    ? { startS: s, endS: e }
    : { startS: null, endS: null };
}

/** The tool calls of a turn's text by SPEC §4's training parser (the one the RL trainer reads), with their windows. */
export function callsOfText(text: string): ParsedCall[] {
  return parseTrainingToolCalls(text)
    .slice(0, 64)
    .map((c, index) => {
      const args = isJsonObject(c.arguments) ? c.arguments : {};
      return {
        index,
        name: typeof c.name === "string" ? c.name.slice(0, 100) : "crop_video",
        arguments: args,
        ...windowOf(args),
        subAgentOutput: null,
      };
    });
}

/** The body of the first `<answer>…</answer>`, trimmed; null without one. */
export function answerOf(text: string): string | null {
  const body = firstAnswerBody(text);
  return body === null ? null : body.trim();
}

export interface RolloutDraft {
  id: string;
  step: number;
  index: number;
  k: number;
  sample: { key: string; question: string; answer: string; questionType: "mcq" | "tvg" | "oe" };
  turns: { rawText: string; calls: ParsedCall[]; promptTokens?: number | null; completionTokens?: number | null }[];
  finalText: string | null;
  prediction: string | null;
  correct: boolean | null;
  score: number | null;
  rewardTerms: Record<string, number | boolean>;
  overviewTimestamps?: number[];
}

/**
 * The rollout line for a draft, every text within the schema's bounds (a cut is noted in the
 * turn's parseIssues), validated with the API's own schema; a string reason when it cannot be sent.
 */
export function rolloutLine(d: RolloutDraft): { item: RolloutItemInput } | { reason: string } {
  if (d.step > MAX_ROLLOUT_STEP)
    return { reason: `step ${d.step} is beyond the largest storable step ${MAX_ROLLOUT_STEP}` };
  const notes: string[] = [];
  const terms: Record<string, number | boolean> = {};
  for (const [k, v] of Object.entries(d.rewardTerms)) {
    if (typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) terms[k] = v;
  }
  const turns = d.turns.slice(0, 32).map((t, index) => {
    const turnNotes: string[] = [];
    const rawText = cut(t.rawText, 200_000, `turn ${index}`, turnNotes);
    return {
      index,
      rawText,
      parseIssues: turnNotes,
      ...(t.promptTokens != null ? { promptTokens: t.promptTokens } : {}),
      ...(t.completionTokens != null ? { completionTokens: t.completionTokens } : {}),
      toolCalls: t.calls.map((c) => ({
        index: c.index,
        name: c.name,
        arguments: c.arguments,
        startS: c.startS,
        endS: c.endS,
        subAgentOutput:
          c.subAgentOutput === null ? null : cut(c.subAgentOutput, 20_000, "a sub-agent output", turnNotes),
      })),
    };
  });
  if (d.turns.length > 32) turns[31]!.parseIssues.push(`${d.turns.length - 32} later turns left out (at most 32)`);
  const item: RolloutItemInput = {
    id: d.id,
    step: d.step,
    index: d.index,
    k: Math.min(MAX_K, Math.max(1, Math.round(d.k))),
    sample: {
      key: d.sample.key,
      question: cut(d.sample.question, 20_000, "the question", notes),
      answer: cut(d.sample.answer, 2000, "the answer", notes),
      questionType: d.sample.questionType,
    },
    finalText: d.finalText === null ? null : cut(d.finalText, 200_000, "the final text", notes),
    prediction: d.prediction === null ? null : cut(d.prediction, 2000, "the prediction", notes),
    correct: d.correct,
    score: d.score !== null && Number.isFinite(d.score) ? d.score : null,
    rewardTerms: terms,
    overviewTimestamps: (d.overviewTimestamps ?? []).filter((t) => Number.isFinite(t) && t >= 0).slice(0, MAX_K),
    turns: turns.map((t, i) => (i === 0 ? { ...t, parseIssues: [...notes, ...t.parseIssues].slice(0, 50) } : t)),
  };
  const parsed = rolloutItem.safeParse(item);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { reason: issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid" };
  }
  return { item };
}

/**
 * GRPO groups of one step numbered by first appearance (verl's uid, TRL's prompt, a trace's
 * group_id): `group` is the group's number, `groupIndex` the rollout's place in it. Saved with a
 * follower's state (`toJSON`), so a group seen over several reads keeps its number.
 */
export class GroupNumbering {
  private readonly groups: Map<string, { group: number; size: number }>;

  constructor(saved: Record<string, [number, number]> = {}) {
    this.groups = new Map(Object.entries(saved).map(([k, [group, size]]) => [k, { group, size }]));
  }

  add(key: string): { group: number; groupIndex: number } {
    let g = this.groups.get(key);
    if (!g) {
      g = { group: this.groups.size, size: 0 };
      this.groups.set(key, g);
    }
    return { group: g.group, groupIndex: g.size++ };
  }

  sizeOf(key: string): number {
    return this.groups.get(key)?.size ?? 0;
  }

  toJSON(): Record<string, [number, number]> {
    return Object.fromEntries([...this.groups].map(([k, g]) => [k, [g.group, g.size]]));
  }
}

/**
 * The rows of one step that fit in `cap` rollouts, whole GRPO groups first (groups in order of
 * first appearance; a group larger than the cap alone is cut), with each kept row's group
 * number, place in its group and the group's size. The rest is counted as `dropped`.
 */
export function keepWholeGroups<R>(
  rows: readonly R[],
  keyOf: (row: R, position: number) => string,
  cap: number,
): { kept: { row: R; position: number; group: number; groupIndex: number; groupSize: number }[]; dropped: number } {
  const numbering = new GroupNumbering();
  const placed = rows.map((row, position) => ({
    row,
    position,
    key: keyOf(row, position),
    ...numbering.add(keyOf(row, position)),
  }));
  const sizes = new Map<number, number>();
  for (const p of placed) sizes.set(p.group, (sizes.get(p.group) ?? 0) + 1);
  const keptGroups = new Set<number>();
  let room = cap;
  for (const [group, size] of [...sizes].sort(([a], [b]) => a - b)) {
    if (size <= room) {
      keptGroups.add(group);
      room -= size;
    }
  }
  // A first group larger than the whole cap: its first `cap` rollouts rather than none.
  const partial = keptGroups.size === 0 && placed.length > 0 ? 0 : -1;
  const kept = placed
    .filter((p) => keptGroups.has(p.group) || (p.group === partial && p.groupIndex < cap))
    .map(({ row, position, group, groupIndex }) => ({
      row,
      position,
      group,
      groupIndex,
      groupSize: sizes.get(group)!,
    }));
  return { kept, dropped: placed.length - kept.length };
}
