// What an OpenAI-compatible endpoint (vLLM / SGLang) can do, asked before an evaluation is
// launched on it (issue 36, docs/serving.md):
//   1. GET  {baseUrl}/models: the served model ids and, on vLLM and SGLang, `max_model_len`
//      (vllm/entrypoints/openai/models/protocol.py `ModelCard`; sglang
//      python/sglang/srt/entrypoints/openai/protocol.py `ModelCard`);
//   2. POST {baseUrl}/chat/completions with ONE image: does it take images at all;
//   3. the same with TWO images: a server started without `--limit-mm-per-prompt` allowing several
//      images answers 400 ("At most 1 image(s) may be provided …"), which every agentic run needs;
//   and whether the answers carry `reasoning` / `reasoning_content` (a reasoning parser is on).
// Every request goes through the endpoint policy first and follows no redirect (a 3xx is reported,
// its body never read), so a probe cannot be bounced to an address the policy refuses.

import { z } from "zod";
import type { EndpointProbe } from "../contracts/models";
import { checkEndpointResolves } from "./endpoint-policy";

/** A 64x64 JPEG (blue with a white square), small enough for any pixel bounds. */
const PROBE_JPEG =
  "/9j/2wBDAAUDBAQEAwUEBAQFBQUGBwwIBwcHBw8LCwkMEQ8SEhEPERETFhwXExQaFRERGCEYGh0dHx8fExciJCIeJBweHx7/2wBDAQUFBQcGBw4ICA4eFBEUHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh7/wAARCABAAEADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAAgG/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/EABYBAQEBAAAAAAAAAAAAAAAAAAAGB//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AMeA2BEgAAAAAAAL7AY+tgAECANgRIAC+wGPrYABAgDYESAAAAAAAA//2Q==";

const ModelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), max_model_len: z.number().int().positive().nullish() })),
});

const ChatAnswerSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          reasoning: z.string().nullish(),
          reasoning_content: z.string().nullish(),
        }),
      }),
    )
    .min(1),
});

export interface ProbeOptions {
  baseUrl: string;
  servedModel: string;
  apiKey?: string | null;
  /** MODEL_ENDPOINT_ALLOW. */
  allow: readonly string[];
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Reply = { ok: true; status: number; json: unknown } | { ok: false; status: number | null; error: string };

async function call(o: ProbeOptions, path: string, body?: unknown): Promise<Reply> {
  const url = new URL(`${o.baseUrl.replace(/\/+$/, "")}${path}`);
  try {
    await checkEndpointResolves(url, o.allow);
  } catch (e) {
    return { ok: false, status: null, error: `refused by the endpoint policy: ${(e as Error).message}` };
  }
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, {
      method: body === undefined ? "GET" : "POST",
      redirect: "manual",
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 60_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return { ok: false, status: null, error: `cannot reach ${url.origin}: ${cause ?? (e as Error).message}` };
  }
  if (res.status >= 300 && res.status < 400) {
    return {
      ok: false,
      status: res.status,
      error: `HTTP ${res.status}: the server redirects; redirects are not followed`,
    };
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below when it matters
  }
  if (!res.ok) {
    const j = json as { error?: { message?: unknown } | string; message?: unknown } | null;
    const msg =
      (typeof j?.error === "object" ? j.error?.message : j?.error) ??
      j?.message ??
      (text.slice(0, 300) || "(empty body)");
    return { ok: false, status: res.status, error: `HTTP ${res.status}: ${String(msg)}` };
  }
  if (json === null) return { ok: false, status: res.status, error: `the answer is not JSON: ${text.slice(0, 200)}` };
  return { ok: true, status: res.status, json };
}

function imageRequest(model: string, images: number) {
  return {
    model,
    messages: [
      {
        role: "user",
        content: [
          ...Array.from({ length: images }, () => ({
            type: "image_url",
            image_url: { url: `data:image/jpeg;base64,${PROBE_JPEG}` },
          })),
          { type: "text", text: "How many images are there? Answer with one number." },
        ],
      },
    ],
    max_tokens: 16,
    temperature: 0,
  };
}

function imageCheck(r: Reply): EndpointProbe["oneImage"] {
  if (!r.ok) return { ok: false, error: r.error };
  const parsed = ChatAnswerSchema.safeParse(r.json);
  if (!parsed.success) return { ok: false, error: `unexpected answer shape: ${z.prettifyError(parsed.error)}` };
  const m = parsed.data.choices[0]!.message;
  const reasoningField = m.reasoning != null ? "reasoning" : m.reasoning_content != null ? "reasoning_content" : null;
  return { ok: true, answer: (m.content ?? "").slice(0, 200), reasoningField };
}

/** Probes one endpoint; never throws for what the server answers (each step says ok or why not). */
export async function probeEndpoint(o: ProbeOptions): Promise<EndpointProbe> {
  const t0 = Date.now();
  const warnings: string[] = [];
  const models = await call(o, "/models");
  let modelIds: string[] = [];
  let maxModelLen: number | null = null;
  let modelsError: string | null = null;
  if (!models.ok) modelsError = models.error;
  else {
    const parsed = ModelListSchema.safeParse(models.json);
    if (!parsed.success) modelsError = `unexpected /models answer: ${z.prettifyError(parsed.error)}`;
    else {
      modelIds = parsed.data.data.map((m) => m.id);
      maxModelLen = parsed.data.data.find((m) => m.id === o.servedModel)?.max_model_len ?? null;
    }
  }
  const servedModelListed = modelIds.includes(o.servedModel);
  if (models.ok && !servedModelListed) {
    warnings.push(`the server does not list "${o.servedModel}" (it serves ${modelIds.join(", ") || "nothing"})`);
  }
  const oneImage = imageCheck(await call(o, "/chat/completions", imageRequest(o.servedModel, 1)));
  const severalImages = oneImage.ok
    ? imageCheck(await call(o, "/chat/completions", imageRequest(o.servedModel, 2)))
    : { ok: false as const, error: "not tried: a single image already failed" };
  if (!severalImages.ok && oneImage.ok) {
    warnings.push(
      "several images per request are refused: agentic modes send K overview frames (vLLM: --limit-mm-per-prompt)",
    );
  }
  if (maxModelLen !== null && maxModelLen < 32_768) {
    warnings.push(`max_model_len ${maxModelLen} is small for 64 overview frames plus crops (docs/serving.md)`);
  }
  const reasoningField = (oneImage.ok && oneImage.reasoningField) || null;
  return {
    probedAt: new Date().toISOString(),
    durationMs: Date.now() - t0,
    modelIds,
    modelsError,
    servedModelListed,
    maxModelLen,
    oneImage,
    severalImages,
    reasoningParser: reasoningField,
    warnings,
  };
}
