// Generation with the compute core's KV-cache decoder: the prompt of an episode (`buildPrompt`,
// byte for byte the training prefix, frames included) is prefilled in one call, then one token
// per call until `<|im_end|>`, `maxTokens` or the context length T.
//
// Sampling: temperature 0 is greedy (argmax, first index on ties); otherwise softmax(logits / τ),
// restricted to the smallest set of most likely tokens whose probability reaches `topP`, drawn
// with a seeded Mulberry32. Control tokens (pad, bos, eos, frame) are never produced. `logprobs`
// are the log-probabilities of the chosen tokens under softmax(logits / τ) (τ = 1 when greedy),
// before the top-p cut: the behaviour policy's probabilities.

import type { KernelModel } from "@paravt/kernels";
import type { ModelConfig } from "./config";
import { toCoreTokens } from "./core";
import { frameFeatures, type FrameSource } from "./frames";
import { Mulberry32 } from "./init";
import { buildPrompt, coreFrames, type EpisodeTurn } from "./sequence";
import { CONTROL_TOKENS, type Tokenizer } from "./tokenizer";
import { defaultTokenizer } from "./vocabulary";

export interface GenerateOptions {
  model: KernelModel;
  config: ModelConfig;
  tokenizer?: Tokenizer;
  /** Thumbnails of the prompt's frames. */
  frames: FrameSource;
  /** The episode so far; the model writes the next assistant turn. */
  turns: readonly EpisodeTurn[];
  /** Text forced at the start of the turn (SPEC §1.7: `THINK_PREFIX`); not part of `text`. */
  forcedPrefix?: string;
  /** Default 512. */
  maxTokens?: number;
  /** 0 (default) = greedy. */
  temperature?: number;
  /** Nucleus sampling mass, (0, 1]; default 1. */
  topP?: number;
  /** Sampling seed (default 0). */
  seed?: number;
}

export interface Generation {
  /** The generated text, after the forced prefix, without the closing `<|im_end|>`. */
  text: string;
  /** Generated token ids, the closing `<|im_end|>` included when it was produced. */
  ids: number[];
  /** log p of each generated id (see the header). */
  logprobs: number[];
  stop: "im_end" | "max_tokens" | "context";
  /** Prompt length in tokens (frame slots included). */
  promptTokens: number;
}

export class GenerateError extends Error {
  override name = "GenerateError";
}

/** Picks the next token from one row of logits; returns it with its log-probability. */
export function sampleToken(
  logits: Float32Array,
  opts: { temperature: number; topP: number; rng: Mulberry32; banned: number },
): { id: number; logprob: number } {
  const V = logits.length;
  const tau = opts.temperature > 0 ? opts.temperature : 1;
  let max = -Infinity;
  let arg = -1;
  for (let i = opts.banned; i < V; i++) {
    if (logits[i]! > max) [max, arg] = [logits[i]!, i];
  }
  if (arg < 0 || !Number.isFinite(max)) throw new GenerateError(`logits are not finite (max ${max})`);
  const probs = new Float64Array(V);
  let z = 0;
  for (let i = opts.banned; i < V; i++) z += probs[i] = Math.exp((logits[i]! - max) / tau);
  const logprob = (id: number) => Math.log(probs[id]! / z);
  if (opts.temperature <= 0) return { id: arg, logprob: logprob(arg) };
  const order = Array.from({ length: V - opts.banned }, (_, i) => i + opts.banned).sort(
    (a, b) => probs[b]! - probs[a]! || a - b,
  );
  let keep = 0;
  let mass = 0;
  while (keep < order.length && (keep === 0 || mass < opts.topP * z)) mass += probs[order[keep++]!]!;
  let u = opts.rng.next() * mass;
  for (let k = 0; k < keep; k++) {
    const id = order[k]!;
    u -= probs[id]!;
    if (u < 0 || k === keep - 1) return { id, logprob: logprob(id) };
  }
  return { id: arg, logprob: logprob(arg) }; // unreachable
}

/** Generates the next assistant turn of `turns`. */
export async function generate(o: GenerateOptions): Promise<Generation> {
  const tok = o.tokenizer ?? defaultTokenizer();
  const temperature = o.temperature ?? 0;
  const topP = o.topP ?? 1;
  const maxTokens = o.maxTokens ?? 512;
  if (!(temperature >= 0) || !Number.isFinite(temperature))
    throw new GenerateError(`temperature must be >= 0 (got ${temperature})`);
  if (!(topP > 0 && topP <= 1)) throw new GenerateError(`topP must be in (0, 1] (got ${topP})`);
  if (!Number.isInteger(maxTokens) || maxTokens < 1)
    throw new GenerateError(`maxTokens must be a positive integer (got ${maxTokens})`);
  const T = o.config.contextLength;
  const P = o.config.frameFeatures;
  const prompt = buildPrompt(tok, o.turns, { forcedPrefix: o.forcedPrefix, contextLength: T, label: "prompt" });
  const feats = await frameFeatures(o.frames, prompt.frames, o.config);
  const frames = coreFrames([{ frameIndex: prompt.frameIndex, length: prompt.ids.length, features: feats }], P);
  const imEnd = tok.idOf("<|im_end|>");
  if (imEnd === undefined) throw new GenerateError("the tokenizer has no <|im_end|> piece");
  const rng = new Mulberry32(o.seed ?? 0);
  const banned = CONTROL_TOKENS.length;

  const dec = o.model.createDecoder(1);
  let logits = await dec.step({ tokens: toCoreTokens(prompt.ids, tok), frames });
  const ids: number[] = [];
  const logprobs: number[] = [];
  let stop: Generation["stop"] = "max_tokens";
  for (;;) {
    const next = sampleToken(logits, { temperature, topP, rng, banned });
    ids.push(next.id);
    logprobs.push(next.logprob);
    if (next.id === imEnd) {
      stop = "im_end";
      break;
    }
    if (ids.length >= maxTokens) break;
    if (prompt.ids.length + ids.length >= T) {
      stop = "context";
      break;
    }
    logits = await dec.step({ tokens: Int32Array.of(next.id) });
  }
  const textIds = stop === "im_end" ? ids.slice(0, -1) : ids;
  return { text: tok.decode(textIds), ids, logprobs, stop, promptTokens: prompt.ids.length };
}
