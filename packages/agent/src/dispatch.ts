// One tool round (SPEC §1.4–1.6): the calls of a main-agent turn, checked, cropped concurrently
// (at most `concurrency` at once), then either summarized by sub-agents (training style, all
// sub-agent requests of the round in ONE engine call so engines can batch) or returned as frames
// (the reference evaluator's style, SPEC §5). A failed call yields an error text for that call.

import type { JsonValue } from "@paravt/protocol";
import { isVideoError } from "@paravt/video/sampling";
import type { FrameSampler, VideoRef } from "./frame-sampler";
import type { EvalKnobs } from "./knobs";
import { appendText, bareFrames, timestampedFrames, toolResponse } from "./messages";
import { renderSubAgentPrompt } from "./episode-prompts";
import { mapPool } from "./pool";
import { subAgentValues, type PromptTexts } from "./prompts";
import { referenceCropError, referenceCropResponse } from "./reference-protocol";
import { fillTemplate } from "./template";
import { planCall, type CallPlan } from "./tool-calls";
import { truncateSummary } from "./token-counter";
import { storableJson, type EpisodeError, type ToolCallRecord } from "./trajectory";
import {
  EngineError,
  type ChatEngine,
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type TokenCounter,
} from "./types";
import type { SampledFrame } from "@paravt/video";

export interface RoundContext {
  calls: readonly JsonValue[];
  duration: number;
  video: VideoRef;
  /** `FramePart.video` of the frames. */
  videoKey: string;
  question: string;
  videoPath: string;
  videoName: string;
  knobs: EvalKnobs;
  texts: PromptTexts;
  sampler: FrameSampler;
  subAgent: ChatEngine;
  counter: TokenCounter;
  signal?: AbortSignal;
}

export interface RoundResult {
  records: ToolCallRecord[];
  /** User turns to append to the main agent's context, in call order. */
  messages: ChatMessage[];
  framesMs: number;
  subAgentMs: number;
  subAgentPromptTokens: number;
  subAgentCompletionTokens: number;
  /** Set when the episode must stop (cancelled, or `subAgentFailure: "fail_episode"`). */
  fatal: EpisodeError | null;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Any failure as an EngineError (a bug in an engine is "internal"). */
export function asEngineError(e: unknown): EngineError {
  return e instanceof EngineError ? e : new EngineError("internal", message(e), false, { cause: e });
}

function newRecord(index: number, plan: CallPlan): ToolCallRecord {
  return {
    index,
    name: plan.name,
    arguments: storableJson(plan.arguments),
    requestedStartS: plan.requested?.start ?? null,
    requestedEndS: plan.requested?.end ?? null,
    startS: null,
    endS: null,
    clamped: false,
    frameTimestamps: [],
    frameSourceTimes: [],
    subAgentOutput: null,
    response: null,
    truncated: false,
    status: "ERROR",
    durationMs: 0,
    framesMs: 0,
    tokens: null,
  };
}

function fail(r: ToolCallRecord, error: string): void {
  r.status = "ERROR";
  r.error = error;
  r.response = `Error: ${error}`;
}

/**
 * Completes the sub-agent requests of a round in one engine call. When that call fails for a
 * reason specific to a request (4xx, bad response, context overflow) and there are several, each
 * is retried alone so only the failing calls become errors; transient failures (network, timeout,
 * 5xx after the engine's own retries) are not multiplied.
 */
async function completeRound(
  engine: ChatEngine,
  requests: CompletionRequest[],
  signal: AbortSignal | undefined,
): Promise<(Completion | EngineError)[]> {
  const checked = (cs: Completion[], n: number) => {
    if (!Array.isArray(cs) || cs.length !== n) {
      throw new EngineError("bad_response", `the engine returned ${cs?.length} completions for ${n} requests`);
    }
    return cs;
  };
  try {
    return checked(await engine.complete(requests, signal ? { signal } : {}), requests.length);
  } catch (e) {
    const err = asEngineError(e);
    const specific = !err.retryable && err.kind !== "network" && err.kind !== "timeout" && err.kind !== "cancelled";
    if (requests.length === 1 || !specific || signal?.aborted) return requests.map(() => err);
    return Promise.all(
      requests.map((r) =>
        engine.complete([r], signal ? { signal } : {}).then(
          (cs) => checked(cs, 1)[0]!,
          (e2: unknown) => asEngineError(e2),
        ),
      ),
    );
  }
}

export async function runToolRound(ctx: RoundContext): Promise<RoundResult> {
  const { knobs } = ctx;
  // Every call is read (the trajectory shows what a rejected call asked for); only the first
  // max_parallel run.
  const reference = knobs.requestStyle === "reference";
  // The reference evaluator crops whatever a call is named (driver.py reads only its arguments).
  const plans = ctx.calls.map((c) => planCall(c, ctx.duration, { anyName: reference }));
  const records = plans.map((p, i) => newRecord(i, p));
  const out: RoundResult = {
    records,
    messages: [],
    framesMs: 0,
    subAgentMs: 0,
    subAgentPromptTokens: 0,
    subAgentCompletionTokens: 0,
    fatal: null,
  };
  records.forEach((r, i) => {
    const plan = plans[i]!;
    if (i >= knobs.maxParallel) {
      // SPEC §1.6: at most max_parallel calls are accepted per turn; the rest get no response.
      r.status = "REJECTED";
      r.error = `rejected: at most ${knobs.maxParallel} calls are accepted per turn (SPEC §1.6); this is call ${i + 1}`;
    } else if (plan.error !== null) fail(r, plan.error);
  });

  // Crops of the valid calls, concurrently (SPEC §1.4).
  const frames = new Map<number, SampledFrame[]>();
  const toCrop = records.filter((r) => r.status !== "REJECTED" && plans[r.index]!.window);
  const t0 = performance.now();
  await mapPool(toCrop, knobs.concurrency ?? knobs.maxParallel, async (r) => {
    if (ctx.signal?.aborted) return;
    const req = plans[r.index]!.requested!;
    const t = performance.now();
    try {
      const crop = await ctx.sampler.crop(ctx.video, req.start, req.end, {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        sampling: reference ? "reference" : "workbench",
      });
      r.startS = crop.start;
      r.endS = crop.end;
      r.clamped = crop.clamped;
      r.frameTimestamps = crop.frames.map((f) => f.timestamp);
      r.frameSourceTimes = crop.frames.map((f) => f.sourceTime);
      frames.set(r.index, crop.frames);
      r.status = "OK";
    } catch (e) {
      fail(r, isVideoError(e) ? e.message : `could not read the frames: ${message(e)}`);
    }
    r.framesMs = performance.now() - t;
    r.durationMs = r.framesMs;
  });
  out.framesMs = performance.now() - t0;
  if (ctx.signal?.aborted) {
    out.fatal = { kind: "cancelled", stage: "frames", message: "the episode was cancelled" };
    return out;
  }

  const accepted = records.filter((r) => r.status !== "REJECTED");
  if (reference) {
    // driver.py `eval_one`: per call, its frames and the frame-count text, or the error text; the
    // times are the ones the call asked for (start_time else start else 0, end_time else end else
    // start + 10), as the reference prints them.
    for (const r of accepted) {
      const f = frames.get(r.index);
      const start = r.requestedStartS ?? 0;
      const end = r.requestedEndS ?? start + 10;
      if (r.status === "OK" && f) {
        r.response = referenceCropResponse(f.length, start, end);
        out.messages.push({
          role: "user",
          content: [...bareFrames(f, ctx.videoKey), { type: "text", text: r.response }],
        });
      } else out.messages.push({ role: "user", content: referenceCropError(start, end) });
    }
    return out;
  }
  if (knobs.dispatch === "evaluator") {
    // SPEC §5 reference evaluator: the crop's frames go back to the main agent as a user turn,
    // followed by a text tool response saying how many frames from which second to which.
    for (const r of accepted) {
      const f = frames.get(r.index);
      if (r.status === "OK" && f) {
        const v = subAgentValues(r.startS!, r.endS!, r.frameTimestamps, ctx);
        const text = fillTemplate(ctx.texts.evaluatorResponse, {
          frame_count: v.frame_count!,
          start: v.start!,
          end: v.end!,
          start_s: v.start_s!,
          end_s: v.end_s!,
        });
        r.response = text;
        out.messages.push({
          role: "user",
          content: [...timestampedFrames(f, ctx.videoKey), { type: "text", text: `\n${toolResponse(text)}` }],
        });
      } else out.messages.push({ role: "user", content: toolResponse(r.response ?? "") });
    }
    return out;
  }

  // Training style (SPEC §1.4): one sub-agent per cropped call, all in one engine call.
  const withFrames = accepted.filter((r) => r.status === "OK");
  const requests = withFrames.map((r): CompletionRequest => {
    // episode-prompts.ts: the one definition the workbench's transcript renders too.
    const prompt = renderSubAgentPrompt(
      ctx.texts,
      { startS: r.startS!, endS: r.endS!, frameTimestamps: r.frameTimestamps },
      ctx,
    );
    const messages: ChatMessage[] = [];
    if (prompt.system !== null) messages.push({ role: "system", content: prompt.system });
    // nano's sub-agent format: `<video>\n{prompt}` with `<video>` = the window's timestamped frames.
    messages.push({
      role: "user",
      content: [...timestampedFrames(frames.get(r.index)!, ctx.videoKey), { type: "text", text: prompt.text }],
    });
    return {
      messages,
      maxTokens: knobs.subAgentMaxTokens ?? knobs.maxTokens,
      temperature: knobs.temperature,
      ...(knobs.topP !== undefined ? { topP: knobs.topP } : {}),
      ...(knobs.seed !== undefined ? { seed: knobs.seed } : {}),
    };
  });
  if (requests.length > 0) {
    const t1 = performance.now();
    const results = await completeRound(ctx.subAgent, requests, ctx.signal);
    out.subAgentMs = performance.now() - t1;
    results.forEach((res, j) => {
      const r = withFrames[j]!;
      r.durationMs = r.framesMs + out.subAgentMs;
      if (res instanceof EngineError) {
        fail(r, `the sub-agent failed (${res.kind}): ${res.message}`);
        if (!out.fatal && (res.kind === "cancelled" || knobs.subAgentFailure === "fail_episode")) {
          out.fatal = { kind: res.kind, stage: "sub_agent", message: res.message };
        }
        return;
      }
      const cut = truncateSummary(res.text, ctx.counter, knobs.summaryMaxTokens);
      r.subAgentOutput = res.text;
      r.response = cut.text;
      r.truncated = cut.truncated;
      r.tokens = { prompt: res.promptTokens, completion: res.completionTokens, summary: cut.tokens };
      out.subAgentPromptTokens += res.promptTokens;
      out.subAgentCompletionTokens += res.completionTokens;
    });
  }
  // SPEC §1.5: every response of the round in one user turn, in call order.
  out.messages.push({ role: "user", content: accepted.map((r) => toolResponse(r.response ?? "")).join("\n") });
  return out;
}

/** The final-answer nudge appended to the last user turn (SPEC §5); returns the new message list. */
export function withFinalAnswerNudge(messages: readonly ChatMessage[], text: string): ChatMessage[] {
  if (text === "") return [...messages];
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user") return [...messages, { role: "user", content: text }];
  return [...messages.slice(0, -1), appendText(last, text)];
}
