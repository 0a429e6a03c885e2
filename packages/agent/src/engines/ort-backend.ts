// The nano backend on onnxruntime-node (`OrtNano` of @paravt/nano): the checkpoint exported to
// ONNX, run in a worker thread so the event loop (BullMQ lock renewal, HTTP) stays free, with the
// requests of one `complete()` call (the sub-agent calls of a turn) decoded as one batch.

import { OrtNano, type Generation } from "@paravt/nano";
import { EngineError } from "../types";
import { NanoEngine, type NanoBackend, type NanoGenerateItem } from "./nano-engine";

export class OrtNanoBackend implements NanoBackend {
  constructor(
    readonly ort: OrtNano,
    readonly description: string,
  ) {}

  get config() {
    return this.ort.config;
  }

  get tokenizer() {
    return this.ort.tokenizer;
  }

  /** Loads a checkpoint directory; its `model.onnx` is used when it matches, else exported in memory. */
  static async load(dir: string, opts?: Parameters<typeof OrtNano.load>[1]): Promise<OrtNanoBackend> {
    return new OrtNanoBackend(await OrtNano.load(dir, opts), `onnxruntime, ${dir}`);
  }

  async generateBatch(items: readonly NanoGenerateItem[], opts: { signal?: AbortSignal } = {}): Promise<Generation[]> {
    if (opts.signal?.aborted) throw new EngineError("cancelled", "the request was cancelled");
    return this.ort.generateBatch(items);
  }

  close(): Promise<void> {
    return this.ort.close();
  }
}

/** A NanoEngine over onnxruntime for a checkpoint directory (the eval jobs' nano engine). */
export async function loadOrtNanoEngine(dir: string): Promise<NanoEngine> {
  const backend = await OrtNanoBackend.load(dir);
  return new NanoEngine({
    backend,
    tokenizer: backend.tokenizer,
    thumbnail: backend.config.thumbnail,
    contextLength: backend.config.contextLength,
    description: `nano:${dir} (onnxruntime)`,
  });
}
