// One nano generation as an OpenAI chat choice: stop strings, log-probabilities, and the
// server-sent chunks of a streamed answer. Shapes follow OpenAI's chat API as vLLM serves it
// (vllm-project/vllm `vllm/entrypoints/openai/protocol.py`: ChatCompletionResponseChoice,
// ChatCompletionLogProbs / ChatCompletionLogProbsContent {token, logprob, bytes, top_logprobs},
// ChatCompletionStreamResponse {object: "chat.completion.chunk", choices: [{index, delta,
// logprobs, finish_reason}], usage}; `serving_chat.py` chat_completion_stream_generator: a first
// chunk per choice with `delta: {role: "assistant", content: ""}`, content deltas, a chunk with
// the finish_reason, then, with `stream_options.include_usage`, one chunk with `choices: []` and
// the usage; `data: [DONE]` last). Log-probabilities are clamped at -9999 like vLLM's (JSON has no
// -Infinity).

import { BYTE_OFFSET, type Generation, type Tokenizer } from "@paravt/nano";

export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

export interface ChatChoice {
  index: number;
  message: { role: "assistant"; content: string };
  logprobs: { content: TokenLogprob[] } | null;
  finish_reason: "stop" | "length";
}

export interface ChunkChoice {
  index: number;
  delta: { role?: "assistant"; content?: string };
  logprobs: { content: TokenLogprob[] } | null;
  finish_reason: "stop" | "length" | null;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A generation cut where the request says: its text, the tokens it used, why it ended. */
export interface FinishedChoice {
  text: string;
  /** Token ids counted as completion tokens (through the token that completed a stop string). */
  ids: number[];
  logprobs: number[];
  finish: "stop" | "length";
}

/**
 * Applies stop strings: the text ends before the first stop string found while decoding token by
 * token (not included, as OpenAI and vLLM's default `include_stop_str_in_output: false`), and the
 * completion counts the tokens up to the one that completed it. Without a stop string, the text is
 * the generation's (closing `<|im_end|>` removed, still counted as a completion token).
 */
export function finishChoice(g: Generation, stops: readonly string[], tokenizer: Tokenizer): FinishedChoice {
  const textIds = g.stop === "im_end" ? g.ids.slice(0, -1) : g.ids;
  const natural: FinishedChoice = {
    text: g.text,
    ids: g.ids,
    logprobs: g.logprobs,
    finish: g.stop === "im_end" ? "stop" : "length",
  };
  if (stops.length === 0 || !stops.some((s) => g.text.includes(s))) return natural;
  for (let k = 1; k <= textIds.length; k++) {
    const prefix = tokenizer.decode(textIds.slice(0, k));
    const at = Math.min(...stops.map((s) => prefix.indexOf(s)).filter((i) => i >= 0));
    if (Number.isFinite(at)) {
      return { text: prefix.slice(0, at), ids: g.ids.slice(0, k), logprobs: g.logprobs.slice(0, k), finish: "stop" };
    }
  }
  return natural; // unreachable: the whole text holds a stop string
}

/** The UTF-8 bytes of one token (a byte token is its one byte, even when not valid UTF-8 alone). */
function tokenBytes(id: number, tokenizer: Tokenizer): number[] {
  if (tokenizer.isByte(id)) return [id - BYTE_OFFSET];
  return [...Buffer.from(tokenizer.decode([id]), "utf8")];
}

export function tokenLogprobs(
  ids: readonly number[],
  logprobs: readonly number[],
  tokenizer: Tokenizer,
): TokenLogprob[] {
  return ids.map((id, i) => ({
    token: tokenizer.decode([id]),
    logprob: Math.max(logprobs[i]!, -9999),
    bytes: tokenBytes(id, tokenizer),
    top_logprobs: [],
  }));
}

export function chatChoice(index: number, c: FinishedChoice, withLogprobs: boolean, tokenizer: Tokenizer): ChatChoice {
  return {
    index,
    message: { role: "assistant", content: c.text },
    logprobs: withLogprobs ? { content: tokenLogprobs(c.ids, c.logprobs, tokenizer) } : null,
    finish_reason: c.finish,
  };
}

/**
 * The chunks of one choice: the role, then one content delta per token that completes text (a
 * token ending inside a multi-byte character waits for the next), then the finish reason. The
 * deltas concatenate to exactly `c.text`; each carries the log-probabilities of its tokens.
 */
export function choiceChunks(
  index: number,
  c: FinishedChoice,
  withLogprobs: boolean,
  tokenizer: Tokenizer,
): ChunkChoice[] {
  const out: ChunkChoice[] = [
    { index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null },
  ];
  let sent = 0;
  let pending: number[] = [];
  // `pending` holds positions in c.ids of the tokens not yet sent.
  const flush = (upTo: number) => {
    const content = c.text.slice(sent, upTo);
    // A token without text (the closing <|im_end|>) still gets its chunk when log-probabilities are asked for.
    if (content !== "" || (withLogprobs && pending.length > 0)) {
      out.push({
        index,
        delta: { content },
        logprobs: withLogprobs
          ? {
              content: tokenLogprobs(
                pending.map((k) => c.ids[k]!),
                pending.map((k) => c.logprobs[k]!),
                tokenizer,
              ),
            }
          : null,
        finish_reason: null,
      });
    }
    sent = upTo;
    pending = [];
  };
  for (let k = 0; k < c.ids.length; k++) {
    pending.push(k);
    const prefix = tokenizer.decode(c.ids.slice(0, k + 1), { controls: "skip" });
    if (prefix.endsWith("\uFFFD") && k + 1 < c.ids.length) continue; // an unfinished character
    flush(Math.min(prefix.length, c.text.length));
  }
  flush(c.text.length);
  out.push({ index, delta: {}, logprobs: null, finish_reason: c.finish });
  return out;
}
