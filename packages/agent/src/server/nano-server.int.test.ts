// The nano OpenAI-compatible server and OpenAIEngine against each other over real localhost HTTP.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { THINK_PREFIX } from "@paravt/nano";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreNanoBackend } from "../engines/core-backend";
import { NanoEngine, type NanoBackend } from "../engines/nano-engine";
import { OpenAIEngine } from "../engines/openai-engine";
import { videoFrameSampler } from "../frame-sampler";
import { jpegDataUrl } from "../openai-wire";
import { runEpisode, type EpisodeInput } from "../runner";
import { scoreEpisode } from "../scoring";
import { ScriptedEngine, timeless, writeTinySuite } from "../test-support";
import { nanoTokenCounter } from "../token-counter";
import type { Trajectory } from "../trajectory";
import { EngineError, type CompletionRequest } from "../types";
import { createNanoServer } from "./nano-server";

const CHECKPOINT = fileURLToPath(new URL("../../../nano/checkpoints/default", import.meta.url));
const MODEL = "nano-default";
let suite: Awaited<ReturnType<typeof writeTinySuite>>;
let backend: CoreNanoBackend;
let direct: NanoEngine;
let server: Server;
let baseUrl = "";
const sampler = videoFrameSampler({ maxErrorS: 0 });
/**
 * What the server did: batch sizes handed to the backend, requests received, the peak of requests
 * in flight; `gate` holds the backend back until `until` requests have arrived.
 */
const seen = {
  batches: [] as number[],
  requests: 0,
  inFlight: 0,
  peak: 0,
  gate: null as { until: number; reached: Promise<void>; release: () => void } | null,
};
function gateUntil(n: number) {
  let release = () => {};
  const reached = new Promise<void>((r) => (release = r));
  seen.gate = { until: n, reached, release };
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

beforeAll(async () => {
  suite = await writeTinySuite();
  backend = await CoreNanoBackend.load(CHECKPOINT);
  direct = new NanoEngine({
    backend,
    tokenizer: backend.tokenizer,
    thumbnail: backend.config.thumbnail,
    contextLength: 2048,
  });
  const observed: NanoBackend & Pick<CoreNanoBackend, "tokenizer" | "config"> = {
    tokenizer: backend.tokenizer,
    config: backend.config,
    async generateBatch(items, o) {
      seen.batches.push(items.length);
      if (seen.gate) await seen.gate.reached;
      return backend.generateBatch(items, o);
    },
  };
  server = createNanoServer({ backend: observed, modelName: MODEL });
  server.on("request", (_req, res) => {
    seen.requests++;
    seen.peak = Math.max(seen.peak, ++seen.inFlight);
    res.on("close", () => seen.inFlight--);
    if (seen.gate && seen.requests >= seen.gate.until) seen.gate.release();
  });
  baseUrl = `${await listen(server)}/v1`;
});
afterAll(async () => {
  if (server) await close(server);
  await suite?.cleanup();
});

const engineFor = (url = baseUrl, extra: Partial<ConstructorParameters<typeof OpenAIEngine>[0]> = {}) =>
  new OpenAIEngine({
    baseUrl: url,
    model: MODEL,
    promptPreset: "nano",
    tokenCounter: nanoTokenCounter(backend.tokenizer),
    baseDelayMs: 1,
    ...extra,
  });

const inputOf = (i: number): EpisodeInput => {
  const q = suite.plan.questions[i]!;
  return { video: { file: `${suite.dir}/${q.video}`, path: q.video }, question: q.question, questionType: q.type };
};

/** A trajectory minus the clock and the engine's name: what must match across engines. */
const comparable = (t: Trajectory) => ({ ...(timeless(t) as object), engine: "", subAgentEngine: "" });

async function post(
  body: unknown,
  raw?: string,
): Promise<{ status: number; json: { error?: Record<string, unknown> } }> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ?? JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { error?: Record<string, unknown> } };
}

describe("OpenAIEngine -> nano server", () => {
  it("lists the model", async () => {
    const res = await fetch(`${baseUrl}/models`);
    expect(await res.json()).toMatchObject({ object: "list", data: [{ id: MODEL, object: "model" }] });
  });

  it("gives the same trajectories as NanoEngine directly (greedy, forced think prefix)", async () => {
    const http = engineFor();
    for (let i = 0; i < suite.plan.questions.length; i++) {
      const config = { k: 16, thinkPrefix: true, maxTokens: 200 };
      const a = await runEpisode({ engine: direct, input: inputOf(i), frames: sampler, config });
      const b = await runEpisode({ engine: http, input: inputOf(i), frames: sampler, config });
      expect(b.status).toBe("ok");
      expect(b.engine).toBe(`openai:${baseUrl} ${MODEL}`);
      expect(comparable(b)).toEqual(comparable(a));
    }
  });

  it("sub-agent calls of a turn travel as concurrent requests and give NanoEngine's summaries", async () => {
    const row = suite.plan.oracle.find((r) => r.rounds.some((c) => c.length >= 3))!;
    const said = row.turns.filter((t) => t.role === "assistant").map((t) => t.content.slice(THINK_PREFIX.length));
    const q = suite.plan.questions.find((x) => x.id === row.questionId)!;
    const run = (sub: NanoEngine | OpenAIEngine) =>
      runEpisode({
        engine: new ScriptedEngine((_r, i) => said[i] ?? ""),
        subAgentEngine: sub,
        tokenCounter: direct.tokenCounter,
        input: { video: { file: `${suite.dir}/${row.video}`, path: row.video }, question: q.question },
        frames: sampler,
        config: { k: row.k, thinkPrefix: true, promptPreset: "nano", subAgentMaxTokens: 120 },
      });
    const a = await run(direct);
    const calls = row.rounds[0]!.length;
    // Hold the first backend call until every request of the round has reached the server.
    Object.assign(seen, { batches: [], requests: 0, peak: 0 });
    gateUntil(calls);
    const b = await run(engineFor());
    seen.gate = null;
    expect(seen.requests).toBe(calls);
    expect(seen.peak).toBe(calls); // every call of the round was in flight at once
    expect(seen.batches[0]).toBe(1);
    expect(seen.batches.reduce((x, y) => x + y, 0)).toBe(calls);
    expect(b.turns[0]!.toolCalls.map((c) => c.subAgentOutput)).toEqual(
      a.turns[0]!.toolCalls.map((c) => c.subAgentOutput),
    );
    expect(comparable(b)).toEqual(comparable(a));
  });
});

describe("OpenAIEngine failures", () => {
  const req: CompletionRequest = { messages: [{ role: "user", content: "hello" }], maxTokens: 4, temperature: 0 };

  it("retries 503 and 429 (honouring Retry-After) and sends the API key", async () => {
    const got: IncomingMessage[] = [];
    const proxy = createServer((r, res) => {
      got.push(r);
      if (got.length === 1) return res.writeHead(503).end(JSON.stringify({ error: { message: "warming up" } }));
      if (got.length === 2) return res.writeHead(429, { "retry-after": "0" }).end("slow down");
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => {
        void fetch(`${baseUrl}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: Buffer.concat(chunks),
        }).then(async (up) => res.writeHead(up.status, { "content-type": "application/json" }).end(await up.text()));
      });
    });
    const url = await listen(proxy);
    const retries: { attempt: number; delayMs: number; error: EngineError }[] = [];
    const e = engineFor(`${url}/v1`, { apiKey: "sk-test", onRetry: (r) => retries.push(r) });
    const [c] = await e.complete([req]);
    await close(proxy);
    const [ref] = await direct.complete([req]);
    expect(c).toMatchObject({
      text: ref!.text,
      promptTokens: ref!.promptTokens,
      completionTokens: ref!.completionTokens,
    });
    expect(got).toHaveLength(3);
    expect(got.every((r) => r.headers.authorization === "Bearer sk-test")).toBe(true);
    expect(retries.map((r) => [r.attempt, r.error.kind, r.error.message])).toEqual([
      [1, "http", expect.stringContaining("HTTP 503") as unknown],
      [2, "http", expect.stringMatching(/^HTTP 429 from .*: slow down$/) as unknown],
    ]);
    expect(retries[0]!.error.message).toContain("warming up");
    expect(retries[1]!.delayMs).toBe(0);
  });

  it("a dead port is an EngineError network after the bounded retries; the episode is an error, not a wrong answer", async () => {
    const tmp = createServer();
    const url = await listen(tmp);
    await close(tmp); // nothing listens there now
    const retries: number[] = [];
    const e = engineFor(`${url}/v1`, { retries: 2, onRetry: (r) => retries.push(r.attempt) });
    const err = await e.complete([req]).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ kind: "network", retryable: true });
    expect((err as Error).message).toMatch(/cannot reach .*ECONNREFUSED/);
    expect(retries).toEqual([1, 2]);
    const t = await runEpisode({ engine: e, input: inputOf(2), frames: sampler, config: { k: 4 } });
    expect(t).toMatchObject({
      status: "error",
      prediction: "",
      error: { kind: "network", stage: "main_agent", turn: 0 },
    });
    expect(scoreEpisode(t, { questionType: "mcq", answer: suite.plan.questions[2]!.answer })).toMatchObject({
      status: "error",
      score: null,
    });
  });

  it("a server that does not answer in time is a timeout (retried, then reported)", async () => {
    const hang = createServer(() => {});
    const url = await listen(hang);
    const retries: string[] = [];
    const e = engineFor(`${url}/v1`, {
      firstByteTimeoutMs: 100,
      retries: 1,
      onRetry: (r) => retries.push(r.error.kind),
    });
    const err = await e.complete([req]).catch((x: unknown) => x);
    hang.closeAllConnections();
    await close(hang);
    expect(err).toMatchObject({ name: "EngineError", kind: "timeout", retryable: true });
    expect(retries).toEqual(["timeout"]);
  });

  it("the caller's abort is 'cancelled' and is not retried", async () => {
    const hang = createServer(() => {});
    const url = await listen(hang);
    const retries: number[] = [];
    const ac = new AbortController();
    const e = engineFor(`${url}/v1`, { onRetry: (r) => retries.push(r.attempt) });
    const p = e.complete([req], { signal: ac.signal }).catch((x: unknown) => x);
    setTimeout(() => ac.abort(), 20);
    expect(await p).toMatchObject({ kind: "cancelled" });
    hang.closeAllConnections();
    await close(hang);
    expect(retries).toEqual([]);
  });

  it("a 400 is not retried; checkUrl can refuse before connecting; options are validated", async () => {
    const retries: number[] = [];
    const e = engineFor(baseUrl, { onRetry: (r) => retries.push(r.attempt) });
    const before = seen.requests;
    const err = await e
      .complete([{ ...req, messages: [{ role: "user", content: "x".repeat(3000) }] }])
      .catch((x: unknown) => x);
    expect(err).toMatchObject({ kind: "http", retryable: false, status: 400 });
    expect((err as Error).message).toMatch(/more than the context length T = 2048/);
    expect(retries).toEqual([]);
    expect(seen.requests).toBe(before + 1);

    const refused = engineFor(baseUrl, {
      checkUrl: (u) => {
        throw new Error(`${u.hostname} is not allowed`);
      },
    });
    await expect(refused.complete([req])).rejects.toMatchObject({
      kind: "network",
      retryable: false,
      message: "endpoint refused by policy: 127.0.0.1 is not allowed",
    });
    expect(seen.requests).toBe(before + 1);
    expect(() => new OpenAIEngine({ baseUrl: "ftp://x", model: "m" })).toThrow(/baseUrl must be an http\(s\) URL/);
    expect(() => new OpenAIEngine({ baseUrl: "http://x/v1", model: "" })).toThrow(/model/);
  });
});

describe("nano server: bad requests", () => {
  const ok = { model: MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2 };
  const image = (url: string) => ({
    ...ok,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "<0.0 seconds>" },
          { type: "image_url", image_url: { url } },
        ],
      },
    ],
  });

  it("answers a valid request in OpenAI's shape", async () => {
    const res = await fetch(`${baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(ok) });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: MODEL,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: expect.any(String) as unknown },
          finish_reason: expect.stringMatching(/^(stop|length)$/) as unknown,
        },
      ],
      usage: { prompt_tokens: expect.any(Number) as unknown, completion_tokens: expect.any(Number) as unknown },
    });
  });

  it("refuses bad bodies and images with 400 and OpenAI's error JSON naming the field", async () => {
    const cases: [unknown, string | undefined, number, RegExp, string | null][] = [
      [null, "{not json", 400, /not valid JSON/, null],
      [{ model: MODEL }, undefined, 400, /messages/, "messages"],
      [{ ...ok, messages: [] }, undefined, 400, /messages/, "messages"],
      [
        { ...ok, messages: [{ role: "user", content: [{ type: "video", url: "x" }] }] },
        undefined,
        400,
        /type/,
        "messages[0].content[0].type",
      ],
      [{ ...ok, max_tokens: 0 }, undefined, 400, /max_tokens/, "max_tokens"],
      [{ ...ok, n: 17 }, undefined, 400, /n/, "n"],
      [{ ...ok, stop: [""] }, undefined, 400, /stop strings must not be empty/, "stop[0]"],
      [
        { ...ok, stream_options: { include_usage: true } },
        undefined,
        400,
        /only allowed when stream/,
        "stream_options",
      ],
      [{ ...ok, logprobs: true, top_logprobs: 2 }, undefined, 400, /only the sampled token/, "top_logprobs"],
      [{ ...ok, top_logprobs: 0 }, undefined, 400, /needs logprobs: true/, "top_logprobs"],
      [
        { ...ok, tools: [{ type: "function", function: { name: "f" } }] },
        undefined,
        400,
        /tools is not supported/,
        "tools",
      ],
      [{ ...ok, tool_choice: "auto" }, undefined, 400, /tool_choice is not supported/, "tool_choice"],
      [{ ...ok, response_format: { type: "json_object" } }, undefined, 400, /response_format/, "response_format"],
      [{ ...ok, logit_bias: { "50": 5 } }, undefined, 400, /logit_bias/, "logit_bias"],
      [{ ...ok, presence_penalty: 0.5 }, undefined, 400, /presence_penalty/, "presence_penalty"],
      [{ ...ok, top_k: 20 }, undefined, 400, /top_k/, "top_k"],
      [{ ...ok, guided_json: {} }, undefined, 400, /guided_json is not supported/, "guided_json"],
      [{ ...ok, model: "gpt-4" }, undefined, 404, /The model `gpt-4` does not exist/, "model"],
      [{ ...ok, continue_final_message: true }, undefined, 400, /needs a final assistant message/, "messages"],
      [
        image("http://example.com/a.jpg"),
        undefined,
        400,
        /only data URLs .* the server fetches nothing/,
        "messages[0].content[1].image_url.url",
      ],
      [
        image("data:image/jpeg;base64,@@@"),
        undefined,
        400,
        /not a base64 image data URL/,
        "messages[0].content[1].image_url.url",
      ],
      [
        image(jpegDataUrl(Buffer.from("definitely not a jpeg"))),
        undefined,
        400,
        /cannot decode the image/,
        "messages[0].content[1].image_url.url",
      ],
    ];
    for (const [body, raw, status, message, param] of cases) {
      const r = await post(body, raw);
      expect([r.status, r.json.error?.param]).toEqual([status, param]);
      expect(r.json.error).toMatchObject({
        message: expect.stringMatching(message) as unknown,
        type: "invalid_request_error",
      });
    }
    const res = await fetch(`${baseUrl}/nothing`);
    expect(res.status).toBe(404);
    expect((await fetch(`${baseUrl}/chat/completions`)).status).toBe(405);
  });
});

/**
 * Server-sent events as OpenAI streams them (and vLLM, `serving_chat.py`): `data: <json>` events
 * separated by a blank line, the last one `data: [DONE]`.
 */
function parseSse(text: string): { chunks: Chunk[]; done: boolean } {
  const chunks: Chunk[] = [];
  let done = false;
  for (const block of text.split("\n\n")) {
    if (block === "") continue;
    expect(done).toBe(false); // nothing after [DONE]
    expect(block.startsWith("data: ")).toBe(true);
    const data = block.slice("data: ".length);
    if (data === "[DONE]") done = true;
    else chunks.push(JSON.parse(data) as Chunk);
  }
  return { chunks, done };
}

interface Logprobs {
  content: { token: string; logprob: number; bytes: number[]; top_logprobs: unknown[] }[];
}
interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string };
    logprobs: Logprobs | null;
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface Completion {
  choices: { index: number; message: { content: string }; logprobs: Logprobs | null; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe("nano server: OpenAI chat API features", () => {
  const ask = {
    model: MODEL,
    messages: [{ role: "user", content: "Describe the video." }],
    max_tokens: 40,
    temperature: 0,
  };
  const complete = async (body: Record<string, unknown>) => {
    const res = await fetch(`${baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return (await res.json()) as Completion;
  };
  const bytesText = (l: Logprobs) => Buffer.from(l.content.flatMap((t) => t.bytes)).toString("utf8");

  it("answers /health and lists the model with its context length", async () => {
    const health = await fetch(`${baseUrl.replace(/\/v1$/, "")}/health`);
    expect([health.status, await health.text()]).toEqual([200, ""]);
    const models = (await (await fetch(`${baseUrl}/models`)).json()) as { data: Record<string, unknown>[] };
    expect(models.data).toEqual([
      { id: MODEL, object: "model", created: expect.any(Number) as unknown, owned_by: "paravt", max_model_len: 2048 },
    ]);
  });

  it("stop strings end the text before the first one, finish_reason stop, fewer tokens counted", async () => {
    const full = await complete(ask);
    const text = full.choices[0]!.message.content;
    expect(text.length).toBeGreaterThan(12);
    const stop = text.slice(8, 11);
    const cut = text.slice(0, text.indexOf(stop));
    for (const s of [stop, ["never appears ~~", stop]]) {
      const r = await complete({ ...ask, stop: s, logprobs: true });
      expect(r.choices[0]).toMatchObject({ message: { content: cut }, finish_reason: "stop" });
      expect(r.usage.completion_tokens).toBeLessThan(full.usage.completion_tokens);
      // The counted tokens are those up to the one that completed the stop string.
      const lp = r.choices[0]!.logprobs!;
      expect(lp.content).toHaveLength(r.usage.completion_tokens);
      expect(bytesText(lp).startsWith(cut + stop)).toBe(true);
      expect(bytesText({ content: lp.content.slice(0, -1) }).includes(stop)).toBe(false);
    }
    const none = await complete({ ...ask, stop: "never appears ~~" });
    expect(none.choices[0]!.message.content).toBe(text);
    expect(none.choices[0]!.finish_reason).toBe(full.choices[0]!.finish_reason);
  });

  it("logprobs: one entry per completion token in OpenAI's shape; top_logprobs 0 is served", async () => {
    const r = await complete({ ...ask, logprobs: true, top_logprobs: 0 });
    const c = r.choices[0]!;
    expect(c.logprobs!.content).toHaveLength(r.usage.completion_tokens);
    for (const t of c.logprobs!.content) {
      expect(t).toEqual({
        token: expect.any(String) as unknown,
        logprob: expect.any(Number) as unknown,
        bytes: expect.any(Array) as unknown,
        top_logprobs: [],
      });
      expect(t.logprob).toBeLessThanOrEqual(0);
      expect(t.logprob).toBeGreaterThanOrEqual(-9999);
    }
    const spelled = bytesText(c.logprobs!);
    expect(spelled).toBe(c.finish_reason === "stop" ? `${c.message.content}<|im_end|>` : c.message.content);
    expect((await complete(ask)).choices[0]!.logprobs).toBeNull();
  });

  it("n gives n choices drawn with seeds seed, seed + 1, …; usage counts them all", async () => {
    const sampled = { ...ask, temperature: 1, seed: 11, max_tokens: 12 };
    const r = await complete({ ...sampled, n: 3 });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    for (const [i, c] of r.choices.entries()) {
      const one = await complete({ ...sampled, seed: 11 + i, logprobs: true });
      expect(c.message.content).toBe(one.choices[0]!.message.content);
      expect(c.finish_reason).toBe(one.choices[0]!.finish_reason);
    }
    const withLp = await complete({ ...sampled, n: 3, logprobs: true });
    const counted = withLp.choices.reduce((a, c) => a + c.logprobs!.content.length, 0);
    expect(withLp.usage.completion_tokens).toBe(counted);
    expect(r.usage).toEqual(withLp.usage);
  });

  it("stream: chunks that add up to the completion, then usage with include_usage, then [DONE]", async () => {
    for (const extra of [{}, { n: 2, temperature: 1, seed: 3, logprobs: true, stop: "e" }]) {
      const body = { ...ask, ...extra };
      const whole = await complete(body);
      const res = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const { chunks, done } = parseSse(await res.text());
      expect(done).toBe(true);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === MODEL)).toBe(true);
      const last = chunks.at(-1)!;
      expect(last).toMatchObject({ choices: [], usage: whole.usage });
      for (const choice of whole.choices) {
        const mine = chunks.flatMap((c) => c.choices.filter((x) => x.index === choice.index));
        expect(mine[0]).toEqual({
          index: choice.index,
          delta: { role: "assistant", content: "" },
          logprobs: null,
          finish_reason: null,
        });
        expect(mine.map((x) => x.delta.content ?? "").join("")).toBe(choice.message.content);
        expect(mine.at(-1)).toEqual({
          index: choice.index,
          delta: {},
          logprobs: null,
          finish_reason: choice.finish_reason,
        });
        expect(mine.slice(0, -1).every((x) => x.finish_reason === null)).toBe(true);
        if (choice.logprobs) {
          expect(mine.flatMap((x) => x.logprobs?.content ?? [])).toEqual(choice.logprobs.content);
        }
      }
    }
    // Without include_usage no chunk carries usage.
    const res = await fetch(`${baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ ...ask, stream: true }),
    });
    const { chunks } = parseSse(await res.text());
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  it("accepts fields whose value asks for nothing", async () => {
    const r = await complete({
      ...ask,
      max_tokens: 2,
      presence_penalty: 0,
      frequency_penalty: 0,
      tool_choice: "none",
      response_format: { type: "text" },
      logit_bias: {},
      user: "u-1",
      n: null,
      stop: null,
      stream: false,
    });
    expect(r.choices).toHaveLength(1);
  });
});

describe("nano server: the official openai npm client", () => {
  const client = () => new OpenAI({ baseURL: baseUrl, apiKey: "unused", maxRetries: 0 });
  const ask = {
    model: MODEL,
    messages: [{ role: "user" as const, content: "Describe the video." }],
    max_tokens: 24,
    temperature: 0,
  };

  it("lists the model, completes, and streams the same text (with usage)", async () => {
    const c = client();
    const models = await c.models.list();
    expect(models.data.map((m) => m.id)).toEqual([MODEL]);

    const done = await c.chat.completions.create({ ...ask, logprobs: true });
    const choice = done.choices[0]!;
    expect(choice.message.role).toBe("assistant");
    expect(typeof choice.message.content).toBe("string");
    expect(choice.logprobs?.content?.length).toBe(done.usage?.completion_tokens);

    const stream = await c.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    let text = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      for (const ch of chunk.choices) {
        text += ch.delta.content ?? "";
        finish = ch.finish_reason ?? finish;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(choice.message.content);
    expect(finish).toBe(choice.finish_reason);
    expect(usage).toEqual(done.usage);
  });

  it("n and stop come back as the client types them; an unsupported field is the client's BadRequestError naming it", async () => {
    const c = client();
    const two = await c.chat.completions.create({ ...ask, n: 2, seed: 7, temperature: 1 });
    expect(two.choices.map((x) => x.index)).toEqual([0, 1]);
    const bad = await c.chat.completions
      .create({ ...ask, tools: [{ type: "function", function: { name: "crop_video", parameters: {} } }] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
    expect((bad as Error).message).toMatch(/tools/);
  });
});
