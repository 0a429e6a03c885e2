// The episode transcript's prompts (issue 41 item 12) through the whole chain: an eval shard's
// input for a stored sample (sampleInput), a real runEpisode on a real suite video with an engine
// that records what it was sent, the stored episode (toResult, evals.storeEpisode), then the
// service `episodePrompts.episodePrompts` — its texts must be byte for byte what the engine got.
// An ingested run's episode says it has no known prompt.
import path from "node:path";
import type { ChatEngine, ChatMessage, Completion, CompletionRequest, PromptPresetName } from "@paravt/agent";
import { writeSuite } from "@paravt/suite";
import { evalRunConfig, type EvalKnobs } from "@paravt/shared";
import { committedCheckpointsDir, db, episodePrompts, evals } from "@paravt/shared/server";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSample } from "./eval-sample";
import { loadSample, sampleInput } from "./handlers/handle-eval-shard";
import { projectWithOwnerAccess } from "./test-fixtures";

/** Records every request; turn 1 calls two windows, then answers (a test policy, not a fake service). */
class RecordingEngine implements ChatEngine {
  readonly description = "recording";
  readonly requests: CompletionRequest[] = [];
  private n = 0;
  constructor(readonly promptPreset: PromptPresetName) {}
  async complete(requests: readonly CompletionRequest[]): Promise<Completion[]> {
    return requests.map((r) => {
      this.requests.push(r);
      const sub = r.messages.length === 1 && /frames come|frame comes/.test(JSON.stringify(r.messages));
      const main = this.n++ === 0 && !sub;
      const call = (s: number, e: number) =>
        `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>`;
      const text = sub
        ? "a red circle"
        : main
          ? `<think>x</think>\n${call(3, 9)}\n${call(50, 80)}`
          : "<answer>A</answer>";
      return { text, promptTokens: 1, completionTokens: 1, finish: "stop", latencyMs: 1 };
    });
  }
  async close(): Promise<void> {}
}

const texts = (m: ChatMessage | undefined): string[] =>
  !m ? [] : typeof m.content === "string" ? [m.content] : m.content.flatMap((p) => (p.type === "text" ? [p.text] : []));

let root: string;
let videoFile: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "paravt-prompts-"));
  const { dir } = await writeSuite({
    seed: 3,
    count: 1,
    config: { minMinutes: 1, maxMinutes: 1 },
    out: path.join(root, "s"),
  });
  videoFile = path.join(dir, "videos", "v0001.mp4");
});
afterAll(async () => rm(root, { recursive: true, force: true }));

async function evalEpisode(o: { nano: boolean; knobs: Partial<EvalKnobs>; subtitles?: string }) {
  const { access } = await projectWithOwnerAccess();
  const projectId = access.projectId;
  const dataset = await db().dataset.create({ data: { projectId, name: "d" } });
  const video = await db().video.create({
    data: { projectId, name: "v0001.mp4", source: "GENERATED", path: videoFile, status: "READY" },
  });
  const sample = await db().sample.create({
    data: {
      datasetId: dataset.id,
      key: "q1",
      videoId: video.id,
      question: "What color was the shape?",
      options: ["red", "blue"],
      answer: "A",
      questionType: "mcq",
      metadata: { suiteVideo: "videos/v0001.mp4", ...(o.subtitles ? { subtitles: o.subtitles } : {}) },
    },
  });
  const model = await db().model.create({
    data: o.nano
      ? {
          projectId,
          name: "nano",
          kind: "NANO_CHECKPOINT",
          config: { checkpoint: path.join(await committedCheckpointsDir(), "default") },
        }
      : {
          projectId,
          name: "api",
          kind: "OPENAI_COMPATIBLE",
          config: { baseUrl: "http://127.0.0.1:9/v1", servedModel: "m" },
        },
  });
  const cfg = evalRunConfig.parse({
    group: { id: `g${Date.now()}`, name: "g" },
    modelId: model.id,
    datasetId: dataset.id,
    mode: "agentic_general",
    k: 4,
    knobs: o.knobs,
    sampleCount: 1,
    shardSize: 1,
  });
  const run = await db().run.create({
    data: {
      projectId,
      modelId: model.id,
      kind: "eval",
      jobName: "eval.run",
      name: "e",
      status: "SUCCEEDED",
      config: cfg,
    },
  });
  const input = sampleInput((await loadSample(sample.id))!, cfg);
  if ("error" in input) throw new Error(input.error);
  const engine = new RecordingEngine(o.nano ? "nano" : "generic");
  const result = await runSample(engine, input, new AbortController().signal);
  expect(result.status).toBe("OK");
  await evals.storeEpisode(run.id, {
    sampleId: sample.id,
    rolloutIndex: 0,
    modelId: model.id,
    k: 4,
    promptMode: "agentic_general",
    ...result,
  });
  const ep = await db().episode.findFirstOrThrow({ where: { runId: run.id } });
  return { access, engine, episodeId: ep.id, projectId, sampleId: sample.id };
}

function expectSent(engine: RecordingEngine, p: Awaited<ReturnType<typeof episodePrompts.episodePrompts>>) {
  if (!p.available) throw new Error(p.reason);
  const [first, ...rest] = engine.requests;
  const system = first!.messages.find((m) => m.role === "system");
  expect(system ? texts(system).join("") : null).toBe(p.system?.text ?? null);
  const user = first!.messages.find((m) => m.role === "user")!;
  const parts = typeof user.content === "string" ? [] : user.content;
  const firstFrame = parts.findIndex((x) => x.type === "frame");
  const lastFrame = parts.findLastIndex((x) => x.type === "frame");
  const join = (xs: typeof parts) => xs.map((x) => (x.type === "text" ? x.text : "")).join("");
  expect(join(parts.slice(0, Math.max(0, firstFrame - 1)))).toBe(p.user.before);
  expect(join(parts.slice(lastFrame + 1))).toBe(p.user.after);
  expect(p.user.frames).toBe(parts.filter((x) => x.type === "frame").length);
  const subs = rest.filter((r) => r.messages.length <= 2 && texts(r.messages.at(-1)).at(-1)?.includes("frames come"));
  expect(subs.length).toBeGreaterThan(0);
  expect(p.subAgents.map((s) => s.text)).toEqual(subs.map((r) => texts(r.messages.at(-1)).at(-1)));
  expect(p.subAgents.map((s) => s.system?.text ?? null)).toEqual(
    subs.map((r) => (r.messages[0]!.role === "system" ? texts(r.messages[0]).join("") : null)),
  );
  const final = engine.requests.filter((r) => r.maxTokens === 64).at(-1);
  if (p.finalAnswer) expect(texts(final!.messages.at(-1)).join("").endsWith(`\n${p.finalAnswer.text}`)).toBe(true);
}

describe("episode prompts of a stored episode", () => {
  it("a nano eval: the nano preset's texts, counted by the checkpoint's tokenizer", async () => {
    const { access, engine, episodeId } = await evalEpisode({
      nano: true,
      knobs: { dispatch: "subagent", maxTurns: 1, promptPreset: "nano" },
    });
    const p = await episodePrompts.episodePrompts(access, episodeId);
    expectSent(engine, p);
    if (!p.available) return;
    expect(p).toMatchObject({ runKind: "eval", preset: "nano", system: null, finalAnswer: null });
    expect(p.user.after).toBe("\nWhat color was the shape?\nA. red\nB. blue\nVideo path: videos/v0001.mp4");
    expect(p.tokenizer).toMatch(/^nano tokenizer v\d/);
    expect(p.user.count.unit).toBe("tokens");
    expect(p.user.count.value).toBeGreaterThan(0);
    expect(p.user.count.value).toBeLessThan(p.user.after.length);
  }, 60_000);

  it("an OpenAI-compatible eval: generic texts with overrides and subtitles, counted in characters", async () => {
    const subtitles = "1\n00:00:01,000 --> 00:00:02,000\nhello";
    const { access, engine, episodeId } = await evalEpisode({
      nano: false,
      subtitles,
      knobs: {
        dispatch: "subagent",
        maxTurns: 1,
        subtitles: true,
        prompts: { subAgentSystem: "Describe {length} of {video_name}." },
      },
    });
    const p = await episodePrompts.episodePrompts(access, episodeId);
    expectSent(engine, p);
    if (!p.available) return;
    expect(p).toMatchObject({ preset: "generic", tokenizer: null, overridden: ["subAgentSystem"] });
    expect(p.system!.count).toEqual({ value: p.system!.text.length, unit: "chars" });
    expect(p.user.after).toContain("Subtitles of the video:\n" + subtitles);
    expect(p.finalAnswer?.placement).toBe("appended");
  }, 60_000);

  it("an ingested run's episode has no known prompt, and says so", async () => {
    const { access, sampleId, projectId } = await evalEpisode({ nano: false, knobs: { maxTurns: 0 } });
    const run = await db().run.create({
      data: { projectId, kind: "rl", jobName: "external", name: "ext", status: "SUCCEEDED", config: {} },
    });
    const ep = await db().episode.create({
      data: { runId: run.id, sampleId, k: 4, promptMode: "agentic_general", finalText: "<answer>A</answer>" },
    });
    const p = await episodePrompts.episodePrompts(access, ep.id);
    expect(p).toEqual({ available: false, reason: expect.stringMatching(/ingested from a trainer outside/) });
  }, 60_000);
});
