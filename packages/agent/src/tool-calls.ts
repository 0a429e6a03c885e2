// From a main-agent turn's text to the crop windows to sample: the SPEC §4 parsers of
// @paravt/protocol (evaluation parser by default, training parser for RL), then the SPEC §1.4
// window rules (start >= end and start >= duration are errors, end is clamped).

import {
  evalCallWindow,
  isJsonObject,
  parseEvalToolCalls,
  parseTrainingToolCalls,
  type JsonValue,
} from "@paravt/protocol";
import { clampWindow, isVideoError } from "@paravt/video/sampling";
import type { ToolParserName } from "./knobs";

export const CROP_VIDEO = "crop_video";

/** Complete `open … close` blocks, scanned like the evaluation parser does (SPEC §4). */
function completeBlocks(s: string, open: string, close: string): number {
  let n = 0;
  for (let i = s.indexOf(open); i !== -1;) {
    const j = s.indexOf(close, i + open.length);
    if (j === -1) break;
    n++;
    i = s.indexOf(open, j + close.length);
  }
  return n;
}

/** The calls of a turn (as parsed) and why text that looks like calls gave fewer. */
export function parseTurnCalls(text: string, parser: ToolParserName): { calls: JsonValue[]; issues: string[] } {
  const issues: string[] = [];
  if (parser === "training") {
    const calls = parseTrainingToolCalls(text).map((c): JsonValue => ({ name: c.name, arguments: c.arguments }));
    if (calls.length === 0 && (text.includes("<tool_call>") || text.includes("<tool_code>"))) {
      issues.push("tool-call tags present, but the training parser (SPEC §4) read no call");
    }
    return { calls, issues };
  }
  const calls = parseEvalToolCalls(text);
  const blocks = completeBlocks(text, "<tool_call>", "</tool_call>");
  // Without any `<tool_code>` opening tag only the JSON blocks can yield calls. (The issues are
  // diagnostics for the trajectory viewer; they never change which calls run.)
  const jsonCalls = parseEvalToolCalls(text.split("<tool_code>").join("")).length;
  if (blocks > jsonCalls)
    issues.push(`${blocks - jsonCalls} <tool_call> block(s) are not valid JSON: skipped (SPEC §4)`);
  const lastOpen = text.lastIndexOf("<tool_call>");
  if (lastOpen !== -1 && text.indexOf("</tool_call>", lastOpen) === -1) {
    issues.push("an unterminated <tool_call> block was ignored (SPEC §4: complete blocks only)");
  }
  const codeBlocks = completeBlocks(text, "<tool_code>", "</tool_code>");
  if (codeBlocks > calls.length - jsonCalls) {
    issues.push(`${codeBlocks - (calls.length - jsonCalls)} <tool_code> block(s) are not crop_video(k=v, …): skipped`);
  }
  return { calls, issues };
}

/** One parsed call checked against the video. */
export interface CallPlan {
  name: string | null;
  /** `arguments` as parsed (undefined when the call has none). */
  arguments: JsonValue;
  requested: { start: number; end: number } | null;
  /** The window to sample, when the call is valid. */
  window: { start: number; end: number; clamped: boolean } | null;
  /** Why the call cannot run: its tool response is this error text. */
  error: string | null;
}

/** SPEC §1.4 / §4 / §5: the crop window of one parsed call, or why there is none. */
export function planCall(call: JsonValue, duration: number, opts: { anyName?: boolean } = {}): CallPlan {
  if (!isJsonObject(call)) {
    return { name: null, arguments: null, requested: null, window: null, error: "The tool call is not a JSON object." };
  }
  const name = Object.prototype.hasOwnProperty.call(call, "name") ? call.name : undefined;
  const args = Object.prototype.hasOwnProperty.call(call, "arguments") ? call.arguments! : null;
  const base = { name: typeof name === "string" ? name : null, arguments: args };
  if (name !== CROP_VIDEO && !opts.anyName) {
    return {
      ...base,
      requested: null,
      window: null,
      error: `Unknown tool ${JSON.stringify(name ?? null)}: the only tool is ${CROP_VIDEO}.`,
    };
  }
  // The reference evaluator's reading: start_time (else start, else 0), end_time (else end, else start + 10).
  const requested = evalCallWindow(call);
  if (requested === null) {
    return { ...base, requested: null, window: null, error: "The arguments of crop_video are not a JSON object." };
  }
  try {
    const w = clampWindow(requested.start, requested.end, duration);
    return { ...base, requested, window: w, error: null };
  } catch (e) {
    if (isVideoError(e)) return { ...base, requested, window: null, error: e.message };
    throw e;
  }
}
