// The few protobuf wire-format pieces an ONNX file needs, written by hand because no onnx or
// protobuf package is installed (and the export must run where Python is absent): a writer for
// ModelProto / GraphProto / NodeProto / TensorProto / ValueInfoProto / AttributeProto, and a
// reader that walks fields (used to read an exported file's metadata back and to refuse bytes that
// are not a protobuf message before onnxruntime sees them).
//
// Wire format (protobuf encoding spec): each field is a varint key `field << 3 | wireType`, then a
// varint (type 0), 8 bytes (1), a varint length + bytes (2, strings, bytes, sub-messages, packed
// arrays) or 4 bytes (5). int64 values are two's-complement varints (10 bytes when negative).
// Field numbers are those of onnx/onnx.proto (IR version 8); repeated scalars are written
// unpacked, which every protobuf parser accepts for proto2 and proto3 alike.

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Tensor element types (TensorProto.DataType). */
export const DataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 } as const;
export type DataTypeId = (typeof DataType)[keyof typeof DataType];

/** AttributeProto.AttributeType. */
const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

const utf8 = new TextEncoder();

/** Appends protobuf fields to a growable buffer. */
export class ProtoWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  private rawVarint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
  }

  private key(field: number, wire: number): void {
    this.rawVarint(BigInt((field << 3) | wire));
  }

  /** int32 / int64 / enum / bool field (negative values as 10-byte two's complement). */
  int(field: number, value: number | bigint): this {
    const v = typeof value === "bigint" ? value : BigInt(value);
    if (typeof value === "number" && !Number.isSafeInteger(value)) throw new RangeError(`not an integer: ${value}`);
    this.key(field, WIRE_VARINT);
    this.rawVarint(v);
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, WIRE_I32);
    this.ensure(4);
    new DataView(this.buf.buffer).setFloat32(this.len, value, true);
    this.len += 4;
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, WIRE_LEN);
    this.rawVarint(BigInt(value.length));
    this.ensure(value.length);
    this.buf.set(value, this.len);
    this.len += value.length;
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** A sub-message, written by `fill` into its own writer (its length must precede it). */
  message(field: number, fill: (w: ProtoWriter) => void): this {
    const w = new ProtoWriter();
    fill(w);
    return this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// ---------------------------------------------------------------------------------------------
// ONNX messages

export type AttributeValue =
  | { float: number }
  | { int: number }
  | { string: string }
  | { floats: readonly number[] }
  | { ints: readonly number[] }
  | { tensor: TensorInit };

export interface NodeDef {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Record<string, AttributeValue>;
}

/** A constant tensor; `data` is row-major in the element type's little-endian bytes. */
export interface TensorInit {
  name: string;
  dataType: DataTypeId;
  dims: readonly number[];
  data: Float32Array | BigInt64Array | Int32Array | Uint8Array;
}

/** A graph input or output: element type and shape, each dim a number or a symbolic name. */
export interface ValueInfo {
  name: string;
  dataType: DataTypeId;
  shape: readonly (number | string)[];
  doc?: string;
}

export interface GraphDef {
  name: string;
  nodes: readonly NodeDef[];
  initializers: readonly TensorInit[];
  inputs: readonly ValueInfo[];
  outputs: readonly ValueInfo[];
  doc?: string;
}

export interface ModelDef {
  graph: GraphDef;
  opset: number;
  irVersion: number;
  producer: string;
  producerVersion: string;
  doc?: string;
  metadata: Record<string, string>;
}

function writeTensor(w: ProtoWriter, t: TensorInit): void {
  for (const d of t.dims) w.int(1, d); // dims
  w.int(2, t.dataType); // data_type
  w.string(8, t.name); // name
  const d = t.data;
  w.bytes(9, new Uint8Array(d.buffer, d.byteOffset, d.byteLength)); // raw_data (little-endian hosts)
}

function writeAttribute(w: ProtoWriter, name: string, v: AttributeValue): void {
  w.string(1, name);
  if ("float" in v) w.float(2, v.float).int(20, AttributeType.FLOAT);
  else if ("int" in v) w.int(3, v.int).int(20, AttributeType.INT);
  else if ("string" in v) w.string(4, v.string).int(20, AttributeType.STRING);
  else if ("tensor" in v) w.message(5, (t) => writeTensor(t, v.tensor)).int(20, AttributeType.TENSOR);
  else if ("floats" in v) {
    for (const f of v.floats) w.float(7, f);
    w.int(20, AttributeType.FLOATS);
  } else {
    for (const i of v.ints) w.int(8, i);
    w.int(20, AttributeType.INTS);
  }
}

function writeNode(w: ProtoWriter, n: NodeDef): void {
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  if (n.name) w.string(3, n.name);
  w.string(4, n.op);
  for (const [k, v] of Object.entries(n.attributes ?? {})) w.message(5, (a) => writeAttribute(a, k, v));
}

function writeValueInfo(w: ProtoWriter, v: ValueInfo): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, v.dataType); // elem_type
      tensor.message(2, (shape) => {
        for (const d of v.shape) shape.message(1, (dim) => (typeof d === "number" ? dim.int(1, d) : dim.string(2, d)));
      });
    }),
  );
  if (v.doc) w.string(3, v.doc);
}

function checkDims(t: TensorInit): void {
  if (t.data.length !== t.dims.reduce((a, b) => a * b, 1)) {
    throw new RangeError(`tensor ${t.name}: ${t.data.length} values for dims [${t.dims.join(", ")}]`);
  }
}

/** The bytes of an ONNX ModelProto. */
export function encodeModel(m: ModelDef): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, m.irVersion); // ir_version
  w.string(2, m.producer); // producer_name
  w.string(3, m.producerVersion); // producer_version
  if (m.doc) w.string(6, m.doc); // doc_string
  w.message(7, (g) => {
    for (const n of m.graph.nodes) g.message(1, (x) => writeNode(x, n)); // node
    g.string(2, m.graph.name); // name
    for (const t of m.graph.initializers) {
      checkDims(t);
      g.message(5, (x) => writeTensor(x, t)); // initializer
    }
    if (m.graph.doc) g.string(10, m.graph.doc);
    for (const v of m.graph.inputs) g.message(11, (x) => writeValueInfo(x, v)); // input
    for (const v of m.graph.outputs) g.message(12, (x) => writeValueInfo(x, v)); // output
  });
  w.message(8, (o) => o.string(1, "").int(2, m.opset)); // opset_import (default domain)
  for (const [key, value] of Object.entries(m.metadata)) w.message(14, (e) => e.string(1, key).string(2, value));
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// reading

export class ProtobufError extends Error {
  override name = "ProtobufError";
}

export interface ProtoField {
  field: number;
  wire: number;
  /** varint / fixed values */
  value?: bigint;
  /** length-delimited payload */
  bytes?: Uint8Array;
}

/** The top-level fields of one message; throws ProtobufError on malformed bytes. */
export function readFields(buf: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (i >= buf.length) throw new ProtobufError(`truncated varint at byte ${i}`);
      const b = buf[i++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
    throw new ProtobufError(`varint longer than 10 bytes at byte ${i}`);
  };
  while (i < buf.length) {
    const start = i;
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0) throw new ProtobufError(`field number 0 at byte ${start}`);
    if (wire === WIRE_VARINT) out.push({ field, wire, value: varint() });
    else if (wire === WIRE_I64 || wire === WIRE_I32) {
      const n = wire === WIRE_I64 ? 8 : 4;
      if (i + n > buf.length) throw new ProtobufError(`truncated fixed${n * 8} at byte ${i}`);
      const dv = new DataView(buf.buffer, buf.byteOffset + i, n);
      out.push({ field, wire, value: n === 8 ? dv.getBigUint64(0, true) : BigInt(dv.getUint32(0, true)) });
      i += n;
    } else if (wire === WIRE_LEN) {
      const n = Number(varint());
      if (i + n > buf.length) throw new ProtobufError(`field ${field} of ${n} bytes at byte ${i} runs past the end`);
      out.push({ field, wire, bytes: buf.subarray(i, i + n) });
      i += n;
    } else throw new ProtobufError(`unsupported wire type ${wire} at byte ${start}`);
  }
  return out;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** `metadata_props` of a ModelProto, plus its ir_version and opset. */
export function readModelHeader(bytes: Uint8Array): {
  irVersion: number;
  opset: number | null;
  hasGraph: boolean;
  metadata: Record<string, string>;
} {
  const metadata: Record<string, string> = {};
  let irVersion = 0;
  let opset: number | null = null;
  let hasGraph = false;
  for (const f of readFields(bytes)) {
    if (f.field === 1 && f.value !== undefined) irVersion = Number(f.value);
    else if (f.field === 7 && f.bytes) hasGraph = true;
    else if (f.field === 8 && f.bytes) {
      const set = readFields(f.bytes);
      const domain = set.find((x) => x.field === 1)?.bytes;
      if (!domain || domain.length === 0) opset = Number(set.find((x) => x.field === 2)?.value ?? 0n);
    } else if (f.field === 14 && f.bytes) {
      const entry = readFields(f.bytes);
      const text = (n: number) => utf8Decoder.decode(entry.find((x) => x.field === n)?.bytes ?? new Uint8Array());
      metadata[text(1)] = text(2);
    }
  }
  return { irVersion, opset, hasGraph, metadata };
}
