// ChatEngine over ParaVT-nano. The model work is done by a pluggable backend: the C++ core
// (core-backend.ts, sequential) here, an onnxruntime backend elsewhere (packages/nano/src/onnx,
// same `generateBatch` shape). This file only converts messages (nano-messages.ts), checks the
// prompt fits the context, and maps results and failures onto the engine contract.

import {
  buildPrompt,
  ContextOverflowError,
  type EpisodeTurn,
  type FrameSource,
  type Generation,
  type Tokenizer,
} from "@paravt/nano";
import { nanoTokenCounter } from "../token-counter";
import {
  EngineError,
  type ChatEngine,
  type Completion,
  type CompletionRequest,
  type PromptPresetName,
  type TokenCounter,
} from "../types";
import { chatToNanoContent, NanoMessageError, ThumbnailCache, toNanoTurns } from "./nano-messages";

/** One generation for a backend: nano's `generate` options without the model. */
export interface NanoGenerateItem {
  frames: FrameSource;
  turns: readonly EpisodeTurn[];
  forcedPrefix?: string;
  maxTokens: number;
  temperature: number;
  topP?: number;
  seed?: number;
}

/** What runs the model: one Generation per item, same order (batched or not, the backend's choice). */
export interface NanoBackend {
  generateBatch(items: readonly NanoGenerateItem[], opts?: { signal?: AbortSignal }): Promise<Generation[]>;
  readonly description?: string;
  close?(): Promise<void>;
}

export interface NanoEngineOptions {
  backend: NanoBackend;
  /** The checkpoint's tokenizer. */
  tokenizer: Tokenizer;
  /** The model's thumbnail size (`config.thumbnail`). */
  thumbnail: { width: number; height: number };
  /** The model's context length T: longer prompts fail before reaching the backend. */
  contextLength?: number;
  description?: string;
  /** Thumbnails kept (LRU), default 8192. */
  cacheEntries?: number;
}

/** A prompt that cannot be rendered (bad message shape, longer than T), as the engine reports it. */
export function nanoPromptError(e: unknown): EngineError | null {
  if (e instanceof ContextOverflowError || e instanceof NanoMessageError) {
    return new EngineError("internal", e.message, false, { cause: e });
  }
  return null;
}

export class NanoEngine implements ChatEngine {
  readonly description: string;
  readonly promptPreset: PromptPresetName = "nano";
  readonly tokenCounter: TokenCounter;
  readonly thumbnails: ThumbnailCache;

  constructor(private readonly o: NanoEngineOptions) {
    this.description = o.description ?? `nano (${o.backend.description ?? "custom backend"})`;
    this.tokenCounter = nanoTokenCounter(o.tokenizer);
    this.thumbnails = new ThumbnailCache(o.thumbnail, o.cacheEntries);
  }

  get backend(): NanoBackend {
    return this.o.backend;
  }

  /** The backend item of one request (also used by the OpenAI-compatible server's tests). */
  item(r: CompletionRequest): NanoGenerateItem {
    const { turns, frames } = toNanoTurns(r.messages.map(chatToNanoContent), this.thumbnails);
    if (this.o.contextLength !== undefined) {
      // Throws ContextOverflowError naming the length; generate() would too, but only after the
      // backend started on the rest of the batch.
      buildPrompt(this.o.tokenizer, turns, {
        forcedPrefix: r.forcedPrefix,
        contextLength: this.o.contextLength,
        label: "prompt",
      });
    }
    return {
      frames,
      turns,
      maxTokens: r.maxTokens,
      temperature: r.temperature,
      ...(r.forcedPrefix !== undefined ? { forcedPrefix: r.forcedPrefix } : {}),
      ...(r.topP !== undefined ? { topP: r.topP } : {}),
      ...(r.seed !== undefined ? { seed: r.seed } : {}),
    };
  }

  async complete(
    requests: readonly CompletionRequest[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Completion[]> {
    if (options.signal?.aborted) throw new EngineError("cancelled", "the request was cancelled");
    let items: NanoGenerateItem[];
    try {
      items = requests.map((r) => this.item(r));
    } catch (e) {
      throw nanoPromptError(e) ?? e;
    }
    const t0 = performance.now();
    let gens: Generation[];
    try {
      gens = await this.o.backend.generateBatch(items, options.signal ? { signal: options.signal } : {});
    } catch (e) {
      if (e instanceof EngineError) throw e;
      if (options.signal?.aborted) throw new EngineError("cancelled", "the request was cancelled", false, { cause: e });
      throw (
        nanoPromptError(e) ??
        new EngineError("internal", e instanceof Error ? e.message : String(e), false, { cause: e })
      );
    }
    if (gens.length !== requests.length) {
      throw new EngineError(
        "bad_response",
        `the backend returned ${gens.length} generations for ${requests.length} items`,
      );
    }
    // A batch's generations finish together: each gets the batch's wall time.
    const latencyMs = performance.now() - t0;
    return gens.map((g) => completionOf(g, latencyMs));
  }

  async close(): Promise<void> {
    await this.o.backend.close?.();
  }
}

/** Engine completion of a nano Generation (`ids` include the closing `<|im_end|>` when produced). */
export function completionOf(g: Generation, latencyMs: number): Completion {
  return {
    text: g.text,
    promptTokens: g.promptTokens,
    completionTokens: g.ids.length,
    finish: g.stop === "im_end" ? "stop" : "length",
    latencyMs,
  };
}
