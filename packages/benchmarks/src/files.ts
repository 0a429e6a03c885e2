// Reading annotation files: text, JSON, JSON Lines and parquet. Every failure becomes a
// BenchmarkError naming the file (and line where the format has lines), because a broken file is a
// problem with the download the user must fix, not a row to skip.

import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { fileError } from "./errors";

export type PlainValue = null | boolean | number | string | PlainValue[] | { [key: string]: PlainValue };
export type PlainRow = Record<string, PlainValue>;

export async function pathKind(abs: string): Promise<"file" | "dir" | null> {
  try {
    const s = await stat(abs);
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : null;
  } catch {
    return null;
  }
}

/** The first of `candidates` (paths relative to `dir`) that is a file, or null. */
export async function findFile(dir: string, candidates: readonly string[]): Promise<string | null> {
  for (const rel of candidates) if ((await pathKind(join(dir, rel))) === "file") return rel;
  return null;
}

/** The first of `candidates` (relative to `dir`, "" = dir itself) that is a directory, or null. */
export async function findDir(dir: string, candidates: readonly string[]): Promise<string | null> {
  for (const rel of candidates) if ((await pathKind(join(dir, rel))) === "dir") return rel;
  return null;
}

/** Sorted names of the files directly in `dir` matching `re` (empty if `dir` is not a directory). */
export async function listFiles(dir: string, re: RegExp): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && re.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Hugging Face parquet shards (`<split>-00000-of-00002.parquet`, …) matching `re` in the first of
 * `subdirs` (relative to `dir`, "" = `dir` itself) that has any, as absolute paths in name order.
 */
export async function findShards(dir: string, subdirs: readonly string[], re: RegExp): Promise<string[]> {
  for (const sub of subdirs) {
    const names = await listFiles(join(dir, sub), re);
    if (names.length) return names.map((n) => join(dir, sub, n));
  }
  return [];
}

export async function readBytes(abs: string, shown: string): Promise<Buffer> {
  try {
    return await readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fileError(shown, code === "ENOENT" ? "file not found" : `cannot be read (${code ?? String(e)})`);
  }
}

/** UTF-8 text (invalid bytes become U+FFFD) without a leading BOM. */
export function textOfBytes(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  // Files saved by Windows tools start with a BOM that JSON.parse rejects.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readText(abs: string, shown: string): Promise<string> {
  return textOfBytes(await readBytes(abs, shown));
}

function lineOfPosition(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  if (!m) return undefined;
  const pos = Number(m[1]);
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export async function readJson(abs: string, shown: string): Promise<unknown> {
  const text = await readText(abs, shown);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw fileError(shown, `not valid JSON (${message})`, lineOfPosition(text, message));
  }
}

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** Non-blank lines of a JSON Lines file, each parsed; a line that is not JSON is an error naming it. */
export async function readJsonLines(abs: string, shown: string): Promise<JsonLine[]> {
  const text = await readText(abs, shown);
  const out: JsonLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) as unknown });
    } catch (e) {
      throw fileError(shown, `not valid JSON (${e instanceof Error ? e.message : String(e)})`, i + 1);
    }
  }
  return out;
}

/**
 * Parquet INT64 columns decode to bigint and dates to Date; loaders want JSON-like values.
 * bigints outside the safe integer range stay exact as decimal strings.
 */
export function toPlain(value: unknown): PlainValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    return Array.from(value as ArrayLike<unknown>, (v) => toPlain(v));
  }
  if (typeof value === "object") {
    const out: Record<string, PlainValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return String(value);
}

/** Every row of a parquet file (snappy, gzip, zstd, brotli, lz4 pages) as plain objects. */
export async function readParquetRows(abs: string, shown: string): Promise<PlainRow[]> {
  let rows: Record<string, unknown>[];
  try {
    const file = await asyncBufferFromFile(abs);
    rows = await parquetReadObjects({ file, compressors });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw fileError(shown, "file not found");
    throw fileError(shown, `not a readable parquet file (${e instanceof Error ? e.message : String(e)})`);
  }
  return rows.map((r) => toPlain(r) as PlainRow);
}

/**
 * Parquet rows share one schema, so a column absent from the first row is absent from the file:
 * that is the wrong file (or a different release), not a row to skip.
 */
export function requireColumns(rows: readonly PlainRow[], columns: readonly string[], shown: string): void {
  const first = rows[0];
  if (!first) return;
  const missing = columns.filter((c) => !(c in first));
  if (missing.length) throw fileError(shown, `missing column(s) ${missing.join(", ")}`);
}

/** Rows of a JSON file that must hold an array of objects (LongVideoBench, MLVU, MMVU, custom). */
export async function readJsonArray(abs: string, shown: string): Promise<unknown[]> {
  const value = await readJson(abs, shown);
  if (!Array.isArray(value)) throw fileError(shown, "expected a JSON array of rows");
  return value;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
