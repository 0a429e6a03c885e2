// ParaVT-nano behind an OpenAI-compatible HTTP API (node:http), so every OpenAI-speaking client
// (our OpenAIEngine, the reference evaluator, the openai SDKs, curl) can talk to it:
//   POST /v1/chat/completions   messages with string or [{type: text}, {type: image_url}] content
//                               (images: JPEG/PNG/WebP data URLs only, nothing is fetched),
//                               max_tokens, temperature, top_p, seed, n, stop, logprobs
//                               (top_logprobs 0 only), stream (+ stream_options.include_usage),
//                               continue_final_message
//   GET  /v1/models, GET /health
// Bad bodies and images get 400 with OpenAI's error JSON, naming the field; so does a field the
// server cannot honour (request-fields.ts). Text items stay text parts (the `<t seconds>` before
// each image included), images become frame slots, so a request renders to the same tokens as the
// same messages given to NanoEngine directly.
//
// n completions are n generations with seeds seed, seed + 1, … (seed defaults to 0, as for one).
// Stop strings are applied to the finished generation (the backends generate to <|im_end|> or
// max_tokens); a streamed answer is sent as chunks once its generations are done, since the
// backends return whole generations.
//
// Requests that arrive while the backend is busy are queued and handed to the next
// `generateBatch` call together (up to `maxBatch`): batching backends get batches, the
// sequential core backend simply works through them.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import {
  buildPrompt,
  ContextOverflowError,
  DEFAULT_THUMBNAIL,
  defaultTokenizer,
  type Generation,
  type ModelConfig,
  type Tokenizer,
} from "@paravt/nano";
import type { NanoBackend, NanoGenerateItem } from "../engines/nano-engine";
import { NanoMessageError, ThumbnailCache, toNanoTurns, type NanoContent } from "../engines/nano-messages";
import { ChatCompletionRequestSchema, decodeImageDataUrl, wireIssues, type WireError } from "../openai-wire";
import { chatChoice, choiceChunks, finishChoice, type FinishedChoice, type Usage } from "./choices";
import { unsupportedField } from "./request-fields";

export interface NanoServerOptions {
  backend: NanoBackend & { readonly tokenizer?: Tokenizer; readonly config?: ModelConfig };
  /** Default: the backend's, else nano's default tokenizer. */
  tokenizer?: Tokenizer;
  /** The name clients must send as `model` (and /v1/models lists). */
  modelName: string;
  /** Default: the backend's config, else nano's default thumbnail. */
  thumbnail?: { width: number; height: number };
  /** Prompts longer than this are refused with 400; default the backend's config. */
  contextLength?: number;
  /** max_tokens when the request has none (default 2048, SPEC §5's). */
  defaultMaxTokens?: number;
  /** Requests per backend call (default 8). */
  maxBatch?: number;
  /** Request body limit (default 64 MiB: 64 frames of 50 kB as base64 fit many times over). */
  maxBodyBytes?: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, e: HttpError): void {
  const body: WireError = { error: { message: e.message, type: e.type, param: e.param, code: e.code } };
  send(res, e.status, body);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new HttpError(413, `request body larger than ${limit} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Queues items and feeds them to the backend in batches, one backend call at a time. */
class Batcher {
  private queue: { item: NanoGenerateItem; resolve: (g: Generation) => void; reject: (e: unknown) => void }[] = [];
  private busy = false;

  constructor(
    private readonly backend: NanoBackend,
    private readonly maxBatch: number,
  ) {}

  run(item: NanoGenerateItem): Promise<Generation> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    const batch = this.queue.splice(0, this.maxBatch);
    this.backend
      .generateBatch(batch.map((b) => b.item))
      .then(
        (gens) => {
          if (gens.length !== batch.length) throw new Error(`backend returned ${gens.length} of ${batch.length}`);
          batch.forEach((b, i) => b.resolve(gens[i]!));
        },
        (e: unknown) => batch.forEach((b) => b.reject(e)),
      )
      .catch((e: unknown) => batch.forEach((b) => b.reject(e)))
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }
}

/** The server (not listening yet: call `.listen(port, host)`). */
export function createNanoServer(opts: NanoServerOptions): Server {
  const tokenizer = opts.tokenizer ?? opts.backend.tokenizer ?? defaultTokenizer();
  const thumbnail = opts.thumbnail ?? opts.backend.config?.thumbnail ?? DEFAULT_THUMBNAIL;
  const contextLength = opts.contextLength ?? opts.backend.config?.contextLength;
  const cache = new ThumbnailCache(thumbnail);
  const batcher = new Batcher(opts.backend, opts.maxBatch ?? 8);
  const maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
  const created = Math.floor(Date.now() / 1000);

  async function chatCompletion(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req, maxBody);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      throw new HttpError(400, "the request body is not valid JSON");
    }
    if (typeof json === "object" && json !== null && !Array.isArray(json)) {
      const refused = unsupportedField(json as Record<string, unknown>);
      if (refused) throw new HttpError(400, refused.message, "invalid_request_error", refused.param);
    }
    const parsed = ChatCompletionRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = wireIssues(parsed.error);
      const message = issues.map((i) => (i.param ? `${i.param}: ${i.message}` : i.message)).join("; ");
      throw new HttpError(400, message, "invalid_request_error", issues[0]?.param ?? null);
    }
    const body = parsed.data;
    if (body.model !== opts.modelName) {
      throw new HttpError(
        404,
        `The model \`${body.model}\` does not exist.`,
        "invalid_request_error",
        "model",
        "model_not_found",
      );
    }
    if (body.stream_options != null && body.stream !== true) {
      throw new HttpError(400, "stream_options is only allowed when stream is true", undefined, "stream_options");
    }
    if (body.top_logprobs != null && body.top_logprobs > 0) {
      // generate() keeps the sampled token's log-probability only, not the distribution's top k.
      throw new HttpError(
        400,
        "top_logprobs > 0 is not supported: the nano decoder exposes only the sampled token's log-probability",
        undefined,
        "top_logprobs",
      );
    }
    if (body.top_logprobs != null && body.logprobs !== true) {
      throw new HttpError(400, "top_logprobs needs logprobs: true", undefined, "top_logprobs");
    }
    let messages = body.messages;
    let forcedPrefix: string | undefined;
    if (body.continue_final_message) {
      if (body.add_generation_prompt === true) {
        throw new HttpError(
          400,
          "continue_final_message and add_generation_prompt cannot both be true",
          undefined,
          "continue_final_message",
        );
      }
      const last = messages[messages.length - 1]!;
      if (last.role !== "assistant") {
        throw new HttpError(400, "continue_final_message needs a final assistant message", undefined, "messages");
      }
      forcedPrefix =
        typeof last.content === "string"
          ? last.content
          : last.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      messages = messages.slice(0, -1);
    }
    const content: { role: "system" | "user" | "assistant"; content: NanoContent }[] = messages.map((m, i) => {
      if (typeof m.content === "string") return { role: m.role, content: m.content };
      return {
        role: m.role,
        content: m.content.map((c, j) => {
          if (c.type === "text") return { type: "text" as const, text: c.text };
          const param = `messages[${i}].content[${j}].image_url.url`;
          if (m.role !== "user") throw new HttpError(400, `only user messages can hold images`, undefined, param);
          const img = decodeImageDataUrl(c.image_url.url);
          if (!img.ok) throw new HttpError(400, `${param}: ${img.error}`, undefined, param);
          return { type: "image" as const, image: img.bytes, t: 0 };
        }),
      };
    });
    // Decode every image now, so a broken one is a 400 naming it rather than a failed generation.
    const images = content.flatMap((m, i) =>
      typeof m.content === "string"
        ? []
        : m.content.flatMap((c, j) => (c.type === "image" ? [{ i, j, bytes: c.image }] : [])),
    );
    await Promise.all(
      images.map(({ i, j, bytes }) =>
        cache.get(bytes).thumbnail.catch((e: unknown) => {
          const param = `messages[${i}].content[${j}].image_url.url`;
          throw new HttpError(
            400,
            `${param}: cannot decode the image (${e instanceof Error ? e.message : e})`,
            undefined,
            param,
          );
        }),
      ),
    );
    let turns;
    let frames;
    try {
      ({ turns, frames } = toNanoTurns(content, cache));
      if (contextLength !== undefined)
        buildPrompt(tokenizer, turns, { forcedPrefix, contextLength, label: "the prompt" });
    } catch (e) {
      if (e instanceof ContextOverflowError) {
        throw new HttpError(400, e.message, "invalid_request_error", "messages", "context_length_exceeded");
      }
      if (e instanceof NanoMessageError) throw new HttpError(400, e.message, "invalid_request_error", "messages");
      throw e;
    }
    const n = body.n ?? 1;
    const items: NanoGenerateItem[] = Array.from({ length: n }, (_, i) => ({
      frames,
      turns,
      maxTokens: body.max_tokens ?? body.max_completion_tokens ?? opts.defaultMaxTokens ?? 2048,
      temperature: body.temperature ?? 1,
      ...(forcedPrefix !== undefined ? { forcedPrefix } : {}),
      ...(body.top_p !== undefined ? { topP: body.top_p } : {}),
      // Choice i draws with seed + i: independent samples, reproducible; one choice keeps `seed`.
      ...(body.seed !== undefined || n > 1 ? { seed: (body.seed ?? 0) + i } : {}),
    }));
    const gens = await Promise.all(items.map((item) => batcher.run(item)));
    const stops = body.stop == null ? [] : typeof body.stop === "string" ? [body.stop] : body.stop;
    const done: FinishedChoice[] = gens.map((g) => finishChoice(g, stops, tokenizer));
    const promptTokens = gens[0]!.promptTokens;
    const completionTokens = done.reduce((a, c) => a + c.ids.length, 0);
    const usage: Usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };
    const id = `chatcmpl-${randomUUID()}`;
    const head = { id, created: Math.floor(Date.now() / 1000), model: opts.modelName };
    const withLogprobs = body.logprobs === true;
    if (body.stream !== true) {
      send(res, 200, {
        ...head,
        object: "chat.completion",
        choices: done.map((c, i) => chatChoice(i, c, withLogprobs, tokenizer)),
        usage,
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    for (const [i, c] of done.entries()) {
      for (const choice of choiceChunks(i, c, withLogprobs, tokenizer)) {
        event({ ...head, object: "chat.completion.chunk", choices: [choice] });
      }
    }
    if (body.stream_options?.include_usage === true) {
      event({ ...head, object: "chat.completion.chunk", choices: [], usage });
    }
    res.end("data: [DONE]\n\n");
  }

  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
    const route = async () => {
      if (path === "/health") {
        // vLLM's liveness probe: 200 with an empty body once the model is loaded (it is, by now).
        if (req.method !== "GET") throw new HttpError(405, `use GET for ${path}`);
        res.writeHead(200, { "content-length": 0 }).end();
        return;
      }
      if (path === "/v1/models") {
        if (req.method !== "GET") throw new HttpError(405, `use GET for ${path}`);
        send(res, 200, {
          object: "list",
          data: [
            {
              id: opts.modelName,
              object: "model",
              created,
              owned_by: "paravt",
              // vLLM's ModelCard field: the context length clients may plan with.
              ...(contextLength !== undefined ? { max_model_len: contextLength } : {}),
            },
          ],
        });
        return;
      }
      if (path === "/v1/chat/completions") {
        if (req.method !== "POST") throw new HttpError(405, `use POST for ${path}`);
        await chatCompletion(req, res);
        return;
      }
      throw new HttpError(404, `no route ${req.method} ${path}`, "invalid_request_error", null, "not_found");
    };
    route().catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof HttpError) return sendError(res, e);
      sendError(res, new HttpError(500, e instanceof Error ? e.message : String(e), "server_error"));
    });
  });
}
