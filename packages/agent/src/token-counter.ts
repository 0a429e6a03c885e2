// Token counting for SPEC §1.5 (each sub-agent summary is truncated to 512 tokens, suffix
// ` [truncated]`). The count must be in the main model's tokens; engines that know their
// tokenizer expose a counter (nano's is exact). For models behind an HTTP API we have no
// tokenizer, so the fallback assumes ~4 characters per token (a common average for English BPE
// vocabularies; nano's own measured average is 3.93 characters per token on oracle text).

import type { Tokenizer } from "@paravt/nano";
import type { TokenCounter } from "./types";

/** The SPEC §1.5 truncation marker. */
export const TRUNCATION_SUFFIX = " [truncated]";

/** ~4 characters (code points) per token, rounded up. */
export function charsTokenCounter(charsPerToken = 4): TokenCounter {
  if (!(charsPerToken > 0)) throw new RangeError(`charsPerToken must be > 0 (got ${charsPerToken})`);
  return {
    name: `chars/${charsPerToken}`,
    count: (text) => Math.ceil([...text].length / charsPerToken),
    head: (text, maxTokens) => [...text].slice(0, Math.floor(maxTokens * charsPerToken)).join(""),
  };
}

/** Exact counts in a nano tokenizer's tokens; `head` decodes the first ids (a valid string by construction). */
export function nanoTokenCounter(tok: Tokenizer): TokenCounter {
  const v = tok.vocabJson();
  return {
    name: `nano tokenizer v${v.version} ${v.hash.slice(0, 8)}`,
    count: (text) => tok.encode(text).length,
    head: (text, maxTokens) => tok.decode(tok.encode(text).slice(0, maxTokens)),
  };
}

/**
 * SPEC §1.5: the summary as it goes into `<tool_response>`: unchanged when it has at most
 * `maxTokens` tokens, else its first `maxTokens` tokens plus ` [truncated]`.
 */
export function truncateSummary(
  text: string,
  counter: TokenCounter,
  maxTokens: number,
): { text: string; tokens: number; truncated: boolean } {
  const tokens = counter.count(text);
  if (tokens <= maxTokens) return { text, tokens, truncated: false };
  return { text: counter.head(text, maxTokens) + TRUNCATION_SUFFIX, tokens, truncated: true };
}
