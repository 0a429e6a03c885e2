import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataType, encodeModel, ProtobufError, ProtoWriter, readFields, readModelHeader } from "./protobuf";

describe("protobuf writer", () => {
  it("writes keys and varints as the protobuf encoding spec's examples", () => {
    // field 1 = 150 -> 08 96 01 (the spec's first example); field 2 = "testing" -> 12 07 74 65 73 74 69 6e 67
    expect(Array.from(new ProtoWriter().int(1, 150).finish())).toEqual([0x08, 0x96, 0x01]);
    expect(Buffer.from(new ProtoWriter().string(2, "testing").finish()).toString("hex")).toBe("120774657374696e67");
    // int64 -1 is ten bytes of two's complement
    expect(Array.from(new ProtoWriter().int(3, -1).finish())).toEqual([0x18, ...Array(9).fill(0xff), 0x01]);
    // float: wire type 5, little-endian IEEE 754
    expect(Array.from(new ProtoWriter().float(2, 1).finish())).toEqual([0x15, 0, 0, 0x80, 0x3f]);
  });

  it("reads back what it writes (varints over the whole int64 range, bytes, nested messages)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ field: fc.integer({ min: 1, max: 2000 }), n: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n) }),
            fc.record({ field: fc.integer({ min: 1, max: 2000 }), s: fc.string() }),
          ),
          { maxLength: 20 },
        ),
        (fields) => {
          const w = new ProtoWriter();
          for (const f of fields) {
            if ("n" in f) w.int(f.field, f.n);
            else w.message(f.field, (m) => m.string(1, f.s));
          }
          const back = readFields(w.finish());
          expect(back.map((b) => b.field)).toEqual(fields.map((f) => f.field));
          back.forEach((b, i) => {
            const f = fields[i]!;
            if ("n" in f) expect(BigInt.asIntN(64, b.value!)).toBe(f.n);
            else expect(new TextDecoder().decode(readFields(b.bytes!)[0]?.bytes ?? new Uint8Array())).toBe(f.s);
          });
        },
      ),
    );
  });

  it("refuses malformed bytes with the offending offset", () => {
    expect(() => readFields(Uint8Array.of(0x0a, 0x05, 1, 2))).toThrow(/field 1 of 5 bytes at byte 2 runs past the end/);
    expect(() => readFields(Uint8Array.of(0x08, 0x80))).toThrow(ProtobufError);
    expect(() => readFields(Uint8Array.of(0x0b))).toThrow(/unsupported wire type 3/);
    expect(() => readFields(Uint8Array.of(0x00, 0x01))).toThrow(/field number 0/);
  });
});

describe("ONNX ModelProto", () => {
  const model = () =>
    encodeModel({
      irVersion: 8,
      opset: 17,
      producer: "test",
      producerVersion: "1",
      metadata: { a: "1", "b.c": "ünïcode" },
      graph: {
        name: "g",
        nodes: [{ op: "Add", inputs: ["x", "y"], outputs: ["z"], attributes: { axis: { int: -1 } } }],
        initializers: [{ name: "y", dataType: DataType.FLOAT, dims: [2], data: Float32Array.of(1, 2) }],
        inputs: [{ name: "x", dataType: DataType.FLOAT, shape: ["n", 2] }],
        outputs: [{ name: "z", dataType: DataType.FLOAT, shape: ["n", 2] }],
      },
    });

  it("carries IR version, opset and metadata_props that readModelHeader returns", () => {
    expect(readModelHeader(model())).toEqual({
      irVersion: 8,
      opset: 17,
      hasGraph: true,
      metadata: { a: "1", "b.c": "ünïcode" },
    });
  });

  it("stores initializers as raw little-endian data and refuses a wrong element count", () => {
    const bytes = model();
    const graph = readFields(bytes).find((f) => f.field === 7)!.bytes!;
    const init = readFields(readFields(graph).find((f) => f.field === 5)!.bytes!);
    expect(init.filter((f) => f.field === 1).map((f) => f.value)).toEqual([2n]);
    expect(Array.from(new Float32Array(init.find((f) => f.field === 9)!.bytes!.slice().buffer))).toEqual([1, 2]);
    expect(() =>
      encodeModel({
        irVersion: 8,
        opset: 17,
        producer: "t",
        producerVersion: "1",
        metadata: {},
        graph: {
          name: "g",
          nodes: [],
          initializers: [{ name: "w", dataType: DataType.FLOAT, dims: [3], data: Float32Array.of(1, 2) }],
          inputs: [],
          outputs: [],
        },
      }),
    ).toThrow(/tensor w: 2 values for dims \[3\]/);
  });
});
