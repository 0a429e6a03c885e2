// One stored episode for its readers (issue 37 item 13). Each stored text may be 256 Ki characters
// (storable-text.ts) and an episode has many (turns x tool calls), so one answer of the full
// episode could be tens of MB. The episode answer is bounded instead:
// - every text is a preview: up to EPISODE_PREVIEW_CHARS, else head and tail around a marker
//   (capText), and the object carrying it lists the field in `clipped` with its full length; a
//   JSON field longer than that is cut to that size in its own shape (`previewJson`);
// - turns and tool calls fill the answer up to EPISODE_PAGE_BYTES of JSON (at least one each time)
//   and `nextCursor` (`<turn>.<call>`) names where the next page starts;
// - `getEpisodeText` serves any of those fields whole, page by page.
// Exports (`getFullEpisode`) keep the full trajectory in the same shape, in one answer.
import type { Prisma } from "@paravt/db";
import {
  EPISODE_PAGE_BYTES,
  EPISODE_PREVIEW_CHARS,
  type EpisodeTextField,
  type EvalEpisodeOutput,
  type EvalEpisodeTextInput,
  type EvalEpisodeTextOutput,
} from "../../contracts/evals";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { capText } from "../storable-text";
import type { ProjectAccess } from "./access";
import { FINAL_TEXT_FROM_TURN } from "./evals-store";

/** Fields stored as JSON: their text (length, pages) is their JSON. */
const JSON_FIELDS: ReadonlySet<EpisodeTextField> = new Set<EpisodeTextField>([
  "details",
  "timings",
  "tokenCounts",
  "options",
  "metadata",
  "parsedCalls",
  "parseIssues",
  "arguments",
]);

/** A string cut inside a JSON preview keeps at least this much (head + tail) beside its marker. */
const MIN_JSON_STRING = 64;

/** Turns read from the database at a time while a page fills. */
const TURN_BATCH = 4;

/** The text `getEpisodeText` pages through: the string itself, or the JSON of a JSON field. */
function textOf(field: EpisodeTextField, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON_FIELDS.has(field) || typeof value !== "string" ? JSON.stringify(value) : value;
}

/**
 * A JSON value cut to about `maxChars` characters of JSON, keeping its shape (an array stays an
 * array): a long string keeps its head and tail, an array keeps the items that fit (a prefix), an
 * object shares what is left evenly among its keys, so one large key cannot crowd out the others.
 */
export function previewJson(value: unknown, maxChars: number): unknown {
  return cutJson(value, maxChars).value;
}

function cutJson(x: unknown, budget: number): { value: unknown; chars: number } {
  if (typeof x === "string") {
    const s = x.length + 2 <= budget ? x : capText(x, Math.max(budget - 2, MIN_JSON_STRING));
    return { value: s, chars: s.length + 2 };
  }
  if (Array.isArray(x)) {
    const out: unknown[] = [];
    let used = 2;
    for (const item of x) {
      if (used >= budget) break;
      const r = cutJson(item, budget - used - 1);
      out.push(r.value);
      used += r.chars + 1;
    }
    return { value: out, chars: used };
  }
  if (x !== null && typeof x === "object") {
    const entries = Object.entries(x);
    const out: Record<string, unknown> = {};
    let used = 2;
    entries.forEach(([k, item], i) => {
      // Keys are stored uncapped: one with no room left beside it is left out.
      const share = Math.floor((budget - used) / (entries.length - i)) - k.length - 4;
      if (share <= 0) return;
      const r = cutJson(item, share);
      // defineProperty: a `__proto__` key stays an own data property.
      Object.defineProperty(out, k, { value: r.value, writable: true, enumerable: true, configurable: true });
      used += k.length + 4 + r.chars;
    });
    return { value: out, chars: used };
  }
  return { value: x, chars: JSON.stringify(x ?? null).length };
}

/** Previews of one object's fields, remembering which were clipped and their full lengths. */
class Previews {
  private clippedFields: Record<string, number> = {};

  constructor(private readonly maxChars: number) {}

  text<T extends string | null>(field: EpisodeTextField, s: T): T {
    if (s === null || s.length <= this.maxChars) return s;
    this.clippedFields[field] = s.length;
    return capText(s, this.maxChars) as T;
  }

  json(field: EpisodeTextField, v: unknown): unknown {
    if (v === null || v === undefined || !Number.isFinite(this.maxChars)) return v;
    const length = JSON.stringify(v).length;
    if (length <= this.maxChars) return v;
    this.clippedFields[field] = length;
    return previewJson(v, this.maxChars);
  }

  /** `{ clipped }` to spread into the object, or nothing when every field is whole. */
  clipped(): { clipped?: Record<string, number> } {
    return Object.keys(this.clippedFields).length ? { clipped: this.clippedFields } : {};
  }
}

/** The turn whose raw text is the final text when the store kept it once (evals-store.ts), else null. */
function finalTextTurnOf(finalText: string | null, details: unknown): number | null {
  if (finalText !== null || details === null || typeof details !== "object" || Array.isArray(details)) return null;
  const n = (details as Record<string, unknown>)[FINAL_TEXT_FROM_TURN];
  return Number.isInteger(n) ? (n as number) : null;
}

/** The episode's final text as produced: the column, or its last turn's raw text (stored once). */
async function finalTextOf(e: { id: string; finalText: string | null; details: unknown }): Promise<string | null> {
  const turn = finalTextTurnOf(e.finalText, e.details);
  if (turn === null) return e.finalText;
  const t = await db().turn.findUnique({
    where: { episodeId_index: { episodeId: e.id, index: turn } },
    select: { rawText: true },
  });
  return t?.rawText ?? null;
}

function parseCursor(cursor: string | undefined): { turn: number; call: number } {
  if (!cursor) return { turn: 0, call: 0 };
  const [turn, call] = cursor.split(".").map(Number);
  return { turn: turn ?? 0, call: call ?? 0 };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

type TurnRow = Prisma.TurnGetPayload<{ include: { toolCalls: true } }>;
type TurnOut = EvalEpisodeOutput["turns"][number];
type CallOut = TurnOut["toolCalls"][number];

function turnPreview(t: TurnRow, maxChars: number): TurnOut {
  const p = new Previews(maxChars);
  return {
    index: t.index,
    rawText: p.text("rawText", t.rawText),
    forcedPrefix: p.text("forcedPrefix", t.forcedPrefix),
    forcedFinal: t.forcedFinal,
    parsedCalls: p.json("parsedCalls", t.parsedCalls),
    parseIssues: p.json("parseIssues", t.parseIssues),
    promptTokens: t.promptTokens,
    completionTokens: t.tokenCount,
    timings: p.json("timings", t.timings),
    toolCalls: [],
    ...p.clipped(),
  };
}

function callPreview(c: TurnRow["toolCalls"][number], maxChars: number): CallOut {
  const p = new Previews(maxChars);
  return {
    index: c.index,
    name: p.text("name", c.name),
    arguments: p.json("arguments", c.arguments),
    startS: c.startS,
    endS: c.endS,
    clamped: c.clamped,
    frameTimestamps: c.frameTimestamps,
    subAgentOutput: p.text("subAgentOutput", c.subAgentOutput),
    status: c.status,
    error: p.text("error", c.error),
    durationMs: c.durationMs,
    details: p.json("details", c.details),
    ...p.clipped(),
  };
}

export interface EpisodePageOptions {
  /** `nextCursor` of the previous page; the first page without it. */
  cursor?: string | undefined;
  /** Bytes of JSON after which no more turns or tool calls are added (EPISODE_PAGE_BYTES). */
  maxBytes?: number;
  /** Characters of each text (EPISODE_PREVIEW_CHARS); longer ones are previews. */
  previewChars?: number;
}

/**
 * One page of an episode's transcript: its fields and sample (texts as previews) and the turns and
 * tool calls from `cursor` that fit in `maxBytes` (at least one). A turn split across pages is
 * repeated on the next one with its remaining calls (`mergeEpisodePages` joins them).
 */
export async function getEpisode(
  access: ProjectAccess,
  episodeId: string,
  opts: EpisodePageOptions = {},
): Promise<EvalEpisodeOutput> {
  const maxBytes = opts.maxBytes ?? EPISODE_PAGE_BYTES;
  const maxChars = opts.previewChars ?? EPISODE_PREVIEW_CHARS;
  const from = parseCursor(opts.cursor);
  const e = await db().episode.findFirst({
    where: { id: episodeId, run: { projectId: access.projectId } },
    include: { run: { select: { id: true, name: true } }, sample: true, _count: { select: { turns: true } } },
  });
  if (!e) throw new NotFoundError("Episode");
  const ep = new Previews(maxChars);
  const sp = new Previews(maxChars);
  const options = Array.isArray(e.sample.options) ? sp.json("options", e.sample.options) : null;
  const out: EvalEpisodeOutput = {
    id: e.id,
    run: e.run,
    sample: {
      id: e.sample.id,
      key: e.sample.key,
      question: sp.text("question", e.sample.question),
      options: options as string[] | null,
      answer: sp.text("answer", e.sample.answer),
      questionType: e.sample.questionType,
      videoId: e.sample.videoId,
      metadata: (sp.json("metadata", e.sample.metadata) ?? {}) as Record<string, unknown>,
      ...sp.clipped(),
    },
    rolloutIndex: e.rolloutIndex,
    k: e.k,
    promptMode: e.promptMode,
    status: e.status,
    error: ep.text("error", e.error),
    finalText: ep.text("finalText", await finalTextOf(e)),
    prediction: ep.text("prediction", e.prediction),
    score: e.score,
    correct: e.correct,
    toolCallCount: e.toolCallCount,
    overviewTimestamps: e.overviewTimestamps,
    timings: ep.json("timings", e.timings),
    tokenCounts: ep.json("tokenCounts", e.tokenCounts),
    details: ep.json("details", e.details),
    turns: [],
    createdAt: e.createdAt,
    ...ep.clipped(),
    turnCount: e._count.turns,
    nextCursor: null,
  };

  // Fill with turns and tool calls while the page stays within maxBytes; sizes are only measured
  // when there is a limit (an export takes everything).
  const measured = Number.isFinite(maxBytes);
  let size = measured ? bytes(out) : 0;
  let units = 0;
  /** Adds a unit's bytes if it fits (the first one always does); false: the page is full. */
  const fits = (unit: unknown): boolean => {
    if (!measured) return true;
    const cost = bytes(unit) + 1; // + the comma
    if (units > 0 && size + cost > maxBytes) return false;
    size += cost;
    units++;
    return true;
  };
  let nextTurn = from.turn;
  fill: for (;;) {
    const batch = await db().turn.findMany({
      where: { episodeId: e.id, index: { gte: nextTurn } },
      orderBy: { index: "asc" },
      take: TURN_BATCH,
      include: { toolCalls: { orderBy: { index: "asc" } } },
    });
    for (const t of batch) {
      const firstCall = t.index === from.turn ? from.call : 0;
      const turn = turnPreview(t, maxChars);
      if (!fits(turn)) {
        out.nextCursor = `${t.index}.${firstCall}`;
        break fill;
      }
      out.turns.push(turn);
      for (const c of t.toolCalls) {
        if (c.index < firstCall) continue;
        const call = callPreview(c, maxChars);
        if (!fits(call)) {
          out.nextCursor = `${t.index}.${c.index}`;
          break fill;
        }
        turn.toolCalls.push(call);
      }
    }
    if (batch.length < TURN_BATCH) break;
    nextTurn = batch[batch.length - 1]!.index + 1;
  }
  return out;
}

/**
 * The whole episode in one answer, every text as stored (the export of full trajectories, e.g.
 * `paravt episodes export`): the episode answer's shape without previews or pages.
 */
export function getFullEpisode(access: ProjectAccess, episodeId: string): Promise<EvalEpisodeOutput> {
  return getEpisode(access, episodeId, { maxBytes: Infinity, previewChars: Infinity });
}

/** The stored value of one field named by `evals.episodeText`'s input (level checked by the contract). */
async function fieldValue(episodeId: string, input: Omit<EvalEpisodeTextInput, "projectId">): Promise<unknown> {
  const { field, turn, call } = input;
  if (turn === undefined) {
    const e = await db().episode.findUniqueOrThrow({
      where: { id: episodeId },
      include: { sample: { select: { question: true, answer: true, options: true, metadata: true } } },
    });
    switch (field) {
      case "finalText":
        return finalTextOf(e);
      case "question":
      case "answer":
      case "options":
      case "metadata":
        return e.sample[field];
      case "prediction":
      case "error":
      case "details":
      case "timings":
      case "tokenCounts":
        return e[field];
    }
    return undefined;
  }
  if (call === undefined) {
    const t = await db().turn.findUnique({ where: { episodeId_index: { episodeId, index: turn } } });
    if (!t) throw new NotFoundError(`Turn ${turn} of the episode`);
    switch (field) {
      case "rawText":
      case "forcedPrefix":
      case "parsedCalls":
      case "parseIssues":
      case "timings":
        return t[field];
    }
    return undefined;
  }
  const c = await db().toolCall.findFirst({ where: { index: call, turn: { episodeId, index: turn } } });
  if (!c) throw new NotFoundError(`Tool call ${call} of turn ${turn}`);
  switch (field) {
    case "name":
    case "arguments":
    case "subAgentOutput":
    case "error":
    case "details":
      return c[field];
  }
  return undefined;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * One page of a stored text of the episode, whole (what an episode answer previews): `limit`
 * characters from `offset`. A page never ends inside a surrogate pair, so pages in any language
 * join back into the exact text.
 */
export async function getEpisodeText(
  access: ProjectAccess,
  input: Omit<EvalEpisodeTextInput, "projectId">,
): Promise<EvalEpisodeTextOutput> {
  const e = await db().episode.findFirst({
    where: { id: input.episodeId, run: { projectId: access.projectId } },
    select: { id: true },
  });
  if (!e) throw new NotFoundError("Episode");
  const text = textOf(input.field, await fieldValue(e.id, input));
  if (text === null) throw new NotFoundError(`The episode's ${input.field}`);
  const { offset, limit } = input;
  if (offset > text.length) {
    throw new ValidationError(`offset ${offset} is past the end of the text (${text.length} characters)`);
  }
  let end = Math.min(text.length, offset + limit);
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += end - 1 > offset ? -1 : 1;
  return {
    field: input.field,
    turn: input.turn ?? null,
    call: input.call ?? null,
    offset,
    length: text.length,
    text: text.slice(offset, end),
    nextOffset: end < text.length ? end : null,
  };
}
