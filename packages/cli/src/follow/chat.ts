// A rollout's conversation turned into our trajectory (SPEC §1): main-agent turns with their tool
// calls (windows by SPEC §4's training parser) and each call's tool response as the sub-agent
// output. Two shapes reach us: OpenAI-style message lists (trackio.Trace, as TRL's async GRPO
// logs them) and chat-template text (AReaL's rollout dumps of Qwen models, decoded with the
// special tokens kept).
import { answerOf, callsOfText, type ParsedCall } from "./items";

export interface Trajectory {
  question: string;
  /** The overview frames' times shown in the prompt (ParaVT's `<12.0 seconds>` markers). */
  overviewTimestamps: number[];
  turns: { rawText: string; calls: ParsedCall[] }[];
  finalText: string | null;
  prediction: string | null;
}

/** The text of a message's content: a string, or the text parts of a list (images and videos left out). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      const p = part as { type?: unknown; text?: unknown } | null;
      return p && typeof p.text === "string" && (p.type === undefined || p.type === "text") ? p.text : "";
    })
    .join("");
}

/** `<12.0 seconds>`: the frame time the ParaVT workflow writes before each overview frame (workflow.py, prepare_video_contents). */
const FRAME_MARKER = /<(\d+(?:\.\d+)?) seconds>/g;
const VISION_SPAN = /<\|vision_start\|>[\s\S]*?<\|vision_end\|>/g;
const SPECIAL_TOKEN = /<\|[a-z_]+\|>/g;

/** The question as a person reads it: frame markers, vision tokens and special tokens removed. */
function questionOf(text: string): { question: string; times: number[] } {
  const times = [...text.matchAll(FRAME_MARKER)].map((m) => Number(m[1]));
  const question = text.replace(VISION_SPAN, "").replace(FRAME_MARKER, "").replace(SPECIAL_TOKEN, "").trim();
  return { question, times };
}

/** The body of each `<tool_response>…</tool_response>` of a message. */
function toolResponses(text: string): string[] {
  return [...text.matchAll(/<tool_response>\n?([\s\S]*?)\n?<\/tool_response>/g)].map((m) => m[1]!);
}

/** The calls of the last turn, filled in order with the tool responses that follow it. */
function fillResponses(turns: Trajectory["turns"], responses: readonly string[]): void {
  const last = turns.at(-1);
  if (!last) return;
  for (const r of responses) {
    const open = last.calls.find((c) => c.subAgentOutput === null);
    if (open) open.subAgentOutput = r;
  }
}

function finish(question: string, times: number[], turns: Trajectory["turns"]): Trajectory {
  const finalText = turns.at(-1)?.rawText ?? null;
  return {
    question,
    overviewTimestamps: times,
    turns,
    finalText,
    prediction: finalText === null ? null : answerOf(finalText),
  };
}

interface Message {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
}

/** OpenAI-style function calls of an assistant message (`tool_calls: [{id, function: {name, arguments}}]`). */
function openAiCalls(m: Message): (ParsedCall & { id: string | null })[] {
  if (!Array.isArray(m.tool_calls)) return [];
  return m.tool_calls.slice(0, 64).map((raw, index) => {
    const c = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    let args: unknown = c.function?.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        args = { raw: args };
      }
    }
    const obj = args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    const [win] = callsOfText(`<tool_call>${JSON.stringify({ name: c.function?.name, arguments: obj })}</tool_call>`);
    return {
      index,
      id: typeof c.id === "string" ? c.id : null,
      name: typeof c.function?.name === "string" ? c.function.name.slice(0, 100) : "crop_video",
      arguments: obj,
      startS: win?.startS ?? null,
      endS: win?.endS ?? null,
      subAgentOutput: null,
    };
  });
}

/**
 * A message list (trackio.Trace `messages`): the question is the last user message before the
 * first assistant message; each assistant message is a turn, its calls from `tool_calls` or, in
 * their absence, from its text; `tool` messages (and user messages carrying `<tool_response>`)
 * answer the calls of the turn before them (by `tool_call_id` when given).
 */
export function trajectoryOfMessages(messages: readonly unknown[]): Trajectory {
  let question = "";
  let times: number[] = [];
  const turns: { rawText: string; calls: (ParsedCall & { id?: string | null })[] }[] = [];
  for (const raw of messages) {
    const m = (raw ?? {}) as Message;
    const text = contentText(m.content);
    if (m.role === "assistant") {
      const structured = openAiCalls(m);
      turns.push({ rawText: text, calls: structured.length ? structured : callsOfText(text) });
    } else if (m.role === "tool") {
      const last = turns.at(-1);
      const byId = last?.calls.find((c) => c.id && c.id === m.tool_call_id && c.subAgentOutput === null);
      if (byId) byId.subAgentOutput = text;
      else fillResponses(turns, [text]);
    } else if (m.role === "user") {
      if (turns.length === 0) ({ question, times } = questionOf(text));
      else fillResponses(turns, toolResponses(text));
    }
  }
  return finish(
    question,
    times,
    turns.map(({ rawText, calls }) => ({ rawText, calls: calls.map(({ id: _id, ...c }) => c) })),
  );
}

/** `<|im_start|>role\n…<|im_end|>` blocks of a Qwen chat-template text (the last may be unterminated). */
function chatBlocks(text: string): { role: string; body: string }[] {
  const out: { role: string; body: string }[] = [];
  for (const m of text.matchAll(/<\|im_start\|>(\w+)\n([\s\S]*?)(?=<\|im_end\|>|<\|im_start\|>|$)/g)) {
    out.push({ role: m[1]!, body: m[2]!.replace(/(<\|endoftext\|>)+$/, "") });
  }
  return out;
}

/**
 * A whole sequence in Qwen's chat template (AReaL's dump: prompt + completion decoded with the
 * special tokens): the question from the last user block before the first assistant block,
 * a turn per assistant block, tool responses from the user blocks after it. Null when the text
 * has no chat blocks (another template).
 */
export function trajectoryOfChatText(text: string): Trajectory | null {
  const blocks = chatBlocks(text);
  if (!blocks.some((b) => b.role === "assistant")) return null;
  let question = "";
  let times: number[] = [];
  const turns: Trajectory["turns"] = [];
  for (const b of blocks) {
    if (b.role === "assistant") turns.push({ rawText: b.body, calls: callsOfText(b.body) });
    else if (b.role === "user") {
      if (turns.length === 0) ({ question, times } = questionOf(b.body));
      else fillResponses(turns, toolResponses(b.body));
    }
  }
  return finish(question, times, turns);
}
