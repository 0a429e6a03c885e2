// The reference evaluator's request texts (EvolvingLMMs-Lab/ParaVT paravt/eval/driver.py), for the
// "reference" request style: what `eval_one` sends, byte for byte, so that a run in this style is
// the reference's run on our infrastructure (and keeps everything the reference loses, SPEC §5).
// The tests pin every text to the SHA-256 of the string Python builds from driver.py.
//
// What the style changes, all from `eval_one` / `_video_user_content`:
// - system message per mode (`_system_message`): the four texts below;
// - first user turn: the overview frames as bare `image_url` items (no timestamp text), then ONE
//   text item, the question as `load_samples` wrote it (+ " The video path for this video is:
//   <file name>" in agentic modes): the caller passes that text whole (@paravt/benchmarks
//   `referenceQuestionText`);
// - each crop: a user turn of its frames and `<tool_response>\n{n} frames from {st:.1f}s to
//   {et:.1f}s.\n</tool_response>`, or the text `<tool_response>\n[Error cropping {st:.1f}s-{et:.1f}s]
//   \n</tool_response>` when no frame came back; st / et as the call asked;
// - after the last tool round, a SEPARATE user turn asking for the answer (below), with 64 (MCQ)
//   or 128 (grounding) max tokens;
// - frames chosen and sized like qwen-vl-utils `fetch_video` (@paravt/video reference-frames.ts).

import { pythonJsonDumps } from "./python-json";
import type { PromptMode } from "./prompts";

/** driver.py TOOL_SCHEMA: `json.dumps` of the crop_video function (matches SFT training). */
export const REFERENCE_TOOL_SCHEMA = pythonJsonDumps({
  type: "function",
  function: {
    name: "crop_video",
    description: "Analyze a cropped video segment by sampling frames from a specific time range.",
    parameters: {
      type: "object",
      properties: {
        video_path: { type: "string", description: "Path to the video file" },
        start_time: { type: "number", description: "Start time in seconds" },
        end_time: { type: "number", description: "End time in seconds" },
      },
      required: ["video_path", "start_time", "end_time"],
    },
  },
});

const DIRECT_SYSTEM =
  "You are a helpful video understanding assistant. Watch the video " +
  "carefully and answer the question. Provide your final answer in " +
  "<answer></answer> tags.";

const REASONING_SYSTEM =
  "You are a helpful assistant. When the user asks a question, your " +
  "response must include two parts: first, the reasoning process " +
  "enclosed in <think>...</think> tags, then the final answer " +
  "enclosed in <answer>...</answer> tags.";

const GENERAL_AGENTIC_SYSTEM = `You are a video understanding agent that can analyze videos by cropping and examining specific segments.

Available tool:
<tools>
${REFERENCE_TOOL_SCHEMA}
</tools>

For tool calls, return a JSON object within <tool_call></tool_call> XML tags:
<tool_call>
{"name": "crop_video", "arguments": {"video_path": "...", "start_time": 0, "end_time": 10}}
</tool_call>

You may emit **multiple <tool_call> blocks in one turn** to analyze different segments in parallel — this is more efficient than sequential calls and is the recommended dispatch shape for this agent.

Format strictly as:
<think>your reasoning here</think>
<tool_call>...</tool_call>  (zero or more, parallel if multiple)
<answer>your final answer</answer>

Always wrap your reasoning in <think> tags and your final answer in <answer> tags.`;

const MINIMAL_AGENTIC_SYSTEM = `# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
${REFERENCE_TOOL_SCHEMA}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>`;

/** driver.py `_system_message` for the four SPEC §5 modes. */
export const REFERENCE_SYSTEM: Readonly<Record<PromptMode, string>> = {
  direct: DIRECT_SYSTEM,
  reasoning: REASONING_SYSTEM,
  agentic_general: GENERAL_AGENTIC_SYSTEM,
  agentic_minimal: MINIMAL_AGENTIC_SYSTEM,
};

/** driver.py `eval_one`: the forced final answer after the last tool round, by `is_mcq`. */
export const REFERENCE_FINAL_ANSWER = {
  mcq: "Based on the video and cropped segments above, answer with ONLY the letter.",
  grounding:
    "Based on the video and any cropped segments, provide your final answer " +
    "about when the event happens. Use the format: " +
    "'The event happens in the X.X - Y.Y seconds.'",
} as const;

/**
 * Python's `f"{x:.1f}"`: the exact binary value rounded to one decimal, ties to even. JavaScript's
 * toFixed rounds exact ties up instead; at one decimal the only exact ties are odd quarters
 * (0.25, 0.75, 1.25, …), which are therefore settled here.
 */
export function pyFixed1(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
  const q = x * 4; // exact
  if (Number.isInteger(q) && q % 2 !== 0) {
    const down = Math.floor(x * 10) / 10;
    const lastDigit = Math.abs(Math.round(down * 10)) % 10;
    const r = lastDigit % 2 === 0 ? down : down + 0.1;
    return r.toFixed(1);
  }
  return x.toFixed(1);
}

/** driver.py: the text after a crop's frames. */
export function referenceCropResponse(frames: number, start: number, end: number): string {
  return `<tool_response>\n${frames} frames from ${pyFixed1(start)}s to ${pyFixed1(end)}s.\n</tool_response>`;
}

/** driver.py: the tool response when a crop gave no frame (`crop_frames` returned []). */
export function referenceCropError(start: number, end: number): string {
  return `<tool_response>\n[Error cropping ${pyFixed1(start)}s-${pyFixed1(end)}s]\n</tool_response>`;
}
