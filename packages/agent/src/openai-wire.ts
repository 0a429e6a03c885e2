// The subset of the OpenAI chat-completions wire format we speak (SPEC §5: frames travel as JPEG
// data URLs through an OpenAI-compatible chat API, vLLM / SGLang), validated with zod on both
// sides: the nano server reads requests with it. Responses, in every shape vLLM and SGLang write
// them, are read by engines/openai-response.ts.

import { z } from "zod";

export const TextItemSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ImageUrlItemSchema = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string().min(1), detail: z.string().optional() }),
});
export const ContentItemSchema = z.discriminatedUnion("type", [TextItemSchema, ImageUrlItemSchema]);

export const WireMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.union([z.string(), z.array(ContentItemSchema).min(1)]),
});
export type WireMessage = z.infer<typeof WireMessageSchema>;

/** Most completions one request may ask for (`n`). */
export const MAX_CHOICES = 16;

/**
 * The fields the nano server reads, checked. Fields outside this schema are refused by the server
 * (server/request-fields.ts) unless their value asks for nothing, so nothing is silently ignored.
 */
export const ChatCompletionRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(WireMessageSchema).min(1),
  max_tokens: z.int().min(1).optional(),
  max_completion_tokens: z.int().min(1).optional(),
  temperature: z.number().min(0).max(10).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  seed: z.int().optional(),
  n: z.int().min(1).max(MAX_CHOICES).nullable().optional(),
  /** OpenAI allows up to 4 stop strings; vLLM any number. Empty strings are refused (they match everywhere). */
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1, { error: "stop strings must not be empty" })).max(16)])
    .nullable()
    .optional(),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: z.int().min(0).max(20).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().nullable().optional() }).strict().nullable().optional(),
  /** An end-user id (OpenAI: for abuse monitoring); nothing to honour. */
  user: z.string().optional(),
  /** vLLM / SGLang extension: continue the last (assistant) message instead of starting a new one. */
  continue_final_message: z.boolean().optional(),
  add_generation_prompt: z.boolean().optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** OpenAI's error body. */
export interface WireError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export const JPEG_DATA_URL_PREFIX = "data:image/jpeg;base64,";

/** A JPEG as a data URL (SPEC §5). */
export function jpegDataUrl(jpeg: Buffer): string {
  return JPEG_DATA_URL_PREFIX + jpeg.toString("base64");
}

const DATA_URL_RE = /^data:(image\/(?:jpeg|jpg|png|webp));base64,([A-Za-z0-9+/]*={0,2})$/;

/** The bytes of an image data URL, or why it is not one. */
export function decodeImageDataUrl(url: string): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  if (!url.startsWith("data:")) {
    return { ok: false, error: "only data URLs (data:image/jpeg;base64,…) are accepted; the server fetches nothing" };
  }
  const m = DATA_URL_RE.exec(url);
  if (!m) return { ok: false, error: "not a base64 image data URL (data:image/jpeg|png|webp;base64,…)" };
  const bytes = Buffer.from(m[2]!, "base64");
  if (bytes.length === 0) return { ok: false, error: "empty image" };
  return { ok: true, bytes };
}

type Issue = z.core.$ZodIssue;

/**
 * zod issues as `{param, message}`, with unions resolved to the branch that got furthest (a bad
 * content item says `messages[0].content[0].type: …`, not "invalid input at messages[0].content").
 */
export function wireIssues(error: z.ZodError): { param: string | null; message: string }[] {
  const out: { param: string | null; message: string }[] = [];
  const visit = (issue: Issue, prefix: readonly PropertyKey[]) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const depth = (branch: Issue[]) => Math.max(-1, ...branch.map((i) => i.path.length));
      const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      if (depth(best) > 0) {
        for (const i of best) visit(i, path);
        return;
      }
    }
    out.push({ param: paramOf(path), message: issue.message });
  };
  for (const i of error.issues) visit(i, []);
  return out;
}

/** `messages[0].content[1].image_url` from an issue path; null for the root. */
export function paramOf(path: readonly PropertyKey[]): string | null {
  if (path.length === 0) return null;
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}
