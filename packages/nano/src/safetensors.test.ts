import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  decodeSafetensors,
  encodeSafetensors,
  f32,
  i32,
  readSafetensorsFile,
  SafetensorsError,
  writeSafetensorsFile,
  type SafetensorsErrorCode,
  type Tensor,
} from "./safetensors";

/** A file assembled by hand, the way the format's specification lays it out. */
function rawFile(header: unknown, data: number[] | Uint8Array, pad = 0): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header) + " ".repeat(pad));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

const f32Bytes = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

function expectError(bytes: Uint8Array, code: SafetensorsErrorCode, message: RegExp, tensor?: string) {
  try {
    decodeSafetensors(bytes, "x.safetensors");
  } catch (e) {
    expect(e).toBeInstanceOf(SafetensorsError);
    const err = e as SafetensorsError;
    expect(err.code).toBe(code);
    expect(err.message).toMatch(/^x\.safetensors: /);
    expect(err.message).toMatch(message);
    expect(err.tensor).toBe(tensor);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe("safetensors: round trip", () => {
  it("writes the documented layout", () => {
    const bytes = encodeSafetensors(
      [
        ["w", f32([2, 2], [1, 2, 3, 4])],
        ["n", i32([3], [-1, 0, 7])],
      ],
      { step: "12" },
    );
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + n) % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    expect(header).toEqual({
      __metadata__: { step: "12" },
      w: { dtype: "F32", shape: [2, 2], data_offsets: [0, 16] },
      n: { dtype: "I32", shape: [3], data_offsets: [16, 28] },
    });
    expect(bytes.length).toBe(8 + n + 28);
    expect([...new Float32Array(bytes.slice(8 + n, 8 + n + 16).buffer)]).toEqual([1, 2, 3, 4]);
  });

  it("reads a hand-made file with unordered keys and no padding", () => {
    const header = {
      b: { dtype: "I32", shape: [1], data_offsets: [8, 12] },
      a: { dtype: "F32", shape: [2], data_offsets: [0, 8] },
      __metadata__: { format: "pt" },
    };
    const r = decodeSafetensors(
      rawFile(header, [...f32Bytes([0.5, -2]), ...new Uint8Array(Int32Array.from([9]).buffer)]),
    );
    expect(r.metadata).toEqual({ format: "pt" });
    expect([...r.tensors.get("a")!.data]).toEqual([0.5, -2]);
    expect(r.tensors.get("b")).toEqual({ dtype: "I32", shape: [1], data: Int32Array.from([9]) });
  });

  it("round-trips arbitrary tensors exactly, empty and scalar ones included", () => {
    const tensor: fc.Arbitrary<Tensor> = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }).chain((shape) => {
      const n = shape.reduce((a, b) => a * b, 1);
      return fc.oneof(
        fc.array(fc.float({ noDefaultInfinity: false }), { minLength: n, maxLength: n }).map((v) => f32(shape, v)),
        fc
          .array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: n, maxLength: n })
          .map((v) => i32(shape, v)),
      );
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.tuple(
            fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s !== "__metadata__"),
            tensor,
          ),
          { selector: (x) => x[0], maxLength: 6 },
        ),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })),
        (tensors, metadata) => {
          const r = decodeSafetensors(encodeSafetensors(tensors, metadata));
          expect([...r.tensors.keys()].sort()).toEqual(tensors.map((t) => t[0]).sort());
          for (const [name, t] of tensors) {
            const got = r.tensors.get(name)!;
            expect(got.dtype).toBe(t.dtype);
            expect(got.shape).toEqual(t.shape);
            // Bitwise: NaN payloads and -0 survive.
            expect(new Uint8Array(got.data.buffer)).toEqual(new Uint8Array(t.data.buffer));
          }
          expect(r.metadata).toEqual(metadata);
        },
      ),
      { numRuns: 200 },
    );
  });

  const dir = mkdtemp(join(tmpdir(), "nano-st-"));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it("writes files atomically and reads them back with the path in errors", async () => {
    const path = join(await dir, "t.safetensors");
    await writeSafetensorsFile(path, [["x", f32([3], [1, 2, 3])]]);
    expect(await readdir(await dir)).toEqual(["t.safetensors"]);
    expect([...(await readSafetensorsFile(path)).tensors.get("x")!.data]).toEqual([1, 2, 3]);
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 2));
    await expect(readSafetensorsFile(path)).rejects.toThrow(new RegExp(`^${path}: tensor "x" spans bytes \\[0, 12\\)`));
  });
});

describe("safetensors: strict reading", () => {
  const ok = { a: { dtype: "F32", shape: [2], data_offsets: [0, 8] } };
  const data8 = f32Bytes([1, 2]);

  it("rejects truncated files", () => {
    expectError(new Uint8Array(5), "TRUNCATED", /5 bytes; the file must start with an 8-byte header length/);
    const full = rawFile(ok, data8);
    expectError(full.subarray(0, 20), "TRUNCATED", /header length \d+ but only 12 bytes follow/);
    expectError(
      full.subarray(0, full.length - 1),
      "OUT_OF_RANGE",
      /tensor "a" spans bytes \[0, 8\) but the data section has 7 bytes/,
      "a",
    );
    const huge = new Uint8Array(16);
    new DataView(huge.buffer).setBigUint64(0, 2n ** 63n, true);
    expectError(huge, "TRUNCATED", /header length 9223372036854775808/);
  });

  it("rejects malformed headers and metadata", () => {
    const bad = (text: string) => {
      const json = new TextEncoder().encode(text);
      const out = new Uint8Array(8 + json.length);
      new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
      out.set(json, 8);
      return out;
    };
    expectError(bad("{not json"), "BAD_HEADER", /not valid UTF-8 JSON/);
    expectError(bad("[1, 2]"), "BAD_HEADER", /must be a JSON object starting with/);
    expectError(bad('"x"'), "BAD_HEADER", /JSON object/);
    const latin = bad("{}");
    latin[8] = 0xff;
    expectError(latin, "BAD_HEADER", /not valid UTF-8/);
    expectError(rawFile({ __metadata__: { step: 3 } }, []), "BAD_METADATA", /__metadata__\.step must be a string/);
    expectError(rawFile({ __metadata__: [] }, []), "BAD_METADATA", /must be an object/);
  });

  it("rejects bad entries, naming the tensor", () => {
    const entry = (e: unknown, data: Uint8Array | number[] = data8) => rawFile({ w: e }, data);
    expectError(
      entry({ dtype: "F16", shape: [4], data_offsets: [0, 8] }),
      "UNSUPPORTED_DTYPE",
      /tensor "w": dtype F16 is not supported/,
      "w",
    );
    expectError(
      entry({ dtype: "FLOAT", shape: [2], data_offsets: [0, 8] }),
      "BAD_ENTRY",
      /tensor "w": unknown dtype "FLOAT"/,
      "w",
    );
    expectError(
      entry({ dtype: "F32", shape: [3], data_offsets: [0, 8] }),
      "SIZE_MISMATCH",
      /tensor "w": shape \[3\] F32 needs 12 bytes, data_offsets span 8/,
      "w",
    );
    expectError(
      entry({ dtype: "F32", shape: [-2], data_offsets: [0, 8] }),
      "BAD_ENTRY",
      /shape must be non-negative integers/,
      "w",
    );
    expectError(entry({ dtype: "F32", shape: [2], data_offsets: [8, 0] }), "BAD_ENTRY", /0 <= begin <= end/, "w");
    expectError(entry({ dtype: "F32", shape: [2], data_offsets: [0] }), "BAD_ENTRY", /data_offsets/, "w");
    expectError(
      entry({ dtype: "F32", shape: [2], data_offsets: [0, 8], extra: 1 }),
      "BAD_ENTRY",
      /exactly dtype, shape, data_offsets/,
      "w",
    );
    expectError(entry([1]), "BAD_ENTRY", /entry must be an object/, "w");
  });

  it("rejects overlapping, gapped and out-of-range offsets, and trailing bytes", () => {
    const two = (a: [number, number], b: [number, number], data: Uint8Array | number[]) =>
      rawFile(
        {
          a: { dtype: "F32", shape: [(a[1] - a[0]) / 4], data_offsets: a },
          b: { dtype: "F32", shape: [(b[1] - b[0]) / 4], data_offsets: b },
        },
        data,
      );
    const bytes16 = f32Bytes([1, 2, 3, 4]);
    expect(decodeSafetensors(two([0, 8], [8, 16], bytes16)).tensors.size).toBe(2);
    expectError(two([0, 12], [8, 16], bytes16), "OVERLAP", /tensors "a" \[0, 12\) and "b" \[8, 16\) overlap/, "b");
    expectError(two([0, 8], [0, 8], data8), "OVERLAP", /overlap/, "b");
    expectError(two([0, 4], [8, 16], bytes16), "GAP", /4 unused bytes before tensor "b"/, "b");
    expectError(
      two([0, 8], [8, 20], bytes16),
      "OUT_OF_RANGE",
      /tensor "b" spans bytes \[8, 20\) but the data section has 16 bytes/,
      "b",
    );
    expectError(two([0, 4], [4, 8], bytes16), "TRAILING_BYTES", /8 bytes after the last tensor/);
    expectError(
      rawFile({ a: { dtype: "F32", shape: [2], data_offsets: [4, 12] } }, bytes16),
      "GAP",
      /4 unused bytes before tensor "a"/,
      "a",
    );
  });

  it("never fails with anything but a SafetensorsError on damaged files", () => {
    const good = encodeSafetensors(
      [
        ["a", f32([2, 3])],
        ["b", i32([4])],
      ],
      { k: "v" },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat(good.length),
        (edits, cut) => {
          const bytes = good.slice(0, Math.max(cut, 1));
          for (const [i, v] of edits) if (i < bytes.length) bytes[i] = v;
          try {
            decodeSafetensors(bytes);
          } catch (e) {
            expect(e).toBeInstanceOf(SafetensorsError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("safetensors: writing", () => {
  it("refuses inconsistent tensors", () => {
    const err = (fn: () => unknown, code: SafetensorsErrorCode, re: RegExp) => {
      expect(fn).toThrow(SafetensorsError);
      expect(fn).toThrow(re);
      try {
        fn();
      } catch (e) {
        expect((e as SafetensorsError).code).toBe(code);
      }
    };
    err(
      () => encodeSafetensors([["w", { dtype: "F32", shape: [3], data: new Float32Array(2) }]]),
      "SIZE_MISMATCH",
      /tensor "w": shape \[3\] has 3 elements, data has 2/,
    );
    err(
      () => encodeSafetensors([["w", { dtype: "F32", shape: [2], data: new Int32Array(2) } as unknown as Tensor]]),
      "UNSUPPORTED_DTYPE",
      /F32 needs a Float32Array/,
    );
    err(() => encodeSafetensors([["__metadata__", f32([1])]]), "INVALID_TENSOR", /invalid tensor name/);
    err(
      () =>
        encodeSafetensors([
          ["w", f32([1])],
          ["w", f32([1])],
        ]),
      "INVALID_TENSOR",
      /listed twice/,
    );
    err(() => encodeSafetensors([["w", f32([1.5])]]), "BAD_ENTRY", /non-negative integers/);
    err(() => encodeSafetensors([], { k: 1 as unknown as string }), "BAD_METADATA", /must be a string/);
  });
});
