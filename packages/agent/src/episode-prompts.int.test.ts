// The prompts the workbench's transcript renders for a stored episode (episode-prompts.ts) are
// byte for byte what a real runEpisode call sent: the messages a scripted engine received are
// compared with the renderer's output, built only from what the trajectory stores (duration,
// each call's clamped window and frame times) and the run's knobs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMainPrompt, renderSubAgentPrompt, videoNameOf, withOptions } from "./episode-prompts";
import { videoFrameSampler } from "./frame-sampler";
import type { EvalKnobsInput } from "./knobs";
import { runEpisode, type EpisodeInput } from "./runner";
import { call, ScriptedEngine, writeTinySuite } from "./test-support";
import type { Trajectory } from "./trajectory";
import type { ChatMessage, CompletionRequest, PromptPresetName } from "./types";

let suite: Awaited<ReturnType<typeof writeTinySuite>>;
const sampler = videoFrameSampler({ maxErrorS: 0 });

beforeAll(async () => {
  suite = await writeTinySuite();
});
afterAll(async () => suite?.cleanup());

/** The text parts of a message, in order ("" parts kept), frames left out. */
function textParts(m: ChatMessage | undefined): string[] {
  if (!m) return [];
  return typeof m.content === "string" ? [m.content] : m.content.flatMap((p) => (p.type === "text" ? [p.text] : []));
}

/** The text parts of the first user turn before the first frame and after the last one. */
function aroundFrames(m: ChatMessage): { before: string; after: string } {
  if (typeof m.content === "string") return { before: "", after: m.content };
  const first = m.content.findIndex((p) => p.type === "frame");
  const last = m.content.findLastIndex((p) => p.type === "frame");
  const text = (parts: typeof m.content) => parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  // Each frame's own `<t seconds>` part precedes it: the text before the first frame minus that one.
  const before = m.content.slice(0, Math.max(0, first - 1));
  return { before: text(before), after: text(m.content.slice(last + 1)) };
}

async function run(o: {
  config: EvalKnobsInput;
  input: EpisodeInput;
  preset?: PromptPresetName;
}): Promise<{ t: Trajectory; main: CompletionRequest[]; sub: CompletionRequest[] }> {
  // Turn 1 calls two windows (one past the end, clamped), turn 2 calls again, turn 3 is forced final.
  const engine = new ScriptedEngine(
    (_, n) => (n < 2 ? `<think>look</think>\n${call(5, 12)}\n${call(40, 99)}` : "<answer>B</answer>"),
    o.preset ? { promptPreset: o.preset } : {},
  );
  const sub = new ScriptedEngine(() => "a red circle at 00:07");
  const t = await runEpisode({ engine, subAgentEngine: sub, input: o.input, config: o.config, frames: sampler });
  return { t, main: engine.requests, sub: sub.requests };
}

function expectRendered(
  r: Awaited<ReturnType<typeof run>>,
  o: { config: EvalKnobsInput; input: EpisodeInput; preset: PromptPresetName },
) {
  const { t } = r;
  expect(t.status).toBe("ok");
  const rendered = renderMainPrompt({
    mode: t.mode,
    preset: t.promptPreset as PromptPresetName,
    requestStyle: o.config.requestStyle ?? "workbench",
    prompts: o.config.prompts,
    question: o.input.question,
    questionType: t.questionType,
    subtitles: o.input.subtitles,
    videoPath: o.input.video.path!,
    duration: t.duration,
    k: t.k,
    maxTurns: o.config.maxTurns ?? 3,
    maxParallel: o.config.maxParallel ?? 5,
  });
  const first = r.main[0]!.messages;
  const system = first.find((m) => m.role === "system");
  expect(system ? textParts(system).join("") : null).toBe(rendered.system);
  const user = first.find((m) => m.role === "user")!;
  expect(aroundFrames(user)).toEqual({ before: rendered.userBefore, after: rendered.userAfter });

  // The forced final turn: the nudge appended to the last user turn, or its own user turn.
  const final = r.main.at(-1)!.messages;
  expect(t.turns.at(-1)!.forcedFinal).toBe(true);
  if (rendered.finalAnswerPlacement === "own_turn") {
    expect(final.at(-1)).toEqual({ role: "user", content: rendered.finalAnswer });
  } else if (rendered.finalAnswer !== "") {
    // withFinalAnswerNudge: on a new line after the last user turn's text.
    const last = textParts(final.at(-1)).join("");
    expect(last.endsWith(`\n${rendered.finalAnswer}`)).toBe(true);
    expect(textParts(r.main.at(-2)!.messages.at(-1)).join("").includes(rendered.finalAnswer)).toBe(false);
  }

  // Every sub-agent request, in call order, from the stored windows.
  const windows = t.turns.flatMap((turn) => turn.toolCalls.filter((c) => c.status === "OK"));
  const subExpected = windows.map((c) =>
    renderSubAgentPrompt(
      rendered.texts,
      { startS: c.startS!, endS: c.endS!, frameTimestamps: c.frameTimestamps },
      { question: o.input.question, videoPath: o.input.video.path!, videoName: videoNameOf(o.input.video.path!) },
    ),
  );
  if (t.dispatch !== "subagent") return;
  expect(r.sub).toHaveLength(subExpected.length);
  expect(windows.some((c) => c.clamped)).toBe(true);
  r.sub.forEach((req, i) => {
    const system = req.messages.find((m) => m.role === "system");
    expect(system ? textParts(system).join("") : null).toBe(subExpected[i]!.system);
    expect(textParts(req.messages.find((m) => m.role === "user")).at(-1)).toBe(subExpected[i]!.text);
  });
}

describe("episode prompts: the renderer equals what runEpisode sent", () => {
  const input = (): EpisodeInput => ({
    video: { file: `${suite.dir}/videos/v0001.mp4`, path: "videos/v0001.mp4" },
    question: withOptions("What color was the shape?", ["red", "blue", "green", "white"]),
    questionType: "mcq",
  });

  it("generic preset, agentic_general, sub-agents, subtitles and overridden texts", async () => {
    const o = {
      preset: "generic" as const,
      input: { ...input(), subtitles: "1\n00:00:01,000 --> 00:00:02,000\nhello" },
      config: {
        mode: "agentic_general" as const,
        dispatch: "subagent" as const,
        k: 8,
        maxTurns: 2,
        maxParallel: 4,
        prompts: {
          subAgentSystem: "You describe {length} of {video_name} ({frame_count} frames).",
          finalAnswer: "Answer now ({max_turns} rounds used). {answer_format}",
        },
      },
    };
    expectRendered(await run(o), o);
  });

  it("generic preset with the frames in the middle of the user text", async () => {
    const o = {
      preset: "generic" as const,
      input: { ...input(), questionType: "tvg" as const },
      config: {
        mode: "agentic_minimal" as const,
        dispatch: "subagent" as const,
        k: 4,
        maxTurns: 2,
        prompts: { user: "Video {video_name}, {duration} s:\n{frames}\n{question} {answer_format}" },
      },
    };
    expectRendered(await run(o), o);
  });

  it("nano preset (the RL rollouts' and nano evals' texts), think prefix", async () => {
    const o = {
      preset: "nano" as const,
      input: input(),
      config: { mode: "agentic_general" as const, dispatch: "subagent" as const, k: 8, maxTurns: 2, thinkPrefix: true },
    };
    expectRendered(await run({ ...o, preset: "nano" }), o);
  });

  it("the reference request style", async () => {
    const o = {
      preset: "generic" as const,
      input: input(),
      config: {
        mode: "agentic_general" as const,
        dispatch: "evaluator" as const,
        requestStyle: "reference" as const,
        k: 4,
        maxTurns: 2,
      },
    };
    expectRendered(await run(o), o);
  });

  it("a template naming a count the run did not record cannot be rendered (no made-up number)", () => {
    const base = {
      mode: "agentic_general" as const,
      preset: "generic" as const,
      requestStyle: "workbench" as const,
      question: "q",
      questionType: "mcq" as const,
      videoPath: "a/b.mp4",
      duration: 10,
      k: 4,
      maxTurns: null,
      maxParallel: null,
    };
    expect(() => renderMainPrompt(base)).toThrow(/max_parallel/);
    expect(renderMainPrompt({ ...base, preset: "nano" }).userAfter).toBe("\nq\nVideo path: a/b.mp4");
    expect(videoNameOf("a/b.mp4")).toBe("b.mp4");
    expect(videoNameOf("b.mp4/")).toBe("b.mp4");
  });
});
