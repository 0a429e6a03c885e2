// A stand-in for a vLLM / SGLang chat-completions server, for tests only (we cannot run a GPU model
// server here). The "model" is a script of raw generated texts; what the stand-in adds is exactly
// what the real servers do with such a text before answering, read from their sources:
// - vLLM, qwen3 reasoning parser (vllm/reasoning/qwen3_reasoning_parser.py `extract_reasoning`):
//   strip a generated `<think>` (partition), then partition at `</think>` into reasoning and
//   content (`content or None`); without `</think>` the whole output is reasoning and content None.
//   Whitespace is kept.
// - vLLM, hermes tool parser (vllm/tool_parsers/hermes_tool_parser.py `extract_tool_calls`), on the
//   content: every `<tool_call>(.*?)</tool_call>|<tool_call>(.*)` body parsed as JSON
//   {name, arguments}; arguments re-serialized with `json.dumps`; content = the text before the
//   first `<tool_call>` or None; if any body fails to parse, nothing is extracted. Only when the
//   request carries `tools` (chat_completion/serving.py `chat_completion_full_generator`).
// - the response body (chat_completion/protocol.py `ChatCompletionResponse`, `ChatMessage`):
//   vLLM <= 0.11.0 writes `reasoning_content`, 0.11.1 – 0.15 both `reasoning` and
//   `reasoning_content` (vllm PR #27752), later `reasoning`; `tool_calls` defaults to [];
//   finish_reason "tool_calls" when auto tools were called.
// - SGLang (python/sglang/srt/parser/reasoning_parser.py `detect_and_parse`): removes `<think>`,
//   STRIPS the text, splits at `</think>` and strips the content; `reasoning_content`;
//   `tool_calls` null when none (python/sglang/srt/entrypoints/openai/protocol.py `ChatMessage`).
//   Its tool parser for Qwen (function_call/qwen25_detector.py) also keeps the text before the first
//   `<tool_call>` as content; the stand-in splits SGLang's calls with the hermes logic above.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pythonJsonDumps } from "../python-json";

export type ServerFlavor = "vllm-0.10" | "vllm-0.11.1" | "vllm" | "sglang";

export interface StandinOptions {
  flavor: ServerFlavor;
  /** `--reasoning-parser qwen3` (vLLM) / `--reasoning-parser qwen3` (SGLang); off by default. */
  reasoningParser?: boolean;
  /** `--enable-auto-tool-choice --tool-call-parser hermes`; applies when a request carries `tools`. */
  toolParser?: boolean;
  /** The model: the raw text it generates for the n-th request, and whether it hit max_tokens. */
  generate: (body: Record<string, unknown>, n: number) => { text: string; finish?: "stop" | "length" };
  /** Replaces the response body (for malformed-response tests). */
  override?: (body: Record<string, unknown>, n: number) => unknown;
}

interface Parsed {
  reasoning: string | null;
  content: string | null;
  toolCalls: { name: string; arguments: string }[];
}

function qwen3Reasoning(output: string, sglang: boolean): { reasoning: string | null; content: string | null } {
  if (sglang) {
    const text = output.replaceAll("<think>", "").trim();
    const at = text.indexOf("</think>");
    if (at < 0) return { reasoning: text, content: null };
    const content = text.slice(at + "</think>".length).trim();
    return { reasoning: text.slice(0, at), content: content === "" ? null : content };
  }
  const start = output.indexOf("<think>");
  const rest = start >= 0 ? output.slice(start + "<think>".length) : output;
  const end = rest.indexOf("</think>");
  if (end < 0) return { reasoning: rest, content: null };
  const content = rest.slice(end + "</think>".length);
  return { reasoning: rest.slice(0, end), content: content === "" ? null : content };
}

function hermesToolCalls(content: string): { content: string | null; calls: { name: string; arguments: string }[] } {
  if (!content.includes("<tool_call>")) return { content, calls: [] };
  try {
    const calls = [...content.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>|<tool_call>([\s\S]*)/g)].map((m) => {
      const j = JSON.parse(m[1] ?? m[2] ?? "") as { name: string; arguments: unknown };
      if (typeof j.name !== "string") throw new Error("no name");
      return { name: j.name, arguments: pythonJsonDumps(j.arguments) };
    });
    const before = content.slice(0, content.indexOf("<tool_call>"));
    return { content: before === "" ? null : before, calls };
  } catch {
    return { content, calls: [] };
  }
}

function parse(o: StandinOptions, text: string, tools: boolean): Parsed {
  let reasoning: string | null = null;
  let content: string | null = text;
  if (o.reasoningParser) ({ reasoning, content } = qwen3Reasoning(text, o.flavor === "sglang"));
  let toolCalls: Parsed["toolCalls"] = [];
  if (o.toolParser && tools && content !== null) ({ content, calls: toolCalls } = hermesToolCalls(content));
  return { reasoning, content, toolCalls };
}

function message(o: StandinOptions, p: Parsed): Record<string, unknown> {
  const calls = p.toolCalls.map((c, i) => ({ id: `chatcmpl-tool-${i}`, type: "function", function: c }));
  if (o.flavor === "sglang") {
    return {
      role: "assistant",
      content: p.content,
      reasoning_content: p.reasoning,
      tool_calls: calls.length ? calls : null,
    };
  }
  const reasoning =
    o.flavor === "vllm-0.10"
      ? { reasoning_content: p.reasoning }
      : o.flavor === "vllm-0.11.1"
        ? { reasoning: p.reasoning, reasoning_content: p.reasoning }
        : { reasoning: p.reasoning };
  return {
    role: "assistant",
    content: p.content,
    refusal: null,
    annotations: null,
    audio: null,
    function_call: null,
    tool_calls: calls,
    ...reasoning,
  };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

export interface Standin {
  baseUrl: string;
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startStandin(o: StandinOptions): Promise<Standin> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const n = requests.length;
      requests.push(body);
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (o.override) return reply(200, o.override(body, n));
      const out = o.generate(body, n);
      const p = parse(o, out.text, Array.isArray(body.tools) && body.tools.length > 0);
      const finish = p.toolCalls.length > 0 && out.finish !== "length" ? "tool_calls" : (out.finish ?? "stop");
      reply(200, {
        id: `chatcmpl-${n}`,
        object: "chat.completion",
        created: 1_760_000_000,
        model: String(body.model),
        choices: [{ index: 0, message: message(o, p), logprobs: null, finish_reason: finish, stop_reason: null }],
        usage: { prompt_tokens: 100 + n, total_tokens: 100 + n + out.text.length, completion_tokens: out.text.length },
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
