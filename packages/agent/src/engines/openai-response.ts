// Reading a chat-completions response the way the real servers write it, into the raw turn text
// the protocol parsers expect (SPEC §1.2–§1.3, §4): what the model generated, as if the server had
// run no parser at all.
//
// Servers split the generated text before answering when they run parsers:
// - a reasoning parser moves the `<think>` block out of `content`: vLLM <= 0.11.0 and SGLang write it
//   to `message.reasoning_content`, vLLM >= 0.11.1 to `message.reasoning` (vllm PR #27752; for a
//   while both, with the same text; vllm/entrypoints/openai/chat_completion/protocol.py
//   `ChatMessage.reasoning`, sglang python/sglang/srt/entrypoints/openai/protocol.py
//   `ChatMessage.reasoning_content`). The parsers (deepseek_r1 / qwen3) return content = None when
//   no `</think>` was generated, so a turn cut by `max_tokens` while thinking has only reasoning.
// - a tool parser (hermes / qwen3_coder …) moves `<tool_call>` blocks to `message.tool_calls`
//   (`{id, type: "function", function: {name, arguments: "<json text>"}}`) and keeps the text before
//   them in `content` (vllm chat_completion/serving.py `chat_completion_full_generator`).
// Reading only `content` then loses the thinking, turns an answer given inside the thinking into an
// empty prediction scored wrong, and drops the crop calls. So the text is rebuilt:
//   [`<think>` unless the forced prefix opened it] reasoning `</think>` content [each tool call as
//   a canonical `<tool_call>` block]
// when the parser found the end of the thinking; an open `<think>` + reasoning when max_tokens cut
// it; the reasoning text alone when the turn ended by itself without `</think>` (see below).
// Whitespace a parser trimmed around the tags is not recoverable; the tags and texts are.
// Anything else we do not understand (another choice count, an unknown finish reason, tool-call
// arguments that are not a JSON object, two different reasoning texts, a refusal) is an EngineError
// "bad_response": the sample becomes an ERROR episode with the reason, never a wrong answer.

import { z } from "zod";
import { pythonJsonDumps } from "../python-json";
import { EngineError } from "../types";

const FunctionCallSchema = z.object({ name: z.string().min(1), arguments: z.string() });

const ToolCallSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.literal("function").nullish(),
  function: FunctionCallSchema,
});

/** One choice's message: every field a vLLM (0.10 – current) or SGLang server may set. */
const ResponseMessageSchema = z.looseObject({
  role: z.string().nullish(),
  content: z.string().nullish(),
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(ToolCallSchema).nullish(),
  /** Deprecated single-call form (OpenAI `function_call`). */
  function_call: FunctionCallSchema.nullish(),
});

export const ChatCompletionResponseSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      index: z.int().nullish(),
      message: ResponseMessageSchema,
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: z.looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponseSchema>;

/** What the engine keeps of one response. */
export interface ReadCompletion {
  /** The generated text without the forced prefix, rebuilt as described above. */
  text: string;
  finish: "stop" | "length";
  promptTokens: number;
  completionTokens: number;
  /** How the text was rebuilt, for the trajectory ("reasoning from `reasoning` …"); empty when it is `content` as is. */
  notes: string[];
}

/**
 * Finish reasons by what they mean for the turn. vLLM answers stop / length / tool_calls / abort
 * (/ error, normally a 5xx); SGLang stop / length / tool_calls / content_filter / function_call /
 * abort. An aborted generation is incomplete: retried, then an error.
 */
function finishOf(reason: string | null | undefined): "stop" | "length" {
  // Some OpenAI-compatible servers omit it on a complete answer; vLLM itself writes "stop" then.
  switch (reason) {
    case undefined:
    case null:
    case "stop":
    case "tool_calls":
    case "function_call":
      return "stop";
    case "length":
      return "length";
    case "abort":
    case "error":
      throw new EngineError("bad_response", `the server ended the generation with finish_reason "${reason}"`, true);
    default:
      throw new EngineError("bad_response", `unknown finish_reason ${JSON.stringify(reason)}`);
  }
}

/** A server-parsed call back in the canonical text form (SPEC §1.3). */
function toolCallBlock(fn: { name: string; arguments: string }, where: string): string {
  let args: unknown;
  try {
    args = fn.arguments.trim() === "" ? {} : JSON.parse(fn.arguments);
  } catch {
    throw new EngineError(
      "bad_response",
      `${where}: arguments are not JSON: ${JSON.stringify(fn.arguments.slice(0, 200))}`,
    );
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new EngineError("bad_response", `${where}: arguments are not a JSON object`);
  }
  return `<tool_call>\n${pythonJsonDumps({ name: fn.name, arguments: args })}\n</tool_call>`;
}

function reasoningOf(m: z.infer<typeof ResponseMessageSchema>): { text: string; field: string } | null {
  const a = m.reasoning ?? null;
  const b = m.reasoning_content ?? null;
  if (a !== null && b !== null && a !== b) {
    throw new EngineError("bad_response", "the server returned different `reasoning` and `reasoning_content` texts");
  }
  if (a !== null) return { text: a, field: b !== null ? "reasoning (= reasoning_content)" : "reasoning" };
  if (b !== null) return { text: b, field: "reasoning_content" };
  return null;
}

/**
 * The turn text and counts of one chat-completions response body (already JSON-parsed).
 * `forcedPrefix` is the SPEC §1.7 prefix the request continued from: when it opened `<think>`, the
 * rebuilt text does not open it again (the prefix is stored and replayed separately).
 */
export function readCompletionResponse(json: unknown, forcedPrefix?: string): ReadCompletion {
  const parsed = ChatCompletionResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new EngineError("bad_response", `unexpected response shape: ${z.prettifyError(parsed.error)}`);
  }
  const { choices, usage } = parsed.data;
  if (choices.length !== 1) {
    throw new EngineError("bad_response", `expected 1 choice for 1 request, the server returned ${choices.length}`);
  }
  const choice = choices[0]!;
  const m = choice.message;
  const finish = finishOf(choice.finish_reason);
  if (m.refusal) throw new EngineError("bad_response", `the server refused: ${m.refusal.slice(0, 300)}`);

  const notes: string[] = [];
  let text = "";
  const reasoning = reasoningOf(m);
  if (reasoning !== null) {
    const prefixOpened = forcedPrefix !== undefined && /<think>\s*$/.test(forcedPrefix);
    // The parsers set content only after they found `</think>` (deepseek_r1 / qwen3 also leave it
    // None when nothing follows it); tool calls only come after the reasoning ended.
    const closed = m.content != null || (m.tool_calls?.length ?? 0) > 0 || m.function_call != null;
    if (closed) {
      // vLLM's parsers `partition` the output at the tags and keep the whitespace around them, so
      // the bare tags put the raw text back together exactly; SGLang's strip it (not recoverable).
      text = `${prefixOpened ? "" : "<think>"}${reasoning.text}</think>`;
      notes.push(`reasoning from \`${reasoning.field}\` rebuilt into <think>…</think>`);
    } else if (finish === "length") {
      // Cut by max_tokens while thinking: the open block is what the model wrote.
      text = `${prefixOpened ? "" : "<think>"}${reasoning.text}`;
      notes.push(
        `reasoning from \`${reasoning.field}\`, cut by max_tokens before </think>, rebuilt into an open <think>`,
      );
    } else {
      // The turn ended by itself without `</think>`: a qwen3 parser then returns the whole output as
      // reasoning — typically a model that does not think at all (an instruct model behind a
      // reasoning parser). Kept as the text it is, without inventing tags.
      text = reasoning.text;
      notes.push(
        `the whole output came as \`${reasoning.field}\` (no </think>, the turn ended by itself): kept as plain text`,
      );
    }
  }
  text += m.content ?? "";

  const calls = [...(m.tool_calls ?? []).map((c) => c.function), ...(m.function_call ? [m.function_call] : [])];
  if (calls.length > 0) {
    const blocks = calls.map((fn, i) => toolCallBlock(fn, `tool_calls[${i}] (${fn.name})`));
    text += (text !== "" && !text.endsWith("\n") ? "\n" : "") + blocks.join("\n");
    notes.push(`${calls.length} tool call(s) from \`message.tool_calls\` written back as <tool_call> blocks`);
  }

  return {
    text,
    finish,
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    notes,
  };
}
