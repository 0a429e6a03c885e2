// Writing a ParaVT parquet file back out with its sentinel paths materialized (SPEC §6): the same
// rows, columns, schema and key-value metadata, with every sentinel path value
// (`longvt_source/…`, `museg/charades/…`, `museg/et_instruct_164k/…`, `selfqa/…`) replaced by
// `file://<local root>/<rest>`, every other value untouched, and a per-root report of what was
// rewritten and which files are missing. `materializeRows` is the pure core; the file function
// reads and writes one row group at a time so a large file is never held whole in memory.

import { rm, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { fileWriter, ParquetWriter } from "hyparquet-writer";
import { z } from "zod";
import { zodIssues } from "../collector";
import { BenchmarkError, fileError } from "../errors";
import { isRecord } from "../files";
import { mapRowPaths, rowPaths } from "./rows";
import {
  classifyPath,
  localFileOf,
  PathTally,
  rootDirs,
  SENTINEL_ROOTS,
  type MaterializeReport,
  type RootDirs,
} from "./sentinel";

/**
 * Rewrites the path values of `rows` (see mapRowPaths for which values those are). `exists` says
 * whether a local file exists; `tally` accumulates the report across calls (one per row group).
 * Rows that are not objects are returned as they are.
 */
export function materializeRows<T>(
  rows: readonly T[],
  dirs: RootDirs,
  exists: (abs: string) => boolean,
  tally: PathTally = new PathTally(dirs),
): { rows: T[]; report: MaterializeReport } {
  const out = rows.map((row) => {
    tally.row();
    if (!isRecord(row)) return row;
    return mapRowPaths(row, (value) => tally.reference(value, exists).materialized ?? value) as T;
  });
  return { rows: out, report: tally.report() };
}

/** A path as given (relative ones resolve against the current directory). */
const pathText = (what: string) =>
  z
    .string()
    .min(1)
    .refine((p) => !p.includes("\0"), `${what} contains a NUL character`);

export const MaterializeOptionsSchema = z
  .strictObject({
    input: pathText("input"),
    output: pathText("output"),
    /** The one extraction root holding `longvt_source/`, `museg/…`, `selfqa/`. */
    mediaRoot: pathText("mediaRoot").optional(),
    /** A root's own folder (the folder that is `longvt_source/`); wins over mediaRoot. */
    roots: z.partialRecord(z.enum(SENTINEL_ROOTS), pathText("root directory")).optional(),
  })
  .refine((o) => o.mediaRoot !== undefined || Object.keys(o.roots ?? {}).length > 0, {
    message: "give a media root or at least one root directory",
  })
  .refine((o) => resolve(o.input) !== resolve(o.output), {
    message: "the output must be another file than the input",
    path: ["output"],
  });
export type MaterializeOptions = z.input<typeof MaterializeOptionsSchema>;

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads `input`, writes `output` with the sentinel paths materialized, and returns the report.
 * Paths are resolved against the current directory. Throws BenchmarkError (kind `options` for bad
 * options, `file` for an unreadable input or an unwritable output).
 */
export async function materializeParquetFile(options: MaterializeOptions): Promise<MaterializeReport> {
  const parsed = MaterializeOptionsSchema.safeParse(options);
  if (!parsed.success) throw new BenchmarkError("options", `invalid materialize options: ${zodIssues(parsed.error)}`);
  const input = resolve(parsed.data.input);
  const output = resolve(parsed.data.output);
  const roots: Partial<Record<(typeof SENTINEL_ROOTS)[number], string>> = {};
  for (const [root, dir] of Object.entries(parsed.data.roots ?? {})) roots[root as keyof typeof roots] = resolve(dir);
  const dirs = rootDirs({
    ...(parsed.data.mediaRoot === undefined ? {} : { mediaRoot: resolve(parsed.data.mediaRoot) }),
    roots,
  });

  let file: Awaited<ReturnType<typeof asyncBufferFromFile>>;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    file = await asyncBufferFromFile(input);
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw fileError(input, "file not found");
    throw fileError(input, `not a readable parquet file (${e instanceof Error ? e.message : String(e)})`);
  }
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);

  let writer: ParquetWriter;
  try {
    writer = new ParquetWriter({
      writer: fileWriter(output),
      schema: metadata.schema,
      // Pages are written snappy-compressed (the writer's built-in codec, as pyarrow writes by default).
      // Same key-value metadata (pandas / Arrow / datasets schema) as the input: the schema is unchanged.
      ...(metadata.key_value_metadata ? { kvMetadata: metadata.key_value_metadata } : {}),
    });
  } catch (e) {
    throw fileError(output, `cannot be written (${e instanceof Error ? e.message : String(e)})`);
  }

  const tally = new PathTally(dirs);
  const known = new Map<string, boolean>();
  try {
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      let rows: Record<string, unknown>[];
      try {
        // utf8: false keeps byte columns without a string annotation as bytes, so they are written back exactly.
        rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors, utf8: false });
      } catch (e) {
        throw fileError(input, `rows ${rowStart + 1}-${rowEnd}: ${e instanceof Error ? e.message : String(e)}`);
      }
      // Stat every distinct local file of this group first; the rewrite itself is synchronous.
      for (const row of rows) {
        for (const { value } of rowPaths(row)) {
          const shape = classifyPath(value);
          const abs = shape.kind === "sentinel" ? localFileOf(shape, dirs) : null;
          if (abs !== null && !known.has(abs)) known.set(abs, await isFile(abs));
        }
      }
      const done = materializeRows(rows, dirs, (abs) => known.get(abs) ?? false, tally);
      try {
        await writer.write({
          columnData: columns.map((name) => ({ name, data: done.rows.map((r) => r[name] ?? null) })),
          // One output row group per input row group.
          rowGroupSize: Math.max(1, rows.length),
        });
      } catch (e) {
        throw fileError(output, `cannot be written (${e instanceof Error ? e.message : String(e)})`);
      }
      rowStart = rowEnd;
    }
    try {
      await writer.finish();
    } catch (e) {
      throw fileError(output, `cannot be written (${e instanceof Error ? e.message : String(e)})`);
    }
  } catch (e) {
    // A half-written file would look like a result: remove it.
    await rm(output, { force: true });
    throw e;
  }
  return tally.report();
}
