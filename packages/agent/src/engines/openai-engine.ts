// ChatEngine over an OpenAI-compatible chat-completions endpoint (vLLM, SGLang, our nano server).
// Frames travel as JPEG data URLs (SPEC §5); the forced prefix (SPEC §1.7) is a trailing
// assistant message with the vLLM/SGLang extension `continue_final_message: true,
// add_generation_prompt: false`. Transient failures (network errors, timeouts, 429, 5xx) are
// retried a bounded number of times with exponential backoff and full jitter; what still fails is
// an EngineError, so the runner records an error, never a wrong answer (SPEC §5). Responses are read
// by openai-response.ts: reasoning and tool calls that a server's parsers split off are put back
// into the turn text. Each attempt is bounded twice (first byte, total); redirects are refused.

import { z } from "zod";
import { mapPool } from "../pool";
import { jpegDataUrl, type WireMessage } from "../openai-wire";
import { readCompletionResponse } from "./openai-response";
import {
  EngineError,
  type ChatEngine,
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type PromptPresetName,
  type TokenCounter,
} from "../types";

export const OpenAIEngineOptionsSchema = z
  .object({
    /** e.g. http://host:8000/v1 (the engine POSTs to `${baseUrl}/chat/completions`). */
    baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }),
    model: z.string().min(1),
    apiKey: z.string().min(1).optional(),
    /**
     * Per attempt, until the response headers arrive (a non-streamed completion sends them only once
     * generated). At most 300 s: Node's fetch (undici) gives up on headers after 300 s on its own.
     */
    firstByteTimeoutMs: z.int().min(1).max(300_000).default(120_000),
    /** Per attempt, the whole exchange: connection, headers and body. */
    totalTimeoutMs: z.int().min(1).max(3_600_000).default(600_000),
    /** Retries after the first attempt (so at most retries + 1 attempts). */
    retries: z.int().min(0).max(20).default(2),
    /** Backoff: a random delay in [0, min(maxDelayMs, baseDelayMs * 2^attempt)] (full jitter). */
    baseDelayMs: z.int().min(0).default(500),
    maxDelayMs: z.int().min(0).default(10_000),
    /** Requests of one batch in flight at once. */
    concurrency: z.int().min(1).max(1024).default(8),
    /** Fields merged into every request body (e.g. vLLM's `top_k`). */
    extraBody: z.record(z.string(), z.unknown()).optional(),
    promptPreset: z.enum(["generic", "nano"]).optional(),
  })
  .refine((o) => o.firstByteTimeoutMs <= o.totalTimeoutMs, {
    path: ["firstByteTimeoutMs"],
    error: "firstByteTimeoutMs cannot exceed totalTimeoutMs",
  });
export type OpenAIEngineOptionsInput = z.input<typeof OpenAIEngineOptionsSchema> & {
  /** Called with the URL before every connection attempt; throw to refuse (the endpoint policy hook). */
  checkUrl?: (url: URL) => void | Promise<void>;
  /** Counts tokens for the summary cut when the served model's tokenizer is known locally. */
  tokenCounter?: TokenCounter;
  /** Observes retries (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: EngineError }) => void;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
};

/** A request message as sent: `WireMessage` plus the `video_url` item of vLLM / SGLang. */
export type OutgoingMessage =
  | WireMessage
  | {
      role: "user";
      content: (Exclude<WireMessage["content"], string>[number] | { type: "video_url"; video_url: { url: string } })[];
    };

/** The wire form of our messages: text parts as `text`, frames as JPEG `image_url` data URLs, a video file as `video_url`. */
export function toWireMessages(messages: readonly ChatMessage[]): OutgoingMessage[] {
  return messages.map((m) => {
    if (typeof m.content === "string") return { role: m.role, content: m.content };
    if (m.role !== "user") {
      if (m.content.some((p) => p.type !== "text"))
        throw new EngineError("internal", `${m.role} messages cannot hold frames`);
      return { role: m.role, content: m.content.map((p) => (p.type === "text" ? p.text : "")).join("") };
    }
    return {
      role: "user" as const,
      content: m.content.map((p) =>
        p.type === "text"
          ? { type: "text" as const, text: p.text }
          : p.type === "video_file"
            ? { type: "video_url" as const, video_url: { url: p.url } }
            : { type: "image_url" as const, image_url: { url: jpegDataUrl(p.jpeg) } },
      ),
    };
  });
}

/** The request body of one completion request. */
export function chatCompletionBody(
  model: string,
  r: CompletionRequest,
  extra?: Record<string, unknown>,
): Record<string, unknown> {
  const messages = toWireMessages(r.messages);
  const prefix = r.forcedPrefix !== undefined && r.forcedPrefix !== "";
  if (prefix) messages.push({ role: "assistant", content: r.forcedPrefix! });
  return {
    ...extra,
    model,
    messages,
    max_tokens: r.maxTokens,
    temperature: r.temperature,
    ...(r.topP !== undefined ? { top_p: r.topP } : {}),
    ...(r.seed !== undefined ? { seed: r.seed } : {}),
    ...(prefix ? { continue_final_message: true, add_generation_prompt: false } : {}),
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new EngineError("cancelled", "the request was cancelled"));
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new EngineError("cancelled", "the request was cancelled"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `Retry-After` in ms (seconds or an HTTP date), capped; null when absent or unreadable. */
function retryAfterMs(header: string | null, cap: number): number | null {
  if (!header) return null;
  const s = Number(header);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(cap, Math.max(0, ms)) : null;
}

/** An HTTP error status from the endpoint (kind "http"). */
export class HttpEngineError extends EngineError {
  constructor(
    readonly status: number,
    message: string,
    retryable: boolean,
    /** The server's Retry-After, capped at maxDelayMs. */
    readonly retryAfterMs: number | null,
  ) {
    super("http", message, retryable);
  }
}

export class OpenAIEngine implements ChatEngine {
  readonly description: string;
  readonly promptPreset?: PromptPresetName;
  readonly tokenCounter?: TokenCounter;
  private readonly o: z.infer<typeof OpenAIEngineOptionsSchema>;
  private readonly url: URL;
  private readonly hooks: Pick<OpenAIEngineOptionsInput, "checkUrl" | "onRetry" | "fetch">;

  constructor(options: OpenAIEngineOptionsInput) {
    const { checkUrl, tokenCounter, onRetry, fetch: f, ...rest } = options;
    const parsed = OpenAIEngineOptionsSchema.safeParse(rest);
    if (!parsed.success) throw new TypeError(`invalid OpenAIEngine options:\n${z.prettifyError(parsed.error)}`);
    this.o = parsed.data;
    this.url = new URL(`${this.o.baseUrl.replace(/\/+$/, "")}/chat/completions`);
    this.description = `openai:${this.o.baseUrl} ${this.o.model}`;
    if (this.o.promptPreset) this.promptPreset = this.o.promptPreset;
    if (tokenCounter) this.tokenCounter = tokenCounter;
    this.hooks = { ...(checkUrl ? { checkUrl } : {}), ...(onRetry ? { onRetry } : {}), ...(f ? { fetch: f } : {}) };
  }

  /** Every request, at most `concurrency` in flight; the first failure cancels the rest and rejects. */
  async complete(
    requests: readonly CompletionRequest[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Completion[]> {
    const batch = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, batch.signal]) : batch.signal;
    try {
      return await mapPool(requests, this.o.concurrency, (r) => this.completeOne(r, signal, options.signal));
    } catch (e) {
      batch.abort();
      throw e;
    }
  }

  async close(): Promise<void> {}

  private async completeOne(r: CompletionRequest, signal: AbortSignal, caller?: AbortSignal): Promise<Completion> {
    const body = JSON.stringify(chatCompletionBody(this.o.model, r, this.o.extraBody));
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(body, r.forcedPrefix, signal, caller);
      } catch (e) {
        const err = e instanceof EngineError ? e : new EngineError("internal", String(e), false, { cause: e });
        if (!err.retryable || attempt >= this.o.retries || signal.aborted) throw err;
        const backoff = Math.random() * Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** attempt);
        // A server's Retry-After (429/503) wins over our own backoff.
        const hinted = err instanceof HttpEngineError ? err.retryAfterMs : null;
        const delayMs = Math.round(hinted ?? backoff);
        this.hooks.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
        await sleep(delayMs, signal);
      }
    }
  }

  private async attempt(
    body: string,
    forcedPrefix: string | undefined,
    signal: AbortSignal,
    caller?: AbortSignal,
  ): Promise<Completion> {
    if (this.hooks.checkUrl) {
      try {
        await this.hooks.checkUrl(this.url);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        throw new EngineError("network", `endpoint refused by policy: ${why}`, false, { cause: e });
      }
    }
    // Two clocks per attempt: the first-byte one stops when the headers are in, the total one
    // also bounds the body (a server that sends headers and then stalls).
    const firstByte = new AbortController();
    const total = new AbortController();
    const firstByteTimer = setTimeout(() => firstByte.abort(), this.o.firstByteTimeoutMs);
    const totalTimer = setTimeout(() => total.abort(), this.o.totalTimeoutMs);
    const t0 = performance.now();
    let res: Response;
    let text: string;
    try {
      res = await (this.hooks.fetch ?? fetch)(this.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
        },
        body,
        // The endpoint policy (checkUrl) vets this URL only: following a redirect would send the
        // request, key included, to an address nobody checked, and a 303 would turn it into a GET
        // whose body (say, a cloud-metadata document) ended up in the episode error.
        redirect: "manual",
        signal: AbortSignal.any([signal, firstByte.signal, total.signal]),
      });
      clearTimeout(firstByteTimer);
      if (res.status >= 300 && res.status < 400) {
        // Refused without reading a byte of the body: nothing from that hop is stored anywhere.
        await res.body?.cancel().catch(() => {});
        throw new HttpEngineError(
          res.status,
          `HTTP ${res.status} from ${this.url.origin}: redirect to ${locationHost(res.headers.get("location"), this.url)} refused (redirects are not followed; register the final URL)`,
          false,
          null,
        );
      }
      text = await res.text();
    } catch (e) {
      if (e instanceof EngineError) throw e;
      if (caller?.aborted || signal.aborted)
        throw new EngineError("cancelled", "the request was cancelled", false, { cause: e });
      if (firstByte.signal.aborted) {
        throw new EngineError(
          "timeout",
          `no response headers from ${this.url.origin} within ${this.o.firstByteTimeoutMs} ms (first-byte timeout)`,
          true,
          { cause: e },
        );
      }
      if (total.signal.aborted) {
        throw new EngineError(
          "timeout",
          `the response from ${this.url.origin} did not complete within ${this.o.totalTimeoutMs} ms (total timeout)`,
          true,
          { cause: e },
        );
      }
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
      throw new EngineError("network", `cannot reach ${this.url.origin}: ${why}`, true, { cause: e });
    } finally {
      clearTimeout(firstByteTimer);
      clearTimeout(totalTimer);
    }
    const latencyMs = performance.now() - t0;
    if (!res.ok) {
      const retryable = res.status === 429 || res.status >= 500;
      const detail = errorMessageOf(text);
      throw new HttpEngineError(
        res.status,
        `HTTP ${res.status} from ${this.url.origin}: ${detail}`,
        retryable,
        retryable ? retryAfterMs(res.headers.get("retry-after"), this.o.maxDelayMs) : null,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EngineError("bad_response", `the response is not JSON: ${text.slice(0, 200)}`);
    }
    const read = readCompletionResponse(json, forcedPrefix);
    return {
      text: read.text,
      promptTokens: read.promptTokens,
      completionTokens: read.completionTokens,
      finish: read.finish,
      latencyMs,
      ...(read.notes.length > 0 ? { notes: read.notes } : {}),
    };
  }
}

/** The host a redirect points to (never its path or query), for the error message. */
function locationHost(location: string | null, base: URL): string {
  if (!location) return "(no Location header)";
  try {
    return new URL(location, base).host;
  } catch {
    return "(an unreadable Location header)";
  }
}

/** The `error.message` of an OpenAI error body, else the start of the body. */
function errorMessageOf(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown };
    const m = j.error?.message ?? j.message;
    if (typeof m === "string") return m;
  } catch {
    // not JSON: show the text
  }
  return body.slice(0, 300) || "(empty body)";
}
