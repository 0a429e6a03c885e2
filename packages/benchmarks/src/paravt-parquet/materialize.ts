// Writing a ParaVT parquet file back out with its sentinel paths materialized (SPEC §6), equal to
// the reference materializer (`paravt/data/materialize.py` of EvolvingLMMs-Lab/ParaVT) on every
// value: the values walk.ts names (the `messages` column, list or JSON string, and the `videos`
// column) go through `materialize_path`: a sentinel path (with or without `file://`) becomes
// `"file://" + str((root / raw).resolve())` (python-path.ts: links followed, `..` applied), every
// other value stays as it is. Same rows, columns, schema and key-value metadata otherwise, and a
// per-root report of what was rewritten and which files are missing (with the reference's own
// per-bucket counts). Beyond the reference: a root may have its own folder (`roots`), and values
// the reference stops on are kept and counted instead of aborting the file.
// `materializeRows` is the pure core; the file function reads and writes one row group at a time
// so a large file is never held whole in memory.

import { rm } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { fileWriter, ParquetWriter } from "hyparquet-writer";
import { z } from "zod";
import { zodIssues } from "../collector";
import { BenchmarkError, fileError } from "../errors";
import { isRecord } from "../files";
import { PathExistsError, pythonExists, pythonResolve, RealpathCache, SymlinkLoopError } from "./python-path";
import {
  PathTally,
  rootDirs,
  SENTINEL_ROOTS,
  type MaterializeReport,
  type PathShape,
  type SentinelRoot,
} from "./sentinel";
import { materializeRow } from "./walk";

/**
 * Rewrites the path values of `rows` (walk.ts says which). `tally` locates sentinel paths (its
 * `locate`) and accumulates the report across calls (one per row group); `exists` says whether a
 * located file exists. Rows that are not objects are returned as they are.
 */
export function materializeRows<T>(
  rows: readonly T[],
  tally: PathTally,
  exists: (abs: string) => boolean,
): { rows: T[]; report: MaterializeReport } {
  const out = rows.map((row) => {
    tally.row();
    if (!isRecord(row)) return row;
    const n = tally.rowsSeen;
    return materializeRow(row, {
      path: (value, at) => {
        try {
          return tally.reference(value, exists).materialized ?? value;
        } catch (e) {
          if (!(e instanceof SymlinkLoopError)) throw e;
          tally.unreadable(`row ${n} ${at}`, e.message);
          return value;
        }
      },
      unreadable: (at, why) => tally.unreadable(`row ${n} ${at}`, why),
    }) as T;
  });
  return { rows: out, report: tally.report() };
}

/**
 * Where the reference puts a sentinel path: `(Path(root) / raw).resolve()`; with a root's own
 * folder D, `(Path(D) / rest).resolve()`. Directories are absolute but not normalized (resolve
 * applies `..` after following links, as Python does). Memoized per value.
 */
export function referenceLocator(o: {
  mediaRoot?: string | undefined;
  roots?: Partial<Record<SentinelRoot, string>> | undefined;
}): (shape: Extract<PathShape, { kind: "sentinel" }>) => string | null {
  const cache = new RealpathCache();
  const memo = new Map<string, string | null>();
  // A symlink loop throws every time (not memoized): the value stays and is counted each time.
  return (shape) => {
    const key = `${shape.root}\0${shape.raw}`;
    let out = memo.get(key);
    if (out === undefined) {
      const own = o.roots?.[shape.root];
      out =
        own !== undefined
          ? pythonResolve(`${own}/${shape.rest}`, cache)
          : o.mediaRoot !== undefined
            ? pythonResolve(`${o.mediaRoot}/${shape.raw}`, cache)
            : null;
      memo.set(key, out);
    }
    return out;
  };
}

/** A directory as Python's `Path(dir)` would start from: absolute against the cwd, not normalized. */
const absolute = (dir: string) => (isAbsolute(dir) ? dir : `${process.cwd()}/${dir}`);

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
  const given: Partial<Record<SentinelRoot, string>> = {};
  const shown: Partial<Record<SentinelRoot, string>> = {};
  for (const [root, dir] of Object.entries(parsed.data.roots ?? {}) as [SentinelRoot, string][]) {
    given[root] = absolute(dir);
    shown[root] = resolve(dir);
  }
  const mediaRoot = parsed.data.mediaRoot === undefined ? undefined : absolute(parsed.data.mediaRoot);
  // `dirs` is what the report shows (normalized); the rewrite itself goes through Python's resolve().
  const dirs = rootDirs({ ...(mediaRoot === undefined ? {} : { mediaRoot: resolve(mediaRoot) }), roots: shown });

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

  const tally = new PathTally(dirs, referenceLocator({ mediaRoot, roots: given }));
  const known = new Map<string, boolean>();
  const exists = (abs: string) => {
    let e = known.get(abs);
    if (e === undefined) known.set(abs, (e = pythonExists(abs)));
    return e;
  };
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
      let done: { rows: Record<string, unknown>[] };
      try {
        done = materializeRows(rows, tally, exists);
      } catch (e) {
        if (e instanceof PathExistsError) throw fileError(input, e.message);
        throw e;
      }
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
