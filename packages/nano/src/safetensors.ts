// safetensors (https://github.com/huggingface/safetensors) in pure TypeScript, F32 and I32 only.
//
//   [8 bytes: N, u64 little-endian][N bytes: JSON header][data]
//   header = {"__metadata__": {string: string}?, "<name>": {"dtype", "shape", "data_offsets": [begin, end]}, ...}
//
// Offsets are relative to the start of the data section. The writer pads the header with spaces
// so the data starts 8-byte aligned (as the reference writer does) and lays tensors out in the
// order given. The reader is strict, like the reference: the tensors must tile the data section
// exactly (no overlap, no gap, no trailing bytes), every byte span must equal
// product(shape) * 4, and each failure is a SafetensorsError naming the tensor.

import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";

export type Dtype = "F32" | "I32";
export type Tensor =
  { dtype: "F32"; shape: number[]; data: Float32Array } | { dtype: "I32"; shape: number[]; data: Int32Array };
export type TensorMap = Map<string, Tensor>;

export interface Safetensors {
  tensors: TensorMap;
  metadata: Record<string, string>;
}

export type SafetensorsErrorCode =
  | "TRUNCATED"
  | "BAD_HEADER"
  | "BAD_METADATA"
  | "BAD_ENTRY"
  | "UNSUPPORTED_DTYPE"
  | "SIZE_MISMATCH"
  | "OUT_OF_RANGE"
  | "OVERLAP"
  | "GAP"
  | "TRAILING_BYTES"
  | "INVALID_TENSOR";

export class SafetensorsError extends Error {
  override name = "SafetensorsError";
  constructor(
    readonly code: SafetensorsErrorCode,
    message: string,
    /** The tensor the problem is about, when there is one. */
    readonly tensor?: string,
  ) {
    super(message);
  }
}

/** dtypes the format defines; only F32 and I32 are read and written here. */
const KNOWN_DTYPES = new Set([
  "BOOL",
  "U8",
  "I8",
  "F8_E5M2",
  "F8_E4M3",
  "I16",
  "U16",
  "F16",
  "BF16",
  "I32",
  "U32",
  "F32",
  "F64",
  "I64",
  "U64",
]);
const BYTES_PER_ELEMENT = 4;
/** The reference implementation's limit; also keeps a corrupt length from allocating gigabytes. */
const MAX_HEADER_BYTES = 100_000_000;

if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  throw new Error("@paravt/nano safetensors needs a little-endian host");
}

export function f32(shape: number[], data?: Float32Array | readonly number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return { dtype: "F32", shape, data: data ? Float32Array.from(data) : new Float32Array(n) };
}

export function i32(shape: number[], data?: Int32Array | readonly number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return { dtype: "I32", shape, data: data ? Int32Array.from(data) : new Int32Array(n) };
}

function checkShape(name: string, shape: unknown): number {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || (d as number) < 0)) {
    throw new SafetensorsError(
      "BAD_ENTRY",
      `tensor ${JSON.stringify(name)}: shape must be non-negative integers`,
      name,
    );
  }
  const n = (shape as number[]).reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(n * BYTES_PER_ELEMENT)) {
    throw new SafetensorsError(
      "BAD_ENTRY",
      `tensor ${JSON.stringify(name)}: shape [${shape.join(", ")}] is too large`,
      name,
    );
  }
  return n;
}

/** Serializes tensors (in iteration order) and string metadata into safetensors bytes. */
export function encodeSafetensors(
  tensors: Iterable<readonly [string, Tensor]>,
  metadata: Record<string, string> = {},
): Uint8Array {
  const header: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== "string")
      throw new SafetensorsError("BAD_METADATA", `metadata ${JSON.stringify(k)} must be a string`);
  }
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  const list: (readonly [string, Tensor])[] = [];
  let offset = 0;
  for (const [name, t] of tensors) {
    if (name === "" || name === "__metadata__") {
      throw new SafetensorsError("INVALID_TENSOR", `invalid tensor name ${JSON.stringify(name)}`, name);
    }
    if (name in header)
      throw new SafetensorsError("INVALID_TENSOR", `tensor ${JSON.stringify(name)} listed twice`, name);
    const n = checkShape(name, t.shape);
    const ok = t.dtype === "F32" ? t.data instanceof Float32Array : t.dtype === "I32" && t.data instanceof Int32Array;
    if (!ok) {
      throw new SafetensorsError(
        "UNSUPPORTED_DTYPE",
        `tensor ${JSON.stringify(name)}: dtype ${String(t.dtype)} with ${t.data?.constructor?.name ?? "no data"} (F32 needs a Float32Array, I32 an Int32Array)`,
        name,
      );
    }
    if (t.data.length !== n) {
      throw new SafetensorsError(
        "SIZE_MISMATCH",
        `tensor ${JSON.stringify(name)}: shape [${t.shape.join(", ")}] has ${n} elements, data has ${t.data.length}`,
        name,
      );
    }
    header[name] = { dtype: t.dtype, shape: [...t.shape], data_offsets: [offset, offset + n * BYTES_PER_ELEMENT] };
    offset += n * BYTES_PER_ELEMENT;
    list.push([name, t]);
  }
  let json = JSON.stringify(header);
  const raw = new TextEncoder().encode(json).length;
  json += " ".repeat((8 - ((8 + raw) % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const [, t] of list) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), at);
    at += t.data.byteLength;
  }
  return out;
}

interface Entry {
  name: string;
  dtype: Dtype;
  shape: number[];
  begin: number;
  end: number;
}

function parseEntry(name: string, v: unknown): Entry {
  const q = JSON.stringify(name);
  if (name === "") throw new SafetensorsError("BAD_ENTRY", "empty tensor name", name);
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new SafetensorsError("BAD_ENTRY", `tensor ${q}: entry must be an object`, name);
  }
  const keys = Object.keys(v).sort().join(",");
  if (keys !== "data_offsets,dtype,shape") {
    throw new SafetensorsError(
      "BAD_ENTRY",
      `tensor ${q}: entry must have exactly dtype, shape, data_offsets (has ${keys || "nothing"})`,
      name,
    );
  }
  const e = v as { dtype: unknown; shape: unknown; data_offsets: unknown };
  if (typeof e.dtype !== "string" || !KNOWN_DTYPES.has(e.dtype)) {
    throw new SafetensorsError("BAD_ENTRY", `tensor ${q}: unknown dtype ${JSON.stringify(e.dtype)}`, name);
  }
  if (e.dtype !== "F32" && e.dtype !== "I32") {
    throw new SafetensorsError("UNSUPPORTED_DTYPE", `tensor ${q}: dtype ${e.dtype} is not supported (F32, I32)`, name);
  }
  const n = checkShape(name, e.shape);
  const o = e.data_offsets;
  if (
    !Array.isArray(o) ||
    o.length !== 2 ||
    !o.every((x) => Number.isSafeInteger(x) && (x as number) >= 0) ||
    o[0] > o[1]
  ) {
    throw new SafetensorsError(
      "BAD_ENTRY",
      `tensor ${q}: data_offsets must be [begin, end] with 0 <= begin <= end`,
      name,
    );
  }
  const [begin, end] = o as [number, number];
  if (end - begin !== n * BYTES_PER_ELEMENT) {
    throw new SafetensorsError(
      "SIZE_MISMATCH",
      `tensor ${q}: shape [${(e.shape as number[]).join(", ")}] ${e.dtype} needs ${n * BYTES_PER_ELEMENT} bytes, data_offsets span ${end - begin}`,
      name,
    );
  }
  return { name, dtype: e.dtype, shape: [...(e.shape as number[])], begin, end };
}

/** Parses and validates safetensors bytes; `source` (a file name) prefixes error messages. */
export function decodeSafetensors(bytes: Uint8Array, source = "safetensors"): Safetensors {
  const fail = (code: SafetensorsErrorCode, msg: string, tensor?: string): never => {
    throw new SafetensorsError(code, `${source}: ${msg}`, tensor);
  };
  if (bytes.length < 8) fail("TRUNCATED", `${bytes.length} bytes; the file must start with an 8-byte header length`);
  const n64 = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n64 > BigInt(bytes.length - 8)) {
    fail("TRUNCATED", `header length ${n64} but only ${bytes.length - 8} bytes follow the length field`);
  }
  const n = Number(n64);
  if (n > MAX_HEADER_BYTES) fail("BAD_HEADER", `header of ${n} bytes exceeds the ${MAX_HEADER_BYTES}-byte limit`);
  let header: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + n));
    if (!text.startsWith("{")) fail("BAD_HEADER", "header must be a JSON object starting with '{'");
    header = JSON.parse(text);
  } catch (e) {
    if (e instanceof SafetensorsError) throw e;
    fail("BAD_HEADER", `header is not valid UTF-8 JSON (${(e as Error).message})`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    fail("BAD_HEADER", "header must be a JSON object");
  const h = header as Record<string, unknown>;
  const metadata: Record<string, string> = {};
  if ("__metadata__" in h) {
    const m = h.__metadata__;
    if (typeof m !== "object" || m === null || Array.isArray(m)) fail("BAD_METADATA", "__metadata__ must be an object");
    for (const [k, v] of Object.entries(m as object)) {
      if (typeof v !== "string") fail("BAD_METADATA", `__metadata__.${k} must be a string (got ${typeof v})`);
      metadata[k] = v as string;
    }
  }
  const dataStart = 8 + n;
  const dataLength = bytes.length - dataStart;
  const entries: Entry[] = [];
  for (const [name, v] of Object.entries(h)) {
    if (name === "__metadata__") continue;
    let e: Entry;
    try {
      e = parseEntry(name, v);
    } catch (err) {
      if (err instanceof SafetensorsError) fail(err.code, err.message, name);
      throw err;
    }
    if (e.end > dataLength) {
      fail(
        "OUT_OF_RANGE",
        `tensor ${JSON.stringify(name)} spans bytes [${e.begin}, ${e.end}) but the data section has ${dataLength} bytes (truncated file?)`,
        name,
      );
    }
    entries.push(e);
  }
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let prev: Entry | undefined;
  for (const e of sorted) {
    const prevEnd = prev?.end ?? 0;
    if (e.begin < prevEnd) {
      fail(
        "OVERLAP",
        `tensors ${JSON.stringify(prev!.name)} [${prev!.begin}, ${prev!.end}) and ${JSON.stringify(e.name)} [${e.begin}, ${e.end}) overlap`,
        e.name,
      );
    }
    if (e.begin > prevEnd) {
      fail(
        "GAP",
        `${e.begin - prevEnd} unused bytes before tensor ${JSON.stringify(e.name)} (offset ${prevEnd} to ${e.begin})`,
        e.name,
      );
    }
    prev = e;
  }
  const used = prev?.end ?? 0;
  if (used !== dataLength) fail("TRAILING_BYTES", `${dataLength - used} bytes after the last tensor`);
  const tensors: TensorMap = new Map();
  for (const e of entries) {
    const src = bytes.subarray(dataStart + e.begin, dataStart + e.end);
    const count = (e.end - e.begin) / BYTES_PER_ELEMENT;
    // Copy: the source may be unaligned (a pooled Buffer) and must not be kept alive.
    const data = e.dtype === "F32" ? new Float32Array(count) : new Int32Array(count);
    new Uint8Array(data.buffer).set(src);
    tensors.set(e.name, { dtype: e.dtype, shape: e.shape, data } as Tensor);
  }
  return { tensors, metadata };
}

/** Writes atomically (temp file in the same directory, then rename). */
export async function writeSafetensorsFile(
  path: string,
  tensors: Iterable<readonly [string, Tensor]>,
  metadata: Record<string, string> = {},
): Promise<void> {
  const bytes = encodeSafetensors(tensors, metadata);
  const tmp = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function readSafetensorsFile(path: string): Promise<Safetensors> {
  return decodeSafetensors(await readFile(path), path);
}
