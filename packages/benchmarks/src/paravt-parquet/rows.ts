// The rows of the reference trainer's parquet files (SPEC §6 "ParaVT-Parquet rows"):
// - RL: `prompt` = [{role, content}] with a `<video>` marker standing for the video, `videos` =
//   [{video: path}], `extra_info` = JSON (string or object) with `answer` and `question_type`
//   (mcq | tvg | oe);
// - SFT: `messages` = [{role, content}] whose content is text or a list of items of type
//   `video_url` / `image_url` / `text`, and `videos`.
// This module reads a row's turns, video paths, question, answer and type for the loader (which
// values the materializer rewrites is walk.ts). Pure: values as hyparquet decodes them (lists ->
// arrays, structs -> objects; a null struct field may be absent).

import { isRecord } from "../files";
import { parsePyJson, PyJsonError, pyJsonToPlain } from "./python-json";
import { QUESTION_TYPES, type QuestionType } from "../schemas";

export type RowKind = "rl" | "sft" | "other";

/** RL: a `prompt` list; SFT: a `messages` list or a JSON string (the reference walks both). */
export function rowKind(row: Record<string, unknown>): RowKind {
  if (Array.isArray(row.prompt)) return "rl";
  if (Array.isArray(row.messages) || typeof row.messages === "string") return "sft";
  return "other";
}

/**
 * The turns of a row: `prompt` (RL) or `messages` (SFT), a `messages` JSON string decoded as the
 * reference decodes it (`json.loads`, python-json.ts). `error` says why there are none.
 */
export function rowTurns(row: Record<string, unknown>): { turns: unknown[] } | { error: string } {
  const kind = rowKind(row);
  if (kind === "rl") return { turns: row.prompt as unknown[] };
  if (kind === "other") return { error: "neither a prompt (RL row) nor a messages (SFT row) list" };
  if (Array.isArray(row.messages)) return { turns: row.messages };
  let decoded: unknown;
  try {
    decoded = pyJsonToPlain(parsePyJson(row.messages as string));
  } catch (e) {
    if (!(e instanceof PyJsonError)) throw e;
    return { error: `messages is a string that is not JSON (${e.message})` };
  }
  return Array.isArray(decoded) ? { turns: decoded } : { error: "messages is JSON but not a list of turns" };
}

/** The URL of a `video_url` content item (`{url}` or a plain string). */
function videoUrlOf(item: Record<string, unknown>): string | null {
  const v = item.video_url;
  if (typeof v === "string") return v;
  if (isRecord(v) && typeof v.url === "string") return v.url;
  return typeof item.video === "string" ? item.video : null;
}

/**
 * The video paths of a row: its `videos` column (SPEC §6: items `{video}` or plain strings), else
 * (no column, or an empty list) the video items of its turns. Empty values are not paths.
 */
export function videoPaths(row: Record<string, unknown>, turns: readonly unknown[]): string[] {
  const listed: string[] = [];
  for (const item of Array.isArray(row.videos) ? row.videos : []) {
    const v = typeof item === "string" ? item : isRecord(item) ? item.video : undefined;
    if (typeof v === "string" && v !== "") listed.push(v);
  }
  if (listed.length > 0) return listed;
  const inTurns: string[] = [];
  for (const t of turns) {
    if (!isRecord(t) || !Array.isArray(t.content)) continue;
    for (const item of t.content) {
      const url = isRecord(item) ? videoUrlOf(item) : null;
      if (url) inTurns.push(url);
    }
  }
  return inTurns;
}

export const VIDEO_MARKER = "<video>";

/** The text of a turn: a string content, or its text items joined by line breaks. */
function turnText(turn: Record<string, unknown>): string | null {
  const c = turn.content;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return null;
  const parts: string[] = [];
  for (const item of c) {
    if (typeof item === "string") parts.push(item);
    else if (isRecord(item) && typeof item.text === "string" && (item.type === undefined || item.type === "text")) {
      parts.push(item.text);
    }
  }
  return parts.length ? parts.join("\n") : null;
}

/**
 * The question of a row: the user turn that holds the `<video>` marker (RL) or, without one, the
 * first user turn, with every marker removed (the workbench shows the video itself) and blank
 * lines at the ends trimmed.
 */
export function questionText(turns: readonly unknown[]): string | null {
  const users = turns.filter((t): t is Record<string, unknown> => isRecord(t) && t.role === "user");
  const texts = users.map(turnText);
  const i = texts.findIndex((t) => t !== null && t.includes(VIDEO_MARKER));
  const text = i >= 0 ? texts[i]! : (texts.find((t) => t !== null) ?? null);
  if (text === null) return null;
  const q = text.split(VIDEO_MARKER).join("").trim();
  return q === "" ? null : q;
}

/** The system turn's text, if any (kept as sample metadata). */
export function systemText(turns: readonly unknown[]): string | null {
  for (const t of turns) if (isRecord(t) && t.role === "system") return turnText(t);
  return null;
}

export type ExtraInfo =
  | { ok: true; answer: unknown; questionType: QuestionType; rest: Record<string, unknown> }
  | {
      ok: false;
      reason: "missing_field" | "invalid_field";
      detail: string;
      /** The parsed object when there is one (its id / index still names the row). */
      rest: Record<string, unknown> | null;
    };

/** `extra_info` as SPEC §6 writes it: a JSON string or an object, with `answer` and `question_type`. */
export function readExtraInfo(raw: unknown): ExtraInfo {
  if (raw === undefined || raw === null || raw === "") {
    return { ok: false, reason: "missing_field", detail: "no extra_info", rest: null };
  }
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw) as unknown;
    } catch (e) {
      return {
        ok: false,
        reason: "invalid_field",
        detail: `extra_info is not valid JSON (${e instanceof Error ? e.message : String(e)})`,
        rest: null,
      };
    }
  }
  if (!isRecord(value))
    return { ok: false, reason: "invalid_field", detail: "extra_info is not an object", rest: null };
  const { answer, question_type: qt, ...rest } = value;
  if (answer === undefined || answer === null || (typeof answer === "string" && answer.trim() === "")) {
    return { ok: false, reason: "missing_field", detail: "no extra_info.answer", rest };
  }
  if (qt === undefined || qt === null || qt === "") {
    return { ok: false, reason: "missing_field", detail: "no extra_info.question_type", rest };
  }
  if (typeof qt !== "string" || !(QUESTION_TYPES as readonly string[]).includes(qt)) {
    return {
      ok: false,
      reason: "invalid_field",
      detail: `extra_info.question_type ${JSON.stringify(qt)} is not one of ${QUESTION_TYPES.join(", ")}`,
      rest,
    };
  }
  return { ok: true, answer, questionType: qt as QuestionType, rest };
}

const OPTION_LINE_RE = /^\s*\(?([A-J])\s*[.):：]\s*(\S.*?)\s*$/;

/**
 * The options written into an RL prompt as lines `A. x`, `(A) x`, `A) x` or `A: x`: the first
 * line lettered `A` starts them, each next line must carry the next letter, and the first line
 * that does not ends them (the reference prompts follow the options with an instruction line).
 */
export function inlineOptions(question: string): string[] | null {
  const lines = question.split(/\r?\n/);
  const start = lines.findIndex((l) => OPTION_LINE_RE.exec(l)?.[1] === "A");
  if (start < 0) return null;
  const options: string[] = [];
  for (const l of lines.slice(start)) {
    const m = OPTION_LINE_RE.exec(l);
    if (!m || m[1] !== "ABCDEFGHIJ"[options.length]) break;
    options.push(m[2]!);
  }
  return options;
}

/** A row's stable key: its `id` column, else `extra_info.id` / `extra_info.index`, else its position. */
export function rowKey(row: Record<string, unknown>, extra: Record<string, unknown> | null, position: number): string {
  for (const v of [row.id, extra?.id, extra?.index]) {
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    if (typeof v === "number" && Number.isInteger(v)) return String(v);
    if (typeof v === "bigint") return v.toString();
  }
  return `row-${position}`;
}
