// What every loader shares: its resolved options, picking the video directory among the layouts a
// benchmark is published in, and reading loosely typed row fields.

import { join, relative } from "node:path";
import { BenchmarkError } from "./errors";
import { findDir } from "./files";
import type { JsonRecord, LoadResult } from "./schemas";

export interface LoaderContext {
  /** Absolute benchmark directory (custom: a directory or a single file). */
  dir: string;
  /** Absolute video directory given by the user, if any. */
  videoDir?: string;
  split: string;
  subtitles: boolean;
}

export type Loader = (ctx: LoaderContext) => Promise<LoadResult>;

/**
 * The user's video directory, else the first default sub-directory of the benchmark directory that
 * exists. Without either, videos are looked up in the benchmark directory itself and a warning says
 * which folders were expected (every row then reports its missing video).
 */
export async function pickVideoDir(
  ctx: LoaderContext,
  defaults: readonly string[],
  warnings: string[],
): Promise<string> {
  if (ctx.videoDir !== undefined) return ctx.videoDir;
  const found = await findDir(ctx.dir, defaults);
  if (found !== null) return join(ctx.dir, found);
  warnings.push(`no video folder (${defaults.map((d) => `${d}/`).join(", ")}) in ${ctx.dir}; looked for videos there`);
  return ctx.dir;
}

export function layoutError(ctx: LoaderContext, what: string, expected: readonly string[]): BenchmarkError {
  return new BenchmarkError("layout", `${what} not found in ${ctx.dir}; expected ${expected.join(" or ")}`);
}

/** Path of `abs` relative to the benchmark directory, as shown in reports. */
export function shownPath(ctx: LoaderContext, abs: string): string {
  return relative(ctx.dir, abs) || abs;
}

/** A text field: strings trimmed, numbers stringified (ids are sometimes numeric), else null. */
export function text(v: unknown): string | null {
  if (typeof v === "string") {
    const t = v.trim();
    return t === "" ? null : t;
  }
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

export function positiveNumber(v: unknown): number | undefined {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Metadata without the fields a row did not have (undefined / null), so samples stay small. */
export function compact(fields: Record<string, unknown>): JsonRecord {
  const out: JsonRecord = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined && v !== null) out[k] = v as JsonRecord[string];
  }
  return out;
}
