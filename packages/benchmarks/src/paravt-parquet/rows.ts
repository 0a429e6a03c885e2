// The rows of the reference trainer's parquet files (SPEC §6 "ParaVT-Parquet rows"):
// - RL: `prompt` = [{role, content}] with a `<video>` marker standing for the video, `videos` =
//   [{video: path}], `extra_info` = JSON (string or object) with `answer` and `question_type`
//   (mcq | tvg | oe);
// - SFT: `messages` = [{role, content}] whose content is text or a list of items of type
//   `video_url` / `image_url` / `text`, and `videos`.
// This module finds the path values of a row (to rewrite them) and reads a row's question, answer
// and type. Pure: values as hyparquet decodes them (lists -> arrays, structs -> objects; a null
// struct field may be absent).

import { isRecord } from "../files";
import { QUESTION_TYPES, type QuestionType } from "../schemas";

export type RowKind = "rl" | "sft" | "other";

export function rowKind(row: Record<string, unknown>): RowKind {
  if (Array.isArray(row.prompt)) return "rl";
  if (Array.isArray(row.messages)) return "sft";
  return "other";
}

/** Where a path value sits in a row (for reports and tests). */
export type PathSite = "videos" | "images" | "content";

/**
 * A copy of `row` with every path value replaced by `rewrite(value)` (same value = unchanged; the
 * row object is returned as is when nothing changed). Path values are the structured ones only:
 * - `videos` items: a string, or an object's `video` string; `images` items: a string or `image`;
 * - content items of `prompt` / `messages` turns: `video_url.url`, `image_url.url` (or a string
 *   `video_url` / `image_url`), and a string `video` / `image` (the Qwen-VL item form).
 * Paths mentioned inside text (a prompt's "Video path: …", a tool call's `video_path`) are text,
 * not path values, and are never changed.
 */
export function mapRowPaths(
  row: Record<string, unknown>,
  rewrite: (value: string, site: PathSite) => string,
): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  const set = (key: string, value: unknown) => {
    out ??= { ...row };
    out[key] = value;
  };
  for (const [column, field] of [
    ["videos", "video"],
    ["images", "image"],
  ] as const) {
    const list = row[column];
    if (!Array.isArray(list)) continue;
    const next = mapList(list, (item) => {
      if (typeof item === "string") return rewrite(item, column);
      if (isRecord(item) && typeof item[field] === "string") {
        const v = rewrite(item[field], column);
        return v === item[field] ? item : { ...item, [field]: v };
      }
      return item;
    });
    if (next !== list) set(column, next);
  }
  for (const column of ["prompt", "messages"]) {
    const turns = row[column];
    if (!Array.isArray(turns)) continue;
    const next = mapList(turns, (turn) => {
      if (!isRecord(turn) || !Array.isArray(turn.content)) return turn;
      const content = mapList(turn.content, (item) => mapContentItem(item, (v) => rewrite(v, "content")));
      return content === turn.content ? turn : { ...turn, content };
    });
    if (next !== turns) set(column, next);
  }
  return out ?? row;
}

function mapContentItem(item: unknown, rewrite: (value: string) => string): unknown {
  if (!isRecord(item)) return item;
  let out: Record<string, unknown> | null = null;
  const set = (key: string, value: unknown) => {
    out ??= { ...item };
    out[key] = value;
  };
  for (const key of ["video_url", "image_url"]) {
    const v = item[key];
    if (typeof v === "string") {
      const r = rewrite(v);
      if (r !== v) set(key, r);
    } else if (isRecord(v) && typeof v.url === "string") {
      const r = rewrite(v.url);
      if (r !== v.url) set(key, { ...v, url: r });
    }
  }
  for (const key of ["video", "image"]) {
    const v = item[key];
    if (typeof v === "string") {
      const r = rewrite(v);
      if (r !== v) set(key, r);
    }
  }
  return out ?? item;
}

/** `list` itself when `f` changed no element (so untouched rows are not copied). */
function mapList(list: unknown[], f: (item: unknown) => unknown): unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < list.length; i++) {
    const v = f(list[i]);
    if (v !== list[i]) {
      out ??= [...list];
      out[i] = v;
    }
  }
  return out ?? list;
}

/** Every path value of a row, in the order mapRowPaths meets them. */
export function rowPaths(row: Record<string, unknown>): { value: string; site: PathSite }[] {
  const out: { value: string; site: PathSite }[] = [];
  mapRowPaths(row, (value, site) => {
    out.push({ value, site });
    return value;
  });
  return out;
}

/** The video paths of a row: its `videos` column (SPEC §6), else the video items of its turns. */
export function videoPaths(row: Record<string, unknown>): string[] {
  const paths = rowPaths(row);
  const listed = paths.filter((p) => p.site === "videos").map((p) => p.value);
  if (listed.length > 0 || Array.isArray(row.videos)) return listed;
  const inTurns: string[] = [];
  for (const column of ["prompt", "messages"]) {
    const turns = row[column];
    if (!Array.isArray(turns)) continue;
    for (const t of turns) {
      if (!isRecord(t) || !Array.isArray(t.content)) continue;
      for (const item of t.content) {
        if (!isRecord(item)) continue;
        const url = isRecord(item.video_url) ? item.video_url.url : item.video_url;
        if (typeof url === "string") inTurns.push(url);
        else if (typeof item.video === "string") inTurns.push(item.video);
      }
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
