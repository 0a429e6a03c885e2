// Chat content the runner builds: frames preceded by their timestamp text (SPEC §1.1,
// `<12.0 seconds>`, one decimal, written by nano's `frameTimestampText` so that the text the
// model reads is the one nano was trained on) and the `<tool_response>` envelope (SPEC §1.5).

import { frameTimestampText } from "@paravt/nano";
import type { SampledFrame } from "@paravt/video";
import type { ChatMessage, ContentPart } from "./types";

/** Each frame as its own text part `<t seconds>` followed by the frame part (nano's `frameParts` order). */
export function timestampedFrames(frames: readonly SampledFrame[], video: string): ContentPart[] {
  return frames.flatMap((f): ContentPart[] => [
    { type: "text", text: frameTimestampText(f.timestamp) },
    { type: "frame", t: f.timestamp, jpeg: f.jpeg, video },
  ]);
}

/** Frames without any text between them (the reference evaluator's `image_url` items). */
export function bareFrames(frames: readonly SampledFrame[], video: string): ContentPart[] {
  return frames.map((f): ContentPart => ({ type: "frame", t: f.timestamp, jpeg: f.jpeg, video }));
}

/** SPEC §1.5 envelope of one tool result. */
export function toolResponse(text: string): string {
  return `<tool_response>\n${text}\n</tool_response>`;
}

/** `message` with `text` appended on a new line (a new object; the original is left as it was). */
export function appendText(message: ChatMessage, text: string): ChatMessage {
  if (typeof message.content === "string") return { ...message, content: `${message.content}\n${text}` };
  return { ...message, content: [...message.content, { type: "text", text: `\n${text}` }] };
}

/** Plain text of a message (frames dropped): what an engine without image input would see. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}
