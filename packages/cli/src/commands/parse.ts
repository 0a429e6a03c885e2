import {
  extractAnswer,
  extractLetter,
  extractTimeRange,
  hasParseableToolCall,
  hasSubstantiveThink,
  parseEvalToolCalls,
  parseTrainingToolCalls,
  thinkBeforeTool,
} from "@paravt/protocol";
import { z } from "zod";
import type { Command } from "../command";
import { formatZodError, mapJsonLines, type LineResult } from "../json-lines";

/** One input line of `paravt parse`. */
export const ParseLineInput = z.strictObject({ text: z.string() });

/** Parses one input value (already JSON-parsed). */
export function parseLine(value: unknown): LineResult {
  const parsed = ParseLineInput.safeParse(value);
  if (!parsed.success) return { error: formatZodError(parsed.error) };
  const { text } = parsed.data;
  return {
    tool_calls: parseTrainingToolCalls(text),
    eval_tool_calls: parseEvalToolCalls(text),
    answer: extractAnswer(text),
    letter: extractLetter(text),
    time_range: extractTimeRange(text),
    has_parseable_tool_call: hasParseableToolCall(text),
    has_substantive_think: hasSubstantiveThink(text),
    think_before_tool: thinkBeforeTool(text),
  };
}

export const parseCommand: Command = {
  name: "parse",
  summary: "run the protocol parsers on model text (SPEC §2, §4)",
  help: `Usage: paravt parse < input.jsonl > output.jsonl

Runs the ParaVT parsers (SPEC.md §2 answer extraction, §4 parsers) on each text.

Input: JSON Lines on stdin, one object per line: {"text": string}. Unknown keys are rejected.

Output: one JSON line per input line, in input order:
  {"tool_calls": [{"name", "arguments"}],   training parser (§4)
   "eval_tool_calls": [...],                 evaluation parser (§4), same shape
   "answer": string,                         extract_answer (§2)
   "letter": string,                         MCQ letter A-J (§4)
   "time_range": [start, end] | null,        grounding time range in seconds (§4)
   "has_parseable_tool_call": boolean,       parseable-call rule (§4)
   "has_substantive_think": boolean,         think rule of R_fmt (§2)
   "think_before_tool": boolean}             ordering rule of R_fmt (§2)
  or {"error": "<reason>"} for a line that is not valid JSON or not a valid input.
  Tool-call names and arguments are kept as the model wrote them (normally a string and an
  object). NaN / Infinity values, which the parsers accept like Python does, are written as
  null because JSON has no such numbers. Blank lines are skipped. Exit code 0 unless stdin
  cannot be read.

Example:
  echo '{"text": "<tool_code>crop_video(\\"v.mp4\\", 10, 20)</tool_code>"}' | paravt parse
`,
  run: (_args, io) => mapJsonLines(io, parseLine),
};
