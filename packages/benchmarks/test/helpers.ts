// Fixture builders: every test writes its benchmark layout into its own temp directory. Videos are
// placeholder bytes (loaders check existence only; nothing is decoded). Parquet files are written
// with hyparquet-writer using real LIST columns, as the Hugging Face exports have.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

// The layout writers need no test runner (bench/ uses them too).
export { jsonl, touchVideos, write, writeParquet, type Column, type ColumnKind } from "./write-copy";

const made: string[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

export async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "paravt-bench-"));
  made.push(d);
  return d;
}

/** Counts of skip reasons, for compact assertions. */
export function reasons(skipped: readonly { reason: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of skipped) out[s.reason] = (out[s.reason] ?? 0) + 1;
  return out;
}
