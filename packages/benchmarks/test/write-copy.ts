// Writers of benchmark copies in their published layouts, without a test runner: the tests
// (helpers.ts) and bench/ build their inputs with them. Videos are placeholder bytes (loaders check
// existence only; nothing is decoded). Parquet files are written with hyparquet-writer using real
// LIST columns, as the Hugging Face exports have.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";

export async function write(dir: string, rel: string, content: string | Buffer | object): Promise<string> {
  const abs = join(dir, rel);
  await mkdir(dirname(abs), { recursive: true });
  const data = typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 1);
  await writeFile(abs, data);
  return abs;
}

export function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** Placeholder video files (a few bytes; existence is all the loaders check). */
export async function touchVideos(dir: string, rels: readonly string[]): Promise<void> {
  for (const rel of rels) await write(dir, rel, "placeholder video bytes");
}

export type ColumnKind = "string" | "strings" | "int64" | "double" | "doubles";
export interface Column {
  name: string;
  kind: ColumnKind;
  data: unknown[];
}

type SchemaElement = Parameters<typeof parquetWriteFile>[0]["schema"] extends (infer E)[] | undefined ? E : never;

function leaf(name: string, kind: "string" | "int64" | "double"): SchemaElement {
  if (kind === "string") return { name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" };
  return { name, type: kind === "int64" ? "INT64" : "DOUBLE", repetition_type: "OPTIONAL" };
}

/**
 * Writes a parquet file whose list columns use the standard 3-level LIST layout and whose INT64
 * columns decode as bigint (as pandas / datasets exports do). Pages are gzip-compressed so the
 * read path goes through hyparquet-compressors.
 */
export async function writeParquet(dir: string, rel: string, columns: readonly Column[]): Promise<string> {
  const abs = join(dir, rel);
  await mkdir(dirname(abs), { recursive: true });
  const schema: SchemaElement[] = [{ name: "root", num_children: columns.length }];
  for (const c of columns) {
    if (c.kind === "strings" || c.kind === "doubles") {
      schema.push({ name: c.name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 });
      schema.push({ name: "list", repetition_type: "REPEATED", num_children: 1 });
      schema.push(leaf("element", c.kind === "strings" ? "string" : "double"));
    } else schema.push(leaf(c.name, c.kind));
  }
  parquetWriteFile({
    filename: abs,
    columnData: columns.map((c) => ({
      name: c.name,
      data: c.kind === "int64" ? c.data.map((v) => (typeof v === "number" ? BigInt(v) : v)) : c.data,
    })) as never,
    schema,
    codec: "GZIP",
    compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) },
  });
  return abs;
}
