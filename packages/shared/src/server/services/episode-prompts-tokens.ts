// Token counts of rendered prompt texts (issue 41 item 12): a nano model's texts are counted with
// its checkpoint's own tokenizer (`tokenizer.json`, what NanoEngine encodes prompts with), every
// other text in characters, labelled as such (an OpenAI-compatible model's tokenizer is not here).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Tokenizer } from "@paravt/nano/tokenizer";
import type { EpisodePromptCount } from "../../contracts/episode-prompts";

export interface PromptTokenizer {
  /** "nano tokenizer v2 (…)", or null when the counts are characters. */
  description: string | null;
  count(text: string): EpisodePromptCount;
}

const CHARS: PromptTokenizer = { description: null, count: (t) => ({ value: t.length, unit: "chars" }) };

// A few checkpoints' tokenizers, by directory (a vocabulary is read and indexed once per process).
const cache = new Map<string, Promise<Tokenizer | null>>();
const CACHE_MAX = 8;

function load(dir: string): Promise<Tokenizer | null> {
  let hit = cache.get(dir);
  if (!hit) {
    hit = readFile(path.join(dir, "tokenizer.json"), "utf8").then(
      (json) => Tokenizer.fromVocabJson(JSON.parse(json)),
      () => null,
    );
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(dir, hit);
  }
  return hit.catch(() => null);
}

/** The tokenizer of the nano checkpoint in `dir`; characters when there is none or it cannot be read. */
export async function checkpointTokenizer(dir: string | null): Promise<PromptTokenizer> {
  if (dir === null) return CHARS;
  const tok = await load(dir);
  if (!tok) return CHARS;
  return {
    description: `nano tokenizer v${tok.version} (${tok.size} tokens, of checkpoint ${path.basename(dir)}); text only, frames not counted`,
    count: (t) => ({ value: tok.encode(t).length, unit: "tokens" }),
  };
}
