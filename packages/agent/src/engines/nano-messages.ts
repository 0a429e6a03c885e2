// Chat messages -> nano episode turns (the sequence builder's input), so that the token sequence
// nano renders equals its training format (packages/nano/src/sequence.ts):
// - Each text part stays its own part: nano encodes every part separately, exactly as
//   `expandVideo` splits `<video>\n{question}` into `<t seconds>` texts, frame slots and the text
//   after them. The runner writes the same parts (messages.ts `timestampedFrames`), and the
//   OpenAI wire format keeps them as separate `text` items, so the server rebuilds the same list.
// - Each frame part becomes a frame slot whose thumbnail is made from the JPEG itself
//   (`imageThumbnail`, the trainer's pipeline after decoding), keyed by a hash of the bytes:
//   identical JPEGs share one thumbnail, and the rendering does not depend on where a frame came
//   from (engine call or HTTP request).
// - An assistant message is rendered as its whole text; a `<think>\n` it starts with encodes to
//   the same tokens whether it was forced or generated (tested), so no flag is needed.

import { createHash } from "node:crypto";
import { imageThumbnail, type EpisodeTurn, type FrameRef, type FrameSource, type Part } from "@paravt/nano";
import { EngineError, type ChatMessage } from "../types";

type Thumb = { width: number; height: number };

/** Thumbnails of JPEG frames by content hash, LRU-bounded (3·w·h bytes each: 3.9 kB at 48x27). */
export class ThumbnailCache {
  private readonly entries = new Map<string, Promise<Uint8Array>>();

  constructor(
    readonly thumb: Thumb,
    readonly maxEntries = 8192,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The key of `jpeg` and its thumbnail (computed once while cached). */
  get(jpeg: Buffer): { key: string; thumbnail: Promise<Uint8Array> } {
    const key = `jpeg:${createHash("sha256").update(jpeg).digest("hex")}`;
    let p = this.entries.get(key);
    if (p) {
      this.entries.delete(key); // re-insert: Map order is the LRU order
    } else {
      p = imageThumbnail(jpeg, this.thumb);
      p.catch(() => this.entries.delete(key));
    }
    this.entries.set(key, p);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return { key, thumbnail: p };
  }
}

export class NanoMessageError extends Error {
  override name = "NanoMessageError";
}

/** One frame given as encoded image bytes. */
export interface ImagePart {
  type: "image";
  image: Buffer;
  /** Nominal time, kept in the frame reference for readability (not rendered). */
  t: number;
}

/** Text or image parts of a message, after the engine- or wire-specific decoding. */
export type NanoContent = string | readonly ({ type: "text"; text: string } | ImagePart)[];

/**
 * Turns and their FrameSource. The source holds this conversion's thumbnails, so an LRU eviction
 * elsewhere cannot lose a frame of this prompt.
 */
export function toNanoTurns(
  messages: readonly { role: ChatMessage["role"]; content: NanoContent }[],
  cache: ThumbnailCache,
): { turns: EpisodeTurn[]; frames: FrameSource } {
  const own = new Map<string, Promise<Uint8Array>>();
  const turns = messages.map((m, i): EpisodeTurn => {
    if (typeof m.content === "string") return { role: m.role, content: m.content };
    const parts: Part[] = m.content.map((p) => {
      if (p.type === "text") return p.text;
      if (m.role !== "user") throw new NanoMessageError(`message ${i} (${m.role}): only user messages can hold images`);
      const { key, thumbnail } = cache.get(p.image);
      own.set(key, thumbnail);
      const ref: FrameRef = { video: key, t: p.t };
      return { frame: ref };
    });
    return { role: m.role, content: parts };
  });
  const frames: FrameSource = {
    thumbnails: (refs) =>
      Promise.all(
        refs.map((r) => {
          const t = own.get(r.video);
          if (!t) throw new NanoMessageError(`no image for frame reference ${r.video}`);
          return t;
        }),
      ),
  };
  return { turns, frames };
}

/** The runner's messages (text and JPEG frame parts) as nano content. */
export function chatToNanoContent(m: ChatMessage): { role: ChatMessage["role"]; content: NanoContent } {
  if (typeof m.content === "string") return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((p) => {
      if (p.type === "video_file") {
        throw new EngineError("internal", "nano sees frames, not a video file: use the image_url channel");
      }
      return p.type === "text"
        ? { type: "text" as const, text: p.text }
        : { type: "image" as const, image: p.jpeg, t: p.t };
    }),
  };
}
