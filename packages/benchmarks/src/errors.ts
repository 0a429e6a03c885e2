// One error type for everything that stops a load (as opposed to a skipped row): bad options, a
// directory without the expected files, or a file that cannot be read or parsed. `kind` lets the
// importer map it to a validation error; the message is meant to be shown to the user as is.

export type BenchmarkErrorKind = "options" | "layout" | "file";

export class BenchmarkError extends Error {
  constructor(
    readonly kind: BenchmarkErrorKind,
    message: string,
    /** The file at fault (as given or relative to the benchmark directory), for kind "file". */
    readonly file?: string,
    /** 1-based line (JSONL, txt, CSV) or row (JSON array, parquet) within `file`. */
    readonly line?: number,
  ) {
    super(file === undefined ? message : `${file}${line === undefined ? "" : `:${line}`}: ${message}`);
    this.name = "BenchmarkError";
  }
}

export function fileError(file: string, message: string, line?: number): BenchmarkError {
  return new BenchmarkError("file", message, file, line);
}
