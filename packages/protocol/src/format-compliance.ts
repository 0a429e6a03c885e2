// Format compliance of one episode: THE definition. Eval summaries, RL metrics (`format_compliance`)
// and the review filter "format failure" all call `formatVerdict`, so a number on a run page, a
// training curve and a review queue always agree on what a format failure is.
//
// An episode is compliant when its main-agent turns follow the contract its prompt mode asks for
// (SPEC §5 prompt modes; the §2 R_fmt ingredients and the §4 parsers):
//   1. it has at least one main-agent turn;
//   2. every turn ended on its own (not cut by max tokens or the context: a cut turn is broken text);
//   3. every turn parsed cleanly (no parse issue: malformed tool-call blocks, calls written when no
//      tool round was left or in a single-pass mode);
//   4. every turn closes every tag it opens: think, tool_call, tool_code, answer (`tagsBalanced`,
//      over the forced prefix + the generated text, since the prefix opens `<think>`);
//   5. the last turn answers: a non-blank `<answer>…</answer>` when the mode asks for answer tags,
//      else any SPEC §2 extracted answer. The forced final-answer turn (SPEC §5) is held to the
//      nudge's own format, which may ask for a bare letter (the reference evaluator's does), so a
//      non-empty extracted answer is enough there;
//   6. when the mode asks for reasoning, some turn has a substantive `<think>` (SPEC §2 `think`:
//      >= 10 code points).
// The failed checks come back as short reasons, for tooltips and exports.
import { extractAnswer } from "./answer";
import { hasNonemptyAnswer, hasSubstantiveThink, tagsBalanced } from "./format-reward";

/** One main-agent turn as the episode runner records it (and as evaluation rows store it). */
export interface FormatTurn {
  /** The generated text (without the forced prefix). */
  rawText: string;
  /** SPEC §1.7 prefix forced before generation (`<think>\n`), null when none. */
  forcedPrefix: string | null;
  /** The parser's issues with this turn (SPEC §4). */
  parseIssues: readonly string[];
  /** "length": cut by max tokens or the context; null when the producer did not record it. */
  finish: "stop" | "length" | null;
  /** The extra "answer now" turn after the last tool round (SPEC §5). */
  forcedFinal: boolean;
}

/** What a prompt mode asks the model to write. */
export interface FormatContract {
  /** A substantive `<think>` block somewhere in the episode. */
  think: boolean;
  /** The final answer inside `<answer></answer>`. */
  answerTags: boolean;
}

/**
 * The contract of each SPEC §5 prompt mode, as the reference evaluator's prompts state it
 * (EvolvingLMMs-Lab/ParaVT paravt/eval/driver.py): `direct` asks for `<answer>` tags only,
 * `reasoning` and `agentic_general` for `<think>` then `<answer>`, `agentic_minimal` is the bare
 * tool envelope (its grounding answers are free text such as "The event happens in 1.0 - 2.0
 * seconds.").
 */
export const FORMAT_CONTRACTS = {
  direct: { think: false, answerTags: true },
  reasoning: { think: true, answerTags: true },
  agentic_general: { think: true, answerTags: true },
  agentic_minimal: { think: false, answerTags: false },
} as const satisfies Record<string, FormatContract>;

/**
 * The contract of a stored prompt mode. A mode this table does not know (an ingested rollout's
 * own label) is held to the training contract (agentic_general), the one SPEC §2's R_fmt rewards.
 */
export function formatContract(promptMode: string): FormatContract {
  return Object.hasOwn(FORMAT_CONTRACTS, promptMode)
    ? FORMAT_CONTRACTS[promptMode as keyof typeof FORMAT_CONTRACTS]
    : FORMAT_CONTRACTS.agentic_general;
}

export interface FormatVerdict {
  compliant: boolean;
  /** One short reason per failed check, in turn order ("turn 2: ran to max tokens"). */
  reasons: string[];
}

/** Judges one episode's main-agent turns, in order, against its mode's contract. */
export function formatVerdict(turns: readonly FormatTurn[], contract: FormatContract): FormatVerdict {
  if (turns.length === 0) return { compliant: false, reasons: ["no main-agent turn"] };
  const reasons: string[] = [];
  const texts = turns.map((t) => (t.forcedPrefix ?? "") + t.rawText);
  turns.forEach((t, i) => {
    const at = `turn ${i + 1}`;
    if (t.finish === "length") reasons.push(`${at}: ran to max tokens`);
    for (const issue of t.parseIssues) reasons.push(`${at}: ${issue}`);
    if (!tagsBalanced(texts[i]!)) reasons.push(`${at}: unclosed or unbalanced tag`);
  });
  const last = turns.length - 1;
  const lastText = texts[last]!;
  if (contract.answerTags && !turns[last]!.forcedFinal) {
    if (!hasNonemptyAnswer(lastText)) reasons.push(`turn ${last + 1}: no non-empty <answer></answer>`);
  } else if (extractAnswer(lastText) === "") {
    reasons.push(`turn ${last + 1}: no answer`);
  }
  if (contract.think && !texts.some((t) => hasSubstantiveThink(t))) {
    reasons.push("no <think> block of at least 10 characters");
  }
  return { compliant: reasons.length === 0, reasons };
}
