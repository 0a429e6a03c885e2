// The nano backend on the C++ compute core (@paravt/kernels through `createCoreModel`): nano's
// KV-cache `generate`, one item after another (the core runs one model call at a time anyway;
// batching belongs to the onnxruntime backend).

import {
  createCoreModel,
  generate,
  loadCheckpoint,
  type Generation,
  type ModelConfig,
  type Tokenizer,
} from "@paravt/nano";
import { EngineError } from "../types";
import { NanoEngine, type NanoBackend, type NanoGenerateItem } from "./nano-engine";

type CoreModel = ReturnType<typeof createCoreModel>;

export class CoreNanoBackend implements NanoBackend {
  readonly description: string;

  constructor(
    readonly model: CoreModel,
    readonly config: ModelConfig,
    readonly tokenizer: Tokenizer,
    description = "C++ core",
  ) {
    this.description = description;
  }

  /** Loads a checkpoint directory (`loadCheckpoint` checks it) into a core model. */
  static async load(dir: string): Promise<CoreNanoBackend> {
    const ckpt = await loadCheckpoint(dir);
    return new CoreNanoBackend(
      createCoreModel(ckpt.config, ckpt.params),
      ckpt.config,
      ckpt.tokenizer,
      `C++ core, ${dir}`,
    );
  }

  async generateBatch(items: readonly NanoGenerateItem[], opts: { signal?: AbortSignal } = {}): Promise<Generation[]> {
    const out: Generation[] = [];
    for (const it of items) {
      if (opts.signal?.aborted) throw new EngineError("cancelled", "the request was cancelled");
      out.push(await generate({ model: this.model, config: this.config, tokenizer: this.tokenizer, ...it }));
    }
    return out;
  }
}

/** A NanoEngine over the C++ core for a checkpoint directory (e.g. packages/nano/checkpoints/default). */
export async function loadCoreNanoEngine(dir: string): Promise<NanoEngine> {
  const backend = await CoreNanoBackend.load(dir);
  return new NanoEngine({
    backend,
    tokenizer: backend.tokenizer,
    thumbnail: backend.config.thumbnail,
    contextLength: backend.config.contextLength,
    description: `nano:${dir} (C++ core)`,
  });
}
