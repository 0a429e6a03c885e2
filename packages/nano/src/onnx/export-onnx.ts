// ONNX export of ParaVT-nano: one graph for both the prefill of a batch of prompts and the
// KV-cache decode steps after it, with exactly the compute core's math (kernels/src/model.cc
// `model_forward` / `decoder_step`, kernels/README.md "Model"):
//
//   x      = wte[token] + wpe[position]              (token positions)
//          = (frame_w · f + frame_b) + wpe[position] (frame slots: token == <frame>, id 3)
//   block  x += attn_proj(attention(qkv(LN1(x))));  x += fc_proj(GELU_tanh(fc(LN2(x))))
//   logits = LNf(x) · wteᵀ                           (head tied to wte)
//
// Inputs (B batch, S new positions, past cache slots, F frame slots among the B·S new positions):
//   tokens           int64   [B, S]        token ids; frame slots hold the tokenizer's <frame> id
//   frames           float32 [F, P]        thumbnail features of the frame slots, in row-major
//                                          (b, s) order of the slots; [0, P] when there are none
//   attention_mask   int64   [B, past+S]   1 = a real position (cache slot or new), 0 = padding or
//                                          an unused cache slot: never attended to
//   position_ids     int64   [B, S]        positions into wpe (per row, so padding costs none)
//   past_key_<l>     float32 [B, H, past, D]  for l in 0..L-1 ([B, H, 0, D] for a prefill)
//   past_value_<l>   float32 [B, H, past, D]
// Outputs:
//   logits           float32 [B, S, V]     every new position (the decoder reads the last one)
//   new_key_<l>      float32 [B, H, S, D]  keys / values of the S new positions: the caller appends
//   new_value_<l>                          them to its cache (slots past.. of the next step's past)
//
// Why new_key/new_value and not present = concat(past, new): onnxruntime runs every node whatever
// is fetched, and a present output is the whole cache copied at every decode step and layer, then
// copied again into JS (the first version did that: 4.4 ms per decode step of the 6.4 M model at
// ~600 cached positions, 2.3 ms after this change, same benchmark and machine). Here the attention
// reads the cache in place: scores = [q·pastᵀ, q·newᵀ], softmax over both, then
// probs_past·V_past + probs_new·V_new. The cache may be a buffer with unused slots (masked), so the
// runner appends in place (ort-worker.mjs).
//
// Why frames are [F, P] and not [B, S, P]: only frame slots read them, so a dense tensor would ship
// and project B·S·P floats (a 600-token prompt: 9.3 MB and 600·P·C multiply-adds) for 64 slots.
// The graph finds the slots itself (NonZero of tokens == <frame>) and scatters the projections in.
//
// Attention: new position i (index past+i) may attend to slot j iff j <= past+i and
// attention_mask[b, j] = 1; masked scores become -1e30 (exp underflows to exactly 0, so real rows
// equal the core's; an all-padding row gets a finite uniform average instead of NaN, and its
// logits are never read). The residual stream is [B·S, C] and weights are stored transposed
// ([in, out]), so every linear is one Gemm after onnxruntime's fusion. LayerNorm is the opset-17
// LayerNormalization with config.layerNormEps (the core's is fixed at 1e-5, which every config
// uses today). The file's metadata_props carry the config, the tokenizer hash and a sha256 of the
// parameters, so a runner can refuse a model.onnx that does not belong to the checkpoint it is
// loaded with.

import { createHash, randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { endianness } from "node:os";
import { join } from "node:path";
import { CheckpointError, checkParameters, loadCheckpoint } from "../checkpoint";
import { ModelConfigError, parameterLayout, parseModelConfig, type ModelConfig } from "../config";
import type { TensorMap } from "../safetensors";
import { CONTROL_TOKENS, type Tokenizer } from "../tokenizer";
import { OnnxError } from "./errors";
import { GraphBuilder } from "./graph-builder";
import { DataType, encodeModel, ProtobufError, readModelHeader, type ValueInfo } from "./protobuf";

export const ONNX_FILE = "model.onnx";
export const ONNX_FORMAT = "paravt-nano-onnx";
export const ONNX_FORMAT_VERSION = 1;
/** LayerNormalization needs opset 17; IR version 8 is the one that goes with it. */
export const ONNX_OPSET = 17;
const IR_VERSION = 8;
/** The tokenizer's `<frame>` id (a control token, so the same for every vocabulary). */
export const ONNX_FRAME_TOKEN = CONTROL_TOKENS.indexOf("<frame>");
/** Score of a masked (future or padding) key. */
const MASKED_SCORE = -1e30;
// GELU, tanh approximation, with the core's float constants (ops_cpu.cc gelu_forward_cpu).
const GELU_SCALE = 0.7978845608028654; // sqrt(2/pi)
const GELU_CUBIC = 0.044715;

export interface OnnxSource {
  config: ModelConfig;
  params: TensorMap;
  /** Recorded (its hash) so a runner can check the tokenizer it decodes with. */
  tokenizer?: Tokenizer;
}

/** What an exported file says about itself (its metadata_props). */
export interface OnnxMetadata {
  format: typeof ONNX_FORMAT;
  formatVersion: number;
  config: ModelConfig;
  tokenizerHash: string | null;
  parametersSha256: string;
  frameToken: number;
}

/** sha256 of the parameters in layout order (F32 little-endian): identifies a model.onnx's weights. */
export function parametersSha256(config: ModelConfig, params: TensorMap): string {
  const h = createHash("sha256");
  for (const p of parameterLayout(config)) {
    const d = params.get(p.name)!.data;
    h.update(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
  }
  return h.digest("hex");
}

/** Rows [from, from + count) of a tensor's leading dimension, as a copy. */
function rows(t: Float32Array, rowSize: number, from: number, count = 1): Float32Array {
  return t.slice(from * rowSize, (from + count) * rowSize);
}

/** A row-major [out, in] matrix as [in, out] (MatMul's right operand). */
function transpose(w: Float32Array, out: number, inp: number): Float32Array {
  const t = new Float32Array(w.length);
  for (let o = 0; o < out; o++) for (let i = 0; i < inp; i++) t[i * out + o] = w[o * inp + i]!;
  return t;
}

function validSource(src: OnnxSource): ModelConfig {
  let config: ModelConfig;
  try {
    config = parseModelConfig(src.config);
    checkParameters(config, src.params, "parameters");
  } catch (e) {
    if (e instanceof ModelConfigError || e instanceof CheckpointError) {
      throw new OnnxError("BAD_SOURCE", `cannot export: ${e.message}`, { cause: e });
    }
    throw e;
  }
  if (src.tokenizer && src.tokenizer.size !== config.vocabSize) {
    throw new OnnxError(
      "BAD_SOURCE",
      `cannot export: the tokenizer has ${src.tokenizer.size} tokens but the config's vocabSize is ${config.vocabSize}`,
    );
  }
  return config;
}

/** The ONNX model (bytes of a ModelProto) of a nano config and its parameters; see the header. */
export function exportOnnx(src: OnnxSource): Uint8Array {
  if (endianness() !== "LE") throw new OnnxError("BAD_SOURCE", "ONNX raw_data is little-endian; this host is not");
  const config = validSource(src);
  const { vocabSize: V, width: C, layers: L, heads: H, frameFeatures: P } = config;
  const D = C / H;
  const T = config.contextLength;
  const param = (name: string) => src.params.get(name)!.data as Float32Array; // F32: checked by validSource
  const g = new GraphBuilder();
  const F32 = DataType.FLOAT;

  const inputs: ValueInfo[] = [
    {
      name: "tokens",
      dataType: DataType.INT64,
      shape: ["batch", "sequence"],
      doc: "token ids; <frame> at frame slots",
    },
    { name: "frames", dataType: F32, shape: ["frame_slots", P], doc: "features of the frame slots in (b, s) order" },
    { name: "attention_mask", dataType: DataType.INT64, shape: ["batch", "total_sequence"], doc: "1 real, 0 padding" },
    { name: "position_ids", dataType: DataType.INT64, shape: ["batch", "sequence"], doc: "positions into wpe" },
  ];
  const outputs: ValueInfo[] = [{ name: "logits", dataType: F32, shape: ["batch", "sequence", V] }];
  for (let l = 0; l < L; l++) {
    for (const kind of ["key", "value"]) {
      inputs.push({ name: `past_${kind}_${l}`, dataType: F32, shape: ["batch", H, "past_sequence", D] });
      outputs.push({ name: `new_${kind}_${l}`, dataType: F32, shape: ["batch", H, "sequence", D] });
    }
  }
  // Reserve the graph's own names so no intermediate value takes one.
  for (const v of inputs) g.reserve(v.name, false);
  for (const v of outputs) g.reserve(v.name, true);

  // --- weights (per-layer slices of the stacked tensors; linears transposed to [in, out])
  const wte = g.init("wte", F32, [V, C], param("wte"));
  const wpe = g.init("wpe", F32, [T, C], param("wpe"));
  const frameW = g.init("frame_w.T", F32, [P, C], transpose(param("frame_w"), C, P));
  const frameB = g.init("frame_b", F32, [C], param("frame_b"));
  const layer = (l: number) => ({
    ln1w: g.init(`l${l}.ln1_w`, F32, [C], rows(param("ln1_w"), C, l)),
    ln1b: g.init(`l${l}.ln1_b`, F32, [C], rows(param("ln1_b"), C, l)),
    qkvW: g.init(`l${l}.qkv_w.T`, F32, [C, 3 * C], transpose(rows(param("qkv_w"), 3 * C * C, l), 3 * C, C)),
    qkvB: g.init(`l${l}.qkv_b`, F32, [3 * C], rows(param("qkv_b"), 3 * C, l)),
    projW: g.init(`l${l}.attn_proj_w.T`, F32, [C, C], transpose(rows(param("attn_proj_w"), C * C, l), C, C)),
    projB: g.init(`l${l}.attn_proj_b`, F32, [C], rows(param("attn_proj_b"), C, l)),
    ln2w: g.init(`l${l}.ln2_w`, F32, [C], rows(param("ln2_w"), C, l)),
    ln2b: g.init(`l${l}.ln2_b`, F32, [C], rows(param("ln2_b"), C, l)),
    fcW: g.init(`l${l}.fc_w.T`, F32, [C, 4 * C], transpose(rows(param("fc_w"), 4 * C * C, l), 4 * C, C)),
    fcB: g.init(`l${l}.fc_b`, F32, [4 * C], rows(param("fc_b"), 4 * C, l)),
    fcProjW: g.init(`l${l}.fc_proj_w.T`, F32, [4 * C, C], transpose(rows(param("fc_proj_w"), 4 * C * C, l), C, 4 * C)),
    fcProjB: g.init(`l${l}.fc_proj_b`, F32, [C], rows(param("fc_proj_b"), C, l)),
  });
  const lnfW = g.init("lnf_w", F32, [C], param("lnf_w"));
  const lnfB = g.init("lnf_b", F32, [C], param("lnf_b"));

  // --- constants
  const rowsC = g.ints("shape_rows_c", [-1, C]); // the residual stream is [B·S, C]: linears become Gemm
  const split3 = g.ints("split_qkv", [C, C, C]);
  const axis0 = g.ints("axes_0", [0]);
  const axis1 = g.ints("axes_1", [1]);
  const axes12 = g.ints("axes_1_2", [1, 2]);
  const attScale = g.scalar("attention_scale", Math.fround(1 / Math.fround(Math.sqrt(D))));
  const masked = g.scalar("masked_score", MASKED_SCORE);
  const layerNorm = (x: string, w: string, b: string, out: string) =>
    g.op("LayerNormalization", [x, w, b], out, { axis: { int: -1 }, epsilon: { float: config.layerNormEps } });
  const linear = (x: string, w: string, b: string, out: string) => g.op("Add", [g.op("MatMul", [x, w]), b], out);
  const batchSeq = g.op("Shape", ["tokens"], "batch_seq"); // [B, S]
  const heads = g.op("Concat", [batchSeq, g.ints("h_d", [H, D])], "shape_heads", { axis: { int: 0 } });
  const toHeads = (x: string, out: string) =>
    g.op("Transpose", [g.op("Reshape", [x, heads])], out, { perm: { ints: [0, 2, 1, 3] } });

  // --- embeddings: wte rows, frame projections scattered over the frame slots, plus wpe
  const tokEmb = g.op("Gather", [wte, "tokens"], "token_embedding", { axis: { int: 0 } });
  const isFrame = g.op("Equal", ["tokens", g.int("frame_token", ONNX_FRAME_TOKEN)], "is_frame_slot");
  const slots = g.op("Transpose", [g.op("NonZero", [isFrame])], "frame_slot_index", { perm: { ints: [1, 0] } });
  const frameEmb = linear("frames", frameW, frameB, "frame_embedding");
  const emb = g.op("ScatterND", [tokEmb, slots, frameEmb], "input_embedding");
  const posEmb = g.op("Gather", [wpe, "position_ids"], "position_embedding", { axis: { int: 0 } });
  let x = g.op("Reshape", [g.op("Add", [emb, posEmb]), rowsC], "x0");

  // --- attention mask [B, 1, S, past+S]: causal over absolute cache indices AND not padding
  const seqLen = g.op("Shape", ["tokens"], "seq_len", { start: { int: 1 }, end: { int: 2 } });
  const totalLen = g.op("Shape", ["attention_mask"], "total_len", { start: { int: 1 }, end: { int: 2 } });
  const pastLen = g.op("Sub", [totalLen, seqLen], "past_len");
  const one = g.int("one", 1);
  const zero1 = g.ints("zero_1", [0]);
  const int64Max = g.ints("int64_max_1", [Number.MAX_SAFE_INTEGER]);
  const lastAxis = g.ints("axes_last", [-1]);
  const total = g.op("Squeeze", [totalLen], "total_len_scalar");
  const keyIndex = g.op("Range", [g.int("zero", 0), total, one], "key_index");
  const queryIndex = g.op("Range", [g.op("Squeeze", [pastLen], "past_len_scalar"), total, one], "query_index");
  const causal = g.op(
    "LessOrEqual",
    [g.op("Unsqueeze", [keyIndex, axis0]), g.op("Unsqueeze", [queryIndex, axis1])],
    "causal",
  );
  const real = g.op("Cast", ["attention_mask"], "real_position", { to: { int: DataType.BOOL } });
  const allowed = g.op("And", [causal, g.op("Unsqueeze", [real, axes12])], "allowed");

  // --- blocks
  for (let l = 0; l < L; l++) {
    const w = layer(l);
    const h = layerNorm(x, w.ln1w, w.ln1b, `l${l}.ln1`);
    const qkv = linear(h, w.qkvW, w.qkvB, `l${l}.qkv`);
    const [q, k, v] = g.opMulti("Split", [qkv, split3], [`l${l}.q`, `l${l}.k`, `l${l}.v`], { axis: { int: -1 } });
    // Attention over the cache and the new positions without concatenating them: the cache is only
    // read (a concat would copy all of it at every decode step), the new keys and values are
    // outputs that the caller appends to its cache.
    const kNew = toHeads(k!, `new_key_${l}`);
    const vNew = toHeads(v!, `new_value_${l}`);
    const qh = toHeads(q!, `l${l}.q_heads`);
    const keysT = (keys: string) => g.op("Transpose", [keys], undefined, { perm: { ints: [0, 1, 3, 2] } });
    const dots = g.op(
      "Concat",
      [g.op("MatMul", [qh, keysT(`past_key_${l}`)]), g.op("MatMul", [qh, keysT(kNew)])],
      `l${l}.dots`,
      { axis: { int: -1 } },
    );
    const scores = g.op("Mul", [dots, attScale], `l${l}.scores`);
    const probs = g.op("Softmax", [g.op("Where", [allowed, scores, masked])], `l${l}.attention`, { axis: { int: -1 } });
    const pPast = g.op("Slice", [probs, zero1, pastLen, lastAxis], `l${l}.attention_past`);
    const pNew = g.op("Slice", [probs, pastLen, int64Max, lastAxis], `l${l}.attention_new`);
    const y = g.op("Add", [g.op("MatMul", [pPast, `past_value_${l}`]), g.op("MatMul", [pNew, vNew])], `l${l}.attended`);
    const yMerged = g.op("Reshape", [g.op("Transpose", [y], undefined, { perm: { ints: [0, 2, 1, 3] } }), rowsC]);
    const x2 = g.op("Add", [x, linear(yMerged, w.projW, w.projB, `l${l}.attn_out`)], `l${l}.residual2`);
    const f = linear(layerNorm(x2, w.ln2w, w.ln2b, `l${l}.ln2`), w.fcW, w.fcB, `l${l}.fc`);
    x = g.op("Add", [x2, linear(gelu(g, f, `l${l}.gelu`), w.fcProjW, w.fcProjB, `l${l}.mlp_out`)], `l${l}.residual3`);
  }
  const lnf = layerNorm(x, lnfW, lnfB, "lnf");
  const head = g.op("MatMul", [lnf, g.op("Transpose", [wte], "wte.T", { perm: { ints: [1, 0] } })], "head");
  const bsv = g.op("Concat", [batchSeq, g.ints("v", [V])], "shape_logits", { axis: { int: 0 } });
  g.op("Reshape", [head, bsv], "logits");

  const meta: OnnxMetadata = {
    format: ONNX_FORMAT,
    formatVersion: ONNX_FORMAT_VERSION,
    config,
    tokenizerHash: src.tokenizer?.hash ?? null,
    parametersSha256: parametersSha256(config, src.params),
    frameToken: ONNX_FRAME_TOKEN,
  };
  return encodeModel({
    irVersion: IR_VERSION,
    opset: ONNX_OPSET,
    producer: "@paravt/nano",
    producerVersion: String(ONNX_FORMAT_VERSION),
    doc: "ParaVT-nano: prefill and KV-cache decode in one graph (packages/nano/README.md, ONNX)",
    graph: { name: "paravt_nano", nodes: g.nodes, initializers: g.initializers, inputs, outputs },
    metadata: {
      "paravt.format": meta.format,
      "paravt.format_version": String(meta.formatVersion),
      "paravt.config": JSON.stringify(meta.config),
      "paravt.tokenizer_hash": meta.tokenizerHash ?? "",
      "paravt.parameters_sha256": meta.parametersSha256,
      "paravt.frame_token": String(meta.frameToken),
    },
  });
}

/** GELU, tanh approximation, in the core's operation order: (0.5·x)·(1 + tanh(s·(x + 0.044715·x·x·x))). */
function gelu(g: GraphBuilder, x: string, out: string): string {
  const cube = g.op("Mul", [g.op("Mul", [g.op("Mul", [g.scalar("gelu_cubic", GELU_CUBIC), x]), x]), x]);
  const inner = g.op("Mul", [g.op("Add", [x, cube]), g.scalar("gelu_scale", GELU_SCALE)]);
  const half = g.op("Mul", [g.scalar("half", 0.5), x]);
  return g.op("Mul", [half, g.op("Add", [g.scalar("one_f", 1), g.op("Tanh", [inner])])], out);
}

/** Reads and checks the nano metadata of an exported file; OnnxError NOT_ONNX / NOT_NANO_ONNX otherwise. */
export function readOnnxMetadata(bytes: Uint8Array, label = "model.onnx"): OnnxMetadata {
  let header: ReturnType<typeof readModelHeader>;
  try {
    header = readModelHeader(bytes);
  } catch (e) {
    const why = e instanceof ProtobufError || e instanceof TypeError ? e.message : String(e);
    throw new OnnxError("NOT_ONNX", `${label} is not an ONNX model (${bytes.length} bytes; ${why})`, { cause: e });
  }
  if (!header.hasGraph || header.irVersion <= 0) {
    throw new OnnxError("NOT_ONNX", `${label} is not an ONNX model (no graph or IR version)`);
  }
  const m = header.metadata;
  if (m["paravt.format"] !== ONNX_FORMAT) {
    throw new OnnxError(
      "NOT_NANO_ONNX",
      `${label} is an ONNX model but was not exported by exportOnnx (metadata paravt.format is ${JSON.stringify(m["paravt.format"] ?? null)})`,
    );
  }
  if (m["paravt.format_version"] !== String(ONNX_FORMAT_VERSION)) {
    throw new OnnxError(
      "NOT_NANO_ONNX",
      `${label} has export format version ${m["paravt.format_version"]}; this code reads ${ONNX_FORMAT_VERSION} (re-export it)`,
    );
  }
  let config: ModelConfig;
  try {
    config = parseModelConfig(JSON.parse(m["paravt.config"] ?? ""));
  } catch (e) {
    throw new OnnxError("NOT_NANO_ONNX", `${label}: metadata paravt.config is not a valid model config (${e})`);
  }
  const sha = m["paravt.parameters_sha256"] ?? "";
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new OnnxError("NOT_NANO_ONNX", `${label}: no parameters sha256 in metadata`);
  return {
    format: ONNX_FORMAT,
    formatVersion: ONNX_FORMAT_VERSION,
    config,
    tokenizerHash: m["paravt.tokenizer_hash"] || null,
    parametersSha256: sha,
    frameToken: Number(m["paravt.frame_token"]),
  };
}

/** Differences between two configs, field by field ("width 64 vs 256"); [] when equal. */
export function configDifferences(a: ModelConfig, b: ModelConfig): string[] {
  const keys = Object.keys({ ...a, ...b }) as (keyof ModelConfig)[];
  return keys
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k} ${JSON.stringify(a[k])} vs ${JSON.stringify(b[k])}`);
}

/**
 * Exports the checkpoint in `dir` to `dir/model.onnx` (written to a temporary file and renamed, so
 * a reader never sees half a file). Returns the path.
 */
export async function writeOnnxFile(dir: string): Promise<string> {
  const ckpt = await loadCheckpoint(dir, { moments: false });
  const bytes = exportOnnx(ckpt);
  const path = join(dir, ONNX_FILE);
  const tmp = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return path;
}
