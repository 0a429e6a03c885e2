// Test helpers (imported by *.test.ts only): a tiny real needle-suite video, a scripted policy
// that implements ChatEngine deterministically (a test policy, not a fake service: the runner
// under test treats it like any engine), and a FrameSampler wrapper that measures overlap.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planSuite, writeSuite, type SuitePlan } from "@paravt/suite";
import type { FrameSampler } from "./frame-sampler";
import type { Trajectory } from "./trajectory";
import {
  EngineError,
  type ChatEngine,
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type PromptPresetName,
  type TokenCounter,
} from "./types";

/** The one-video, 1-minute suite the nano tests also use (seed 3): 64 s, 192x108, 4 fps. */
export const TINY_SUITE = { seed: 3, count: 1, config: { minMinutes: 1, maxMinutes: 1 } } as const;

export async function writeTinySuite(): Promise<{
  root: string;
  dir: string;
  plan: SuitePlan;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), "paravt-agent-"));
  const { dir } = await writeSuite({ ...TINY_SUITE, out: join(root, "suite") });
  return { root, dir, plan: planSuite(TINY_SUITE), cleanup: () => rm(root, { recursive: true, force: true }) };
}

export type Policy = (request: CompletionRequest, call: number) => string | Error | Promise<string | Error>;

/** A ChatEngine whose texts come from `policy`; records every complete() call and its overlap. */
export class ScriptedEngine implements ChatEngine {
  readonly description: string;
  readonly batches: CompletionRequest[][] = [];
  promptPreset?: PromptPresetName;
  tokenCounter?: TokenCounter;
  private n = 0;

  constructor(
    private readonly policy: Policy,
    opts: { description?: string; promptPreset?: PromptPresetName; tokenCounter?: TokenCounter } = {},
  ) {
    this.description = opts.description ?? "scripted";
    if (opts.promptPreset) this.promptPreset = opts.promptPreset;
    if (opts.tokenCounter) this.tokenCounter = opts.tokenCounter;
  }

  get requests(): CompletionRequest[] {
    return this.batches.flat();
  }

  async complete(
    requests: readonly CompletionRequest[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Completion[]> {
    this.batches.push([...requests]);
    const out: Completion[] = [];
    for (const r of requests) {
      if (options.signal?.aborted) throw new EngineError("cancelled", "cancelled");
      const text = await this.policy(r, this.n++);
      if (text instanceof Error) throw text;
      out.push({ text, promptTokens: 100 + this.n, completionTokens: text.length, finish: "stop", latencyMs: 1 });
    }
    return out;
  }

  async close(): Promise<void> {}
}

/** Counts crops in flight at once (incremented synchronously at call start, so the peak is exact). */
export function measuredSampler(inner: FrameSampler): FrameSampler & { peak: number; crops: number } {
  let inFlight = 0;
  const s = {
    peak: 0,
    crops: 0,
    duration: inner.duration.bind(inner),
    overview: inner.overview.bind(inner),
    async crop(...args: Parameters<FrameSampler["crop"]>) {
      s.crops++;
      s.peak = Math.max(s.peak, ++inFlight);
      try {
        return await inner.crop(...args);
      } finally {
        inFlight--;
      }
    },
  };
  return s;
}

/** Text of every text part of a message. */
export function textOf(m: ChatMessage | undefined): string {
  if (!m) return "";
  return typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** A call in the canonical SPEC §1.3 form. */
export function call(start: number | string, end: number | string, name = "crop_video"): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: { video_path: "videos/v0001.mp4", start_time: start, end_time: end } })}\n</tool_call>`;
}

/** A trajectory without what depends on the clock (for equality across engines / runs). */
export function timeless(t: Trajectory): unknown {
  return JSON.parse(
    JSON.stringify(t, (k, v: unknown) =>
      ["totalMs", "framesMs", "mainMs", "subAgentMs", "latencyMs", "durationMs"].includes(k) ? 0 : v,
    ),
  );
}
