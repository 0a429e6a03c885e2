// OrtNano: ParaVT-nano inference on onnxruntime (CPU), off the main thread.
//
// The exported graph (export-onnx.ts) runs in a worker_threads worker (ort-worker.mjs) that owns
// the InferenceSession and every generation's KV cache; this side builds prompts, batches them,
// samples with the very `sampleToken` of generate.ts and decodes text. So
// `generateBatch` has generate()'s semantics item by item (prompt = buildPrompt, greedy / τ /
// top-p from a seeded Mulberry32 per item, control tokens never produced, log p under
// softmax(logits/τ), stop at <|im_end|>, maxTokens or T) while the event loop stays free.
//
// Batching: items are sorted by prompt length and cut into decoder batches of `maxBatch`. Each
// prompt of a batch is prefilled alone (a padded prefill would compute on the padding, and one
// batch may mix a ~600-token main-agent prompt with ~200-token sub-agent ones); the worker then
// merges their caches into one batch, and the batch decodes one token per run for all unfinished
// rows. Row b's cache holds its prompt in slots [0, len_b), masked slots up to the longest prompt,
// then its generated tokens; position ids are per row, so a row sees exactly what it sees alone.
// Finished rows leave the cache (`keep`) so they cost nothing. (The graph also takes left-padded
// batches: logits().)

import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { loadCheckpoint } from "../checkpoint";
import type { ModelConfig } from "../config";
import { frameFeatures, type FrameSource } from "../frames";
import { GenerateError, sampleToken, type Generation } from "../generate";
import { Mulberry32 } from "../init";
import type { TensorMap } from "../safetensors";
import { buildPrompt, type EpisodeTurn, type ModelSequence } from "../sequence";
import { CONTROL_TOKENS, type Tokenizer } from "../tokenizer";
import { OnnxError } from "./errors";
import {
  configDifferences,
  exportOnnx,
  ONNX_FILE,
  ONNX_FRAME_TOKEN,
  parametersSha256,
  readOnnxMetadata,
} from "./export-onnx";

export interface OrtNanoOptions {
  /** onnxruntime intra-op threads (default min(2, cores)): the core count of one session. */
  intraOpThreads?: number;
  /** Inter-op threads (default 1: the graph is a chain, sequential execution). */
  interOpThreads?: number;
  /** Let idle intra-op threads spin-wait (lower latency per op, a busy core between calls). Default false. */
  spin?: boolean;
  /** onnxruntime graph optimisation level (default "all"). */
  optimization?: "disabled" | "basic" | "extended" | "all";
  /** Most items decoded together by generateBatch (default 8); more are decoded batch after batch. */
  maxBatch?: number;
}

/** A checkpoint directory, a model in memory, or exported bytes with the config and tokenizer they belong to. */
export type OrtNanoSource =
  | string
  | { config: ModelConfig; tokenizer: Tokenizer; params: TensorMap }
  | { onnx: Uint8Array; config: ModelConfig; tokenizer: Tokenizer };

/** One generation request: generate()'s options without the model. */
export interface OrtGenerateItem {
  frames: FrameSource;
  turns: readonly EpisodeTurn[];
  forcedPrefix?: string;
  /** Default 512. */
  maxTokens?: number;
  /** 0 (default) = greedy. */
  temperature?: number;
  /** (0, 1], default 1. */
  topP?: number;
  /** Default 0. */
  seed?: number;
}

/** Inputs of one forward over fresh sequences (no cache), for tests and tools. */
export interface LogitsInput {
  /** B rows of S token ids each; the tokenizer's <frame> id marks a frame slot. */
  tokens: readonly ArrayLike<number>[];
  /** One feature vector (P floats) per frame slot, in row-major (row, position) order. */
  frames?: readonly Float32Array[];
  /** B rows of S 0/1 (default all 1). */
  attentionMask?: readonly ArrayLike<number>[];
  /** B rows of S positions (default 0..S-1). */
  positionIds?: readonly ArrayLike<number>[];
}

interface Feed {
  type: "int64" | "float32";
  dims: number[];
  data: BigInt64Array | Float32Array;
}

interface RunReply {
  logits: Float32Array;
  dims: number[];
}

const perLayer = (L: number, a: string, b: string) =>
  Array.from({ length: L }, (_, l) => [`${a}_${l}`, `${b}_${l}`]).flat();
const EXPECTED_INPUTS = (L: number) => [
  "tokens",
  "frames",
  "attention_mask",
  "position_ids",
  ...perLayer(L, "past_key", "past_value"),
];
const EXPECTED_OUTPUTS = (L: number) => ["logits", ...perLayer(L, "new_key", "new_value")];

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface PreparedItem {
  index: number;
  prompt: ModelSequence;
  feats: Float32Array[];
  maxTokens: number;
  temperature: number;
  topP: number;
  seed: number;
}

function int64(values: ArrayLike<number>): BigInt64Array {
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = BigInt(values[i]!);
  return out;
}

/** The options generate() validates, with its defaults and its messages. */
function checkItem(it: OrtGenerateItem, i: number) {
  const temperature = it.temperature ?? 0;
  const topP = it.topP ?? 1;
  const maxTokens = it.maxTokens ?? 512;
  const at = `item ${i}: `;
  if (!(temperature >= 0) || !Number.isFinite(temperature))
    throw new GenerateError(`${at}temperature must be >= 0 (got ${temperature})`);
  if (!(topP > 0 && topP <= 1)) throw new GenerateError(`${at}topP must be in (0, 1] (got ${topP})`);
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new GenerateError(`${at}maxTokens must be a positive integer (got ${maxTokens})`);
  return { temperature, topP, maxTokens, seed: it.seed ?? 0 };
}

export class OrtNano {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed: OnnxError | null = null;
  private readonly maxBatch: number;

  private constructor(
    private readonly worker: Worker,
    readonly config: ModelConfig,
    readonly tokenizer: Tokenizer,
    readonly options: Required<OrtNanoOptions>,
  ) {
    this.maxBatch = options.maxBatch;
    worker.on("message", (m: { id: number; result?: unknown; error?: { name: string; message: string } }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.error) p.reject(new OnnxError("RUN_FAILED", `onnxruntime: ${m.error.message}`));
      else p.resolve(m.result);
    });
    const die = (why: string) => {
      if (!this.closed) this.closed = new OnnxError("RUN_FAILED", `the ORT worker ${why}; this runner is unusable`);
      for (const p of this.pending.values()) p.reject(this.closed);
      this.pending.clear();
    };
    worker.on("error", (e) => die(`failed: ${e.message}`));
    worker.on("exit", (code) => die(`exited (code ${code})`));
    worker.unref(); // an idle runner does not keep the process alive; a call in flight does (call())
  }

  /**
   * Starts a worker with the model of `source`: a checkpoint directory (its model.onnx when present,
   * which must match the checkpoint's config, tokenizer and parameters, else exported in memory),
   * a model in memory (exported), or exported bytes with their config and tokenizer (checked
   * against the file's metadata). Throws OnnxError NOT_ONNX / NOT_NANO_ONNX / MISMATCH / LOAD_FAILED.
   */
  static async load(source: OrtNanoSource, options: OrtNanoOptions = {}): Promise<OrtNano> {
    const { onnx, config, tokenizer } = await resolveSource(source);
    const opts: Required<OrtNanoOptions> = {
      intraOpThreads: options.intraOpThreads ?? Math.min(2, availableParallelism()),
      interOpThreads: options.interOpThreads ?? 1,
      spin: options.spin ?? false,
      optimization: options.optimization ?? "all",
      maxBatch: options.maxBatch ?? 8,
    };
    for (const k of ["intraOpThreads", "interOpThreads", "maxBatch"] as const) {
      if (!Number.isInteger(opts[k]) || opts[k] < 1) {
        throw new OnnxError("BAD_INPUT", `${k} must be a positive integer (got ${opts[k]})`);
      }
    }
    const worker = new Worker(new URL("./ort-worker.mjs", import.meta.url));
    const runner = new OrtNano(worker, config, tokenizer, opts);
    try {
      const info = (await runner.call({
        op: "load",
        model: onnx,
        options: {
          intraOpNumThreads: opts.intraOpThreads,
          interOpNumThreads: opts.interOpThreads,
          spin: opts.spin,
          optimization: opts.optimization,
        },
        layers: config.layers,
        heads: config.heads,
        headDim: config.width / config.heads,
      })) as { inputNames: string[]; outputNames: string[] };
      for (const [what, got, want] of [
        ["inputs", info.inputNames, EXPECTED_INPUTS(config.layers)],
        ["outputs", info.outputNames, EXPECTED_OUTPUTS(config.layers)],
      ] as const) {
        if (got.join() !== want.join()) {
          throw new OnnxError(
            "MISMATCH",
            `the ONNX graph's ${what} are [${got.join(", ")}], expected [${want.join(", ")}]`,
          );
        }
      }
    } catch (e) {
      await worker.terminate();
      if (e instanceof OnnxError && e.code === "RUN_FAILED") {
        const why = e.message.replace(/^onnxruntime: /, "");
        throw new OnnxError("LOAD_FAILED", `onnxruntime could not load the model: ${why}`, { cause: e });
      }
      throw e;
    }
    return runner;
  }

  private call(msg: Record<string, unknown>): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, ...msg });
    });
  }

  private run(
    feeds: Record<string, Feed>,
    opts: { state?: string; keep?: number[]; last?: boolean } = {},
  ): Promise<RunReply> {
    return this.call({ op: "run", feeds, ...opts }) as Promise<RunReply>;
  }

  /** Logits [B, S, V] of one forward over fresh sequences (no cache). */
  async logits(input: LogitsInput): Promise<{ logits: Float32Array; dims: [number, number, number] }> {
    if (this.closed) throw this.closed;
    const { vocabSize: V, frameFeatures: P, contextLength: T } = this.config;
    const B = input.tokens.length;
    const S = input.tokens[0]?.length ?? 0;
    const bad = (m: string) => new OnnxError("BAD_INPUT", `logits: ${m}`);
    if (B < 1 || S < 1) throw bad("tokens needs at least one row of at least one token");
    const tokens = new BigInt64Array(B * S);
    let slots = 0;
    input.tokens.forEach((row, b) => {
      if (row.length !== S) throw bad(`tokens row ${b} has ${row.length} ids, row 0 has ${S}`);
      for (let s = 0; s < S; s++) {
        const id = row[s]!;
        if (!Number.isInteger(id) || id < 0 || id >= V) throw bad(`tokens[${b}][${s}] = ${id} is outside [0, ${V})`);
        if (id === ONNX_FRAME_TOKEN) slots++;
        tokens[b * S + s] = BigInt(id);
      }
    });
    const frames = input.frames ?? [];
    if (frames.length !== slots) throw bad(`${slots} frame slots but ${frames.length} frames`);
    const flat = new Float32Array(slots * P);
    frames.forEach((f, i) => {
      if (f.length !== P) throw bad(`frames[${i}] has ${f.length} features, expected ${P}`);
      flat.set(f, i * P);
    });
    const grid = (name: string, rows: readonly ArrayLike<number>[] | undefined, fill: (s: number) => number) => {
      if (rows && rows.length !== B) throw bad(`${name} has ${rows.length} rows, tokens ${B}`);
      const out: number[] = [];
      for (let b = 0; b < B; b++) {
        const r = rows?.[b];
        if (r && r.length !== S) throw bad(`${name} row ${b} has ${r.length} values, expected ${S}`);
        for (let s = 0; s < S; s++) out.push(r ? r[s]! : fill(s));
      }
      return out;
    };
    const mask = grid("attentionMask", input.attentionMask, () => 1);
    const positions = grid("positionIds", input.positionIds, (s) => s);
    const badPos = positions.find((p) => !Number.isInteger(p) || p < 0 || p >= T);
    if (badPos !== undefined) throw bad(`position id ${badPos} is outside [0, ${T})`);
    const r = await this.run({
      tokens: { type: "int64", dims: [B, S], data: tokens },
      frames: { type: "float32", dims: [slots, P], data: flat },
      attention_mask: { type: "int64", dims: [B, S], data: int64(mask) },
      position_ids: { type: "int64", dims: [B, S], data: int64(positions) },
    });
    return { logits: r.logits, dims: [B, S, V] };
  }

  /** generate() of one item (see generateBatch). */
  async generate(item: OrtGenerateItem): Promise<Generation> {
    return (await this.generateBatch([item]))[0]!;
  }

  /**
   * The next assistant turn of each item, with generate()'s semantics, decoded in batches of up
   * to `maxBatch` items (left padding); results in the order of `items`.
   */
  async generateBatch(items: readonly OrtGenerateItem[]): Promise<Generation[]> {
    if (this.closed) throw this.closed;
    const settings = items.map(checkItem);
    const T = this.config.contextLength;
    const prepared: PreparedItem[] = await Promise.all(
      items.map(async (it, index) => {
        const prompt = buildPrompt(this.tokenizer, it.turns, {
          forcedPrefix: it.forcedPrefix,
          contextLength: T,
          label: items.length > 1 ? `prompt of item ${index}` : "prompt",
        });
        const feats = await frameFeatures(it.frames, prompt.frames, this.config);
        return { index, prompt, feats, ...settings[index]! };
      }),
    );
    const order = [...prepared].sort((a, b) => a.prompt.ids.length - b.prompt.ids.length || a.index - b.index);
    const out: Generation[] = new Array(items.length);
    for (let i = 0; i < order.length; i += this.maxBatch) {
      const chunk = order.slice(i, i + this.maxBatch);
      const gens = await this.decodeBatch(chunk);
      chunk.forEach((p, k) => (out[p.index] = gens[k]!));
    }
    return out;
  }

  private async decodeBatch(rows: readonly PreparedItem[]): Promise<Generation[]> {
    const tok = this.tokenizer;
    const { vocabSize: V, frameFeatures: P, contextLength: T } = this.config;
    const imEnd = tok.idOf("<|im_end|>");
    if (imEnd === undefined) throw new GenerateError("the tokenizer has no <|im_end|> piece");
    const banned = CONTROL_TOKENS.length;
    const B = rows.length;
    const width = Math.max(...rows.map((r) => r.prompt.ids.length));
    const lens = rows.map((r) => r.prompt.ids.length);

    const state = `g${randomBytes(6).toString("hex")}`;
    const noFrames: Feed = { type: "float32", dims: [0, P], data: new Float32Array(0) };
    const gens = rows.map((r) => ({
      rng: new Mulberry32(r.seed),
      ids: [] as number[],
      logprobs: [] as number[],
      stop: "max_tokens" as Generation["stop"],
    }));
    try {
      // Prefill each prompt alone, then merge the caches into one batch for decoding (see the
      // header): row b's prompt in slots [0, len_b), [len_b, width) masked, generated from width.
      const first = new Float32Array(B * V);
      for (const [b, r] of rows.entries()) {
        const n = lens[b]!;
        const feats = Array.from(r.prompt.frameIndex)
          .filter((f) => f >= 0)
          .map((f) => r.feats[f]!);
        const frames = new Float32Array(feats.length * P);
        feats.forEach((f, i) => frames.set(f, i * P));
        const out = await this.run(
          {
            tokens: { type: "int64", dims: [1, n], data: int64(r.prompt.ids) },
            frames: { type: "float32", dims: [feats.length, P], data: frames },
            attention_mask: { type: "int64", dims: [1, n], data: new BigInt64Array(n).fill(1n) },
            position_ids: { type: "int64", dims: [1, n], data: int64(Array.from({ length: n }, (_, i) => i)) },
          },
          { state: `${state}.${b}`, last: true },
        );
        first.set(out.logits, b * V);
      }
      await this.call({ op: "merge", states: rows.map((_, b) => `${state}.${b}`), into: state });
      let logits: Float32Array = first;
      let active = rows.map((_, b) => b); // cache row k holds item active[k]
      let cacheLen = width;
      for (;;) {
        const still: number[] = [];
        const keep: number[] = [];
        active.forEach((b, k) => {
          const r = rows[b]!;
          const g = gens[b]!;
          const next = sampleToken(logits.subarray(k * V, (k + 1) * V), {
            temperature: r.temperature,
            topP: r.topP,
            rng: g.rng,
            banned,
          });
          g.ids.push(next.id);
          g.logprobs.push(next.logprob);
          // The stop order of generate(): <|im_end|>, then maxTokens, then the context length.
          if (next.id === imEnd) g.stop = "im_end";
          else if (g.ids.length >= r.maxTokens) g.stop = "max_tokens";
          else if (lens[b]! + g.ids.length >= T) g.stop = "context";
          else {
            still.push(b);
            keep.push(k);
          }
        });
        if (still.length === 0) break;
        const n = still.length;
        const stepMask = new BigInt64Array(n * (cacheLen + 1));
        still.forEach((b, k) => {
          stepMask.fill(1n, k * (cacheLen + 1), k * (cacheLen + 1) + lens[b]!); // its prompt
          stepMask.fill(1n, k * (cacheLen + 1) + width, (k + 1) * (cacheLen + 1)); // generated so far + this one
        });
        logits = (
          await this.run(
            {
              tokens: { type: "int64", dims: [n, 1], data: int64(still.map((b) => gens[b]!.ids.at(-1)!)) },
              frames: noFrames,
              attention_mask: { type: "int64", dims: [n, cacheLen + 1], data: stepMask },
              position_ids: {
                type: "int64",
                dims: [n, 1],
                data: int64(still.map((b) => lens[b]! + gens[b]!.ids.length - 1)),
              },
            },
            { state, keep: keep.length < active.length ? keep : undefined, last: true },
          )
        ).logits;
        active = still;
        cacheLen++;
      }
    } finally {
      if (!this.closed) {
        const keys = [state, ...rows.map((_, b) => `${state}.${b}`)]; // the row caches if the merge never ran
        await Promise.all(keys.map((key) => this.call({ op: "drop", state: key }).catch(() => undefined)));
      }
    }
    return gens.map((g, b) => {
      const textIds = g.stop === "im_end" ? g.ids.slice(0, -1) : g.ids;
      return {
        text: tok.decode(textIds),
        ids: g.ids,
        logprobs: g.logprobs,
        stop: g.stop,
        promptTokens: lens[b]!,
      };
    });
  }

  /** Releases the session and ends the worker; later calls reject with OnnxError CLOSED. */
  async close(): Promise<void> {
    if (this.closed?.code === "CLOSED") return;
    if (!this.closed) await this.call({ op: "close" }).catch(() => undefined);
    this.closed = new OnnxError("CLOSED", "this OrtNano runner is closed");
    await this.worker.terminate();
  }
}

async function resolveSource(
  source: OrtNanoSource,
): Promise<{ onnx: Uint8Array; config: ModelConfig; tokenizer: Tokenizer }> {
  if (typeof source === "string") {
    const ckpt = await loadCheckpoint(source, { moments: false });
    const path = join(source, ONNX_FILE);
    let onnx: Uint8Array;
    try {
      onnx = await readFile(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      return { onnx: exportOnnx(ckpt), config: ckpt.config, tokenizer: ckpt.tokenizer };
    }
    const meta = checkAgainst(onnx, ckpt.config, ckpt.tokenizer, path);
    const sha = parametersSha256(ckpt.config, ckpt.params);
    if (meta.parametersSha256 !== sha) {
      throw new OnnxError(
        "MISMATCH",
        `${path} was exported from other parameters (sha256 ${meta.parametersSha256.slice(0, 12)}) than ${source}/model.safetensors (${sha.slice(0, 12)}): re-export it with writeOnnxFile`,
      );
    }
    return { onnx, config: ckpt.config, tokenizer: ckpt.tokenizer };
  }
  if ("onnx" in source) {
    checkAgainst(source.onnx, source.config, source.tokenizer, "the given model");
    return source;
  }
  return { onnx: exportOnnx(source), config: source.config, tokenizer: source.tokenizer };
}

function checkAgainst(onnx: Uint8Array, config: ModelConfig, tok: Tokenizer, label: string) {
  const meta = readOnnxMetadata(onnx, label);
  const diff = configDifferences(meta.config, config);
  if (diff.length > 0) {
    throw new OnnxError("MISMATCH", `${label} was exported for another model config (${diff.join("; ")})`);
  }
  if (meta.tokenizerHash !== null && meta.tokenizerHash !== tok.hash) {
    throw new OnnxError(
      "MISMATCH",
      `${label} was exported with tokenizer ${meta.tokenizerHash.slice(0, 12)}, not the given ${tok.hash.slice(0, 12)}`,
    );
  }
  if (tok.size !== config.vocabSize) {
    throw new OnnxError(
      "MISMATCH",
      `the tokenizer has ${tok.size} tokens, the config's vocabSize is ${config.vocabSize}`,
    );
  }
  return meta;
}
