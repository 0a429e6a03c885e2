// The contract of the episode runner (issue 7, SPEC §1 and §5): what an engine is, what an
// episode needs, and what a trajectory stores. Engines (nano through onnxruntime, OpenAI-compatible
// HTTP) and the eval jobs are written against these types only.

/** One frame in a chat message: a JPEG (SPEC §5: quality 85) with the time it shows. */
export interface FramePart {
  type: "frame";
  /** Nominal timestamp in seconds (what the prompt states, SPEC §1.1). */
  t: number;
  jpeg: Buffer;
  /** Identity of the source video (path or id): lets engines cache decoded thumbnails. */
  video: string;
}

export interface TextPart {
  type: "text";
  text: string;
}

/**
 * The whole video as a file URL, for a server that decodes it itself: the reference evaluator's
 * `video_url` channel (driver.py `_video_user_content`: `file://<absolute path>`; vLLM needs
 * `--allowed-local-media-path` and the same path on its machine). Only OpenAI-compatible engines
 * send it; nano cannot take it.
 */
export interface VideoFilePart {
  type: "video_file";
  url: string;
}

export type ContentPart = TextPart | FramePart | VideoFilePart;

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string | ContentPart[];
}

export interface CompletionRequest {
  messages: ChatMessage[];
  maxTokens: number;
  /** 0 = greedy. */
  temperature: number;
  topP?: number;
  seed?: number;
  /**
   * SPEC §1.7 constrained prefix (`<think>\n`): the engine continues an assistant message that
   * starts with it. `Completion.text` does NOT include it.
   */
  forcedPrefix?: string;
}

export interface Completion {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** "stop": the model ended its turn; "length": max tokens or context reached. */
  finish: "stop" | "length";
  latencyMs: number;
  /** How the engine rebuilt `text` from the response (e.g. reasoning moved back into `<think>`); absent when it did not. */
  notes?: string[];
}

/** Why an engine could not answer. Infrastructure failures make a sample `error`, never a wrong answer (SPEC §5). */
export type EngineErrorKind = "network" | "timeout" | "http" | "bad_response" | "cancelled" | "internal";

export class EngineError extends Error {
  override name = "EngineError";
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    /** Worth another try (connection reset, 429, 5xx, timeout). */
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Counts and cuts text in a model's tokens: SPEC §1.5 truncates each sub-agent summary to 512
 * tokens. Engines that know their tokenizer expose one (`ChatEngine.tokenCounter`); the runner
 * falls back to ~4 characters per token (`charsTokenCounter`).
 */
export interface TokenCounter {
  /** e.g. "nano tokenizer v1 e8ebbbd4" or "chars/4". */
  readonly name: string;
  count(text: string): number;
  /** The longest prefix of `text` of at most `maxTokens` tokens. */
  head(text: string, maxTokens: number): string;
}

/** Built-in prompt wording families (see prompts.ts): "nano" is the needle suite's training wording. */
export type PromptPresetName = "generic" | "nano";

export interface ChatEngine {
  /** Human-readable identity, e.g. "nano:/path/ckpt (onnxruntime)" or "openai:http://host/v1 qwen". */
  readonly description: string;
  /** The prompt wording this engine's model was trained on; the runner's default preset (else "generic"). */
  readonly promptPreset?: PromptPresetName;
  /** The model's tokenizer for the 512-token summary cut (SPEC §1.5); absent: ~4 characters per token. */
  readonly tokenCounter?: TokenCounter;
  /**
   * Completes every request (one result per request, same order). Requests of one call may be
   * batched (the sub-agent calls of one turn arrive together). Rejects with `EngineError`.
   */
  complete(requests: readonly CompletionRequest[], options?: { signal?: AbortSignal }): Promise<Completion[]>;
  close(): Promise<void>;
}
