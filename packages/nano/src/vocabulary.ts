// The default vocabulary: the protocol's structural pieces (listed here, SPEC §1, §4, §5) and
// every word the needle suite writes, derived from @paravt/suite itself so it cannot drift: the
// question texts of every template over the whole palette, and every text of fixed corpus plans
// (questions, options, answers, oracle thinks, tool calls and responses, sub-agent prompts and
// summaries). Changing the suite's wording changes the pieces, hence the hash, and a checkpoint
// trained with the old tokenizer is refused (checkpoint.ts) instead of silently misread.

import {
  ALL_APPEARANCES,
  appearanceName,
  COUNT_OPTIONS,
  planSuite,
  POSITIONS,
  questionText,
  SCENE_COLORS,
  SHAPE_COLORS,
  SHAPES,
  type SuiteOptions,
  type SuitePlan,
  type TemplateParams,
} from "@paravt/suite";
import { Tokenizer, type VocabJson } from "./tokenizer";

/** Hand-listed protocol pieces, in id order (they come before the corpus words). */
export const PROTOCOL_PIECES: readonly string[] = [
  // Chat template (ChatML, as the Qwen-VL family the reference trains; `<|im_start|>` is also
  // what SPEC §2's degenerate guard counts). Tool responses are user turns (SPEC §1.5).
  "<|im_start|>",
  "<|im_end|>",
  "<|im_start|>system\n",
  "<|im_start|>user\n",
  "<|im_start|>assistant\n",
  "system",
  "user",
  "assistant",
  "tool",
  // Protocol tags (SPEC §1.2-1.5, §4, §5). "<think>\n" is the forced think prefix (SPEC §1.7).
  "<think>",
  "</think>",
  "<think>\n",
  "\n</think>\n",
  "<tool_call>",
  "</tool_call>",
  "<tool_code>",
  "</tool_code>",
  "<tool_response>",
  "</tool_response>",
  "<tool_response>\n",
  "\n</tool_response>",
  "<answer>",
  "</answer>",
  "<video>",
  "<image>",
  "<time>",
  "</time>",
  // The canonical JSON tool call (SPEC §1.3) and its parts, for other names and argument orders.
  '<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "',
  '{"name": "crop_video", "arguments": {"video_path": "',
  '{"name": "',
  '", "arguments": {',
  '"name": ',
  '"arguments": ',
  '"video_path": ',
  '"start_time": ',
  '"end_time": ',
  '", "start_time": ',
  ', "start_time": ',
  ', "end_time": ',
  "}}\n</tool_call>",
  "}}",
  "crop_video",
  "video_path",
  "start_time",
  "end_time",
  // The Python-style form (SPEC §1.3, §4).
  '<tool_code>crop_video(video_path="',
  "crop_video(",
  "print(",
  "video_path=",
  "start_time=",
  "end_time=",
  '", start_time=',
  ", start_time=",
  ", end_time=",
  ")</tool_code>",
  // Frame timestamps `<12.0 seconds>` (SPEC §1.1) and the truncation suffix (SPEC §1.5).
  " seconds>",
  " [truncated]",
];

/**
 * The plans whose texts define the suite words: the default config, and long videos (whose
 * thinks list more stretches). Part of the tokenizer's definition: changing them changes the hash.
 */
export const VOCAB_CORPUS_PLANS: readonly SuiteOptions[] = [
  { seed: 1, count: 24 },
  { seed: 2, count: 4, config: { minMinutes: 5, maxMinutes: 10 } },
];

// Words (with their leading space, hyphens, underscores and apostrophes inside), path prefixes
// like "videos/v", and punctuation runs. Digits never enter a piece.
const WORD_RE = /[A-Za-z]+\/[A-Za-z]*| ?[A-Za-z]+(?:['_-][A-Za-z]+)*| ?[^\sA-Za-z0-9]+/gu;

// Protocol pieces are cut out before words are taken, so "]</answer>" yields no "]</" piece
// that would beat "]" + "</answer>" in the greedy match.
const PROTOCOL_RE = new RegExp(
  [...PROTOCOL_PIECES]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
  "gu",
);

/** The multi-byte pieces a text contributes to a vocabulary (its words outside protocol pieces). */
export function wordsOf(text: string): string[] {
  return text
    .split(PROTOCOL_RE)
    .flatMap((part) => [...part.matchAll(WORD_RE)].map((m) => m[0]))
    .filter((w) => w.length >= 2 && !/\d/.test(w));
}

/** Words of `texts` that are not single pieces of `tok` (what would fall back to smaller tokens). */
export function uncoveredWords(tok: Tokenizer, texts: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const t of texts) for (const w of wordsOf(t)) if (tok.idOf(w) === undefined) out.add(w);
  return [...out];
}

/** Every text of a plan that the model reads or writes. */
export function planTexts(plan: Pick<SuitePlan, "questions" | "oracle">): string[] {
  const out: string[] = [];
  for (const q of plan.questions) out.push(q.question, q.answer, q.answerText, ...(q.options ?? []));
  for (const r of plan.oracle) {
    for (const t of r.turns) out.push(t.content);
    for (const s of r.subAgents) out.push(s.prompt, s.summary);
  }
  return out;
}

/** Question texts of every template over the whole palette (independent of any plan). */
export function templateTexts(): string[] {
  const names = ALL_APPEARANCES.map(appearanceName);
  const qs: { q: TemplateParams; options: string[] | null }[] = [];
  for (const scene of SCENE_COLORS) {
    qs.push({ q: { template: "scene_color", params: { scene } }, options: SHAPE_COLORS.slice(0, 4) });
    for (const position of POSITIONS)
      qs.push({ q: { template: "scene_position", params: { scene, position } }, options: null });
  }
  for (const target of ALL_APPEARANCES) {
    qs.push({ q: { template: "count", params: { target } }, options: [...COUNT_OPTIONS] });
    qs.push({ q: { template: "when", params: { target } }, options: null });
    qs.push({ q: { template: "after", params: { anchor: target } }, options: null });
  }
  qs.push({ q: { template: "order", params: { options: ALL_APPEARANCES.slice(0, 4) } }, options: names.slice(0, 4) });
  const palette = [...SHAPES, ...SHAPE_COLORS, ...SCENE_COLORS, ...POSITIONS].flatMap((w) => [w, ` ${w}`]);
  return [...qs.map(({ q, options }) => questionText(q, options)), ...names, ...palette];
}

/** The pieces of the default vocabulary: protocol pieces, then suite words in code-unit order. */
export function defaultPieces(): string[] {
  const words = new Set<string>();
  const texts = [...templateTexts(), ...VOCAB_CORPUS_PLANS.flatMap((p) => planTexts(planSuite(p)))];
  for (const t of texts) for (const w of wordsOf(t)) words.add(w);
  for (const p of PROTOCOL_PIECES) words.delete(p);
  return [...PROTOCOL_PIECES, ...[...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))];
}

let cached: Tokenizer | undefined;

/** The default ParaVT-nano tokenizer (built once per process, ~0.2 s). */
export function defaultTokenizer(): Tokenizer {
  cached ??= new Tokenizer(defaultPieces());
  return cached;
}

/** The default tokenizer's vocabulary as JSON, with its version and hash (checkpoints record the hash). */
export function vocabJson(): VocabJson {
  return defaultTokenizer().vocabJson();
}
