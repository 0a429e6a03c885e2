// Which values of a ParaVT parquet row the materializer rewrites: exactly the reference's walk
// (`paravt/data/materialize.py`, `materialize_parquet` / `_walk_messages` / `_walk_videos`):
// - the `messages` column: lists are walked item by item; a dict whose `type` is `video_url`
//   (or `image_url`) has its `video_url.url` (`image_url.url`) rewritten when that is truthy; its
//   `content` and `messages` values are walked in turn; a STRING is decoded with `json.loads`,
//   walked, and written back with `json.dumps(..., ensure_ascii=False)` (so a JSON-string
//   `messages` column, and any JSON text under it, comes back in Python's serialization);
// - the `videos` column, when it is a list: each dict item with a `video` key gets
//   `materialize_path(item["video"])`; plain string items are left as they are;
// - nothing else: not `prompt` (RL rows), not `images`, not paths inside text.
// Where the reference would stop with an exception (a string under `messages` that is not JSON, a
// truthy url that is not a string, …) the value is left as it is and counted as unreadable.
//
// Values are as hyparquet decodes them (objects, arrays, strings, numbers, bigints, bytes) or as
// python-json.ts decodes a JSON string (Map, PyInt); Python truthiness is applied to both.

import { isRecord } from "../files";
import { dumpsPyJson, hasLoneSurrogate, parsePyJson, PyInt, PyJsonError, type PyJson } from "./python-json";

export interface RowRewriter {
  /** `materialize_path` of one truthy string: the new value, or `value` itself when unchanged. */
  path(value: string, at: string): string;
  /** A value the reference would stop on; it is kept as it is. */
  unreadable(at: string, why: string): void;
}

type Dict = Map<string, unknown> | Record<string, unknown>;

/** A Python dict: a Map (decoded JSON) or a plain object (a parquet struct); not bytes, dates or PyInt. */
const isDict = (v: unknown): v is Dict =>
  v instanceof Map || (isRecord(v) && Object.getPrototypeOf(v) === Object.prototype);
const has = (d: Dict, k: string) => (d instanceof Map ? d.has(k) : Object.hasOwn(d, k));
const get = (d: Dict, k: string): unknown => (d instanceof Map ? d.get(k) : d[k]);
function withKey<D extends Dict>(d: D, k: string, v: unknown): D {
  if (d instanceof Map) return new Map(d).set(k, v) as D;
  return { ...d, [k]: v };
}

/** Python's `bool(v)`. */
function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === 0n || v === "") return false;
  if (Number.isNaN(v)) return true;
  if (v instanceof PyInt) return v.text !== "0";
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}

/** `"url" in sub` for a truthy sub that is not a dict: what the reference does with it. */
function oddSub(sub: unknown, at: string, w: RowRewriter): void {
  if (typeof sub === "string") {
    // `"url" in "…"` is a substring test; when it holds, `sub["url"]` raises TypeError.
    if (sub.includes("url")) w.unreadable(at, "a string holding 'url' where an object with a url is expected");
  } else if (Array.isArray(sub)) {
    if (sub.includes("url")) w.unreadable(at, "a list holding 'url' where an object with a url is expected");
  } else w.unreadable(at, `${typeof sub} where an object with a url is expected`);
}

/** `_walk_messages`. */
export function walkMessages(v: unknown, at: string, w: RowRewriter): unknown {
  if (typeof v === "string") {
    let decoded: PyJson;
    try {
      decoded = parsePyJson(v);
    } catch (e) {
      if (!(e instanceof PyJsonError)) throw e;
      w.unreadable(at, `a string that is not JSON (json.loads: ${e.message})`);
      return v;
    }
    const text = dumpsPyJson(walkMessages(decoded, at, w) as PyJson);
    if (hasLoneSurrogate(text)) {
      w.unreadable(at, "JSON text with an unpaired surrogate (not writable as UTF-8)");
      return v;
    }
    return text;
  }
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    v.forEach((item, i) => {
      const next = walkMessages(item, `${at}[${i}]`, w);
      if (next !== item) (out ??= [...v])[i] = next;
    });
    return out ?? v;
  }
  if (!isDict(v)) return v;
  let out = v;
  for (const kind of ["video_url", "image_url"]) {
    if (get(out, "type") !== kind) continue;
    const sub = get(out, kind);
    if (!truthy(sub)) continue;
    const where = `${at}.${kind}`;
    if (!isDict(sub)) {
      oddSub(sub, where, w);
      continue;
    }
    if (!has(sub, "url")) continue;
    const url = get(sub, "url");
    if (!truthy(url)) continue;
    if (typeof url !== "string") {
      w.unreadable(`${where}.url`, `a ${url instanceof PyInt ? "number" : typeof url}, not a path`);
      continue;
    }
    const next = w.path(url, `${where}.url`);
    if (next !== url) out = withKey(out, kind, withKey(sub, "url", next));
  }
  for (const key of ["content", "messages"]) {
    if (!has(out, key)) continue;
    const inner = get(out, key);
    const next = walkMessages(inner, `${at}.${key}`, w);
    if (next !== inner) out = withKey(out, key, next);
  }
  return out;
}

/** `_walk_videos`. */
export function walkVideos(v: unknown, at: string, w: RowRewriter): unknown {
  if (!Array.isArray(v)) return v;
  let out: unknown[] | null = null;
  v.forEach((item, i) => {
    if (!isDict(item) || !has(item, "video")) return;
    const video = get(item, "video");
    if (!truthy(video)) return; // materialize_path: `if not rel: return rel`
    if (typeof video !== "string") {
      w.unreadable(`${at}[${i}].video`, `a ${typeof video}, not a path`);
      return;
    }
    const next = w.path(video, `${at}[${i}].video`);
    if (next !== video) (out ??= [...v])[i] = withKey(item, "video", next);
  });
  return out ?? v;
}

/** A row with its `messages` and `videos` walked (the same object when nothing changed). */
export function materializeRow(row: Record<string, unknown>, w: RowRewriter): Record<string, unknown> {
  let out = row;
  if (Object.hasOwn(row, "messages")) {
    const next = walkMessages(row.messages, "messages", w);
    if (next !== row.messages) out = { ...out, messages: next };
  }
  if (Object.hasOwn(row, "videos")) {
    const next = walkVideos(row.videos, "videos", w);
    if (next !== row.videos) out = { ...out, videos: next };
  }
  return out;
}
