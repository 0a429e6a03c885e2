// The runner's dispatch logic on a real suite video (real decoding through @paravt/video), with
// scripted policies as engines.
import { cropTimestamps, overviewTimestamps } from "@paravt/video/sampling";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoFrameSampler, type FrameSampler } from "./frame-sampler";
import { runEpisode, type EpisodeInput } from "./runner";
import { scoreEpisode } from "./scoring";
import { charsTokenCounter } from "./token-counter";
import { TrajectorySchema } from "./trajectory";
import { call, measuredSampler, ScriptedEngine, textOf, writeTinySuite } from "./test-support";
import { EngineError, type CompletionRequest } from "./types";

let suite: Awaited<ReturnType<typeof writeTinySuite>>;
let input: EpisodeInput;
const sampler: FrameSampler = videoFrameSampler({ maxErrorS: 0 });
const DURATION = 64;

beforeAll(async () => {
  suite = await writeTinySuite();
  input = {
    video: { file: `${suite.dir}/videos/v0001.mp4`, path: "videos/v0001.mp4" },
    question: "What color was the shape?\nA. red\nB. blue\nC. green\nD. white",
    questionType: "mcq",
  };
});
afterAll(async () => suite?.cleanup());

const summaries = () =>
  new ScriptedEngine(
    (r) =>
      `summary of ${/from (\d\d:\d\d) to (\d\d:\d\d)/
        .exec(textOf(r.messages.at(-1)))
        ?.slice(1)
        .join("-")}`,
    { description: "sub" },
  );

describe("runEpisode: subagent dispatch", () => {
  it("dispatches a turn's calls concurrently, rejects calls past max_parallel, and reports bad windows per call", async () => {
    const turn1 = [
      call(10, 14), // ok
      call(20, 20), // start >= end
      call(70, 80), // start >= duration
      call(60, 99), // end clamped to 64
      call(1, 3, "zoom_video"), // unknown tool
      call(30, 32), // 6th: rejected (max_parallel 5)
    ].join("\n");
    const main = new ScriptedEngine((_r, i) => (i === 0 ? `<think>\nlook\n</think>\n${turn1}` : "<answer>B</answer>"));
    const sub = summaries();
    const frames = measuredSampler(sampler);
    const t = await runEpisode({ engine: main, subAgentEngine: sub, input, frames, config: { k: 8 } });

    expect(t.status).toBe("ok");
    expect(t.overviewTimestamps).toEqual(overviewTimestamps(DURATION, 8));
    expect(t.turns).toHaveLength(2);
    const calls = t.turns[0]!.toolCalls;
    expect(calls.map((c) => c.status)).toEqual(["OK", "ERROR", "ERROR", "OK", "ERROR", "REJECTED"]);
    expect(calls[0]).toMatchObject({ startS: 10, endS: 14, clamped: false, subAgentOutput: "summary of 00:10-00:14" });
    expect(calls[0]!.frameTimestamps).toEqual(cropTimestamps(10, 14, DURATION));
    expect(calls[0]!.frameSourceTimes).toHaveLength(4);
    expect(calls[1]!.error).toMatch(/start must be before end/);
    expect(calls[2]!.error).toMatch(/start is at or past the end of the video/);
    expect(calls[3]).toMatchObject({ requestedEndS: 99, startS: 60, endS: 64, clamped: true });
    expect(calls[3]!.frameTimestamps).toEqual([60, 61, 62, 63]);
    expect(calls[4]!.error).toMatch(/Unknown tool "zoom_video"/);
    expect(calls[5]).toMatchObject({ response: null, status: "REJECTED" });
    expect(calls[5]!.error).toMatch(/at most 5 calls/);
    expect(calls[5]).toMatchObject({ name: "crop_video", requestedStartS: 30, requestedEndS: 32, frameTimestamps: [] });
    expect(t.toolCallCount).toBe(5);

    // The two valid crops ran at the same time, and their sub-agents went to the engine in ONE call.
    expect(frames.crops).toBe(2);
    expect(frames.peak).toBe(2);
    expect(sub.batches.map((b) => b.length)).toEqual([2]);
    // SPEC §1.4: the sub-agent prompt states the window (MM:SS) and its length.
    expect(textOf(sub.batches[0]![1]!.messages[0])).toContain(
      "These 4 frames come from 01:00 to 01:04 of a video (4 seconds",
    );

    // SPEC §1.5: one user turn, responses in call order, rejected call absent.
    const next = main.batches[1]![0]!.messages;
    expect(next.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    const responses = textOf(next[3]).split("\n</tool_response>\n<tool_response>\n");
    expect(responses).toHaveLength(5);
    expect(textOf(next[3])).toMatch(
      /^<tool_response>\nsummary of 00:10-00:14\n<\/tool_response>\n<tool_response>\nError: Invalid crop window/,
    );
    expect(textOf(next[3])).toContain("<tool_response>\nsummary of 01:00-01:04\n</tool_response>");
    expect(textOf(next[2])).toBe(`<think>\nlook\n</think>\n${turn1}`);

    expect(t.prediction).toBe("B");
    expect(scoreEpisode(t, { questionType: "mcq", answer: "B" })).toMatchObject({ correct: true, score: 1 });
    expect(TrajectorySchema.parse(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  it("bounds concurrent crops by `concurrency`", async () => {
    const five = [0, 10, 20, 30, 40].map((s) => call(s, s + 2)).join("\n");
    const main = new ScriptedEngine((_r, i) => (i === 0 ? five : "<answer>A</answer>"));
    const frames = measuredSampler(sampler);
    const t = await runEpisode({
      engine: main,
      subAgentEngine: summaries(),
      input,
      frames,
      config: { k: 4, concurrency: 2 },
    });
    expect(t.turns[0]!.toolCalls.every((c) => c.status === "OK")).toBe(true);
    expect(frames.crops).toBe(5);
    expect(frames.peak).toBe(2);
  });

  it("truncates long summaries to summaryMaxTokens with ' [truncated]' (SPEC §1.5)", async () => {
    const long = "word ".repeat(600); // 3000 chars = 750 chars/4 tokens
    const main = new ScriptedEngine((_r, i) => (i === 0 ? `${call(0, 5)}\n${call(5, 6)}` : "<answer>A</answer>"));
    const sub = new ScriptedEngine((r) => (textOf(r.messages[0]).includes("00:00 to 00:05") ? long : "short"));
    const t = await runEpisode({
      engine: main,
      subAgentEngine: sub,
      input,
      frames: sampler,
      tokenCounter: charsTokenCounter(),
      config: { k: 4 },
    });
    const [a, b] = t.turns[0]!.toolCalls;
    expect(a).toMatchObject({ truncated: true, subAgentOutput: long });
    expect(a!.response).toBe(long.slice(0, 2048) + " [truncated]");
    expect(a!.tokens!.summary).toBe(750);
    expect(b).toMatchObject({ truncated: false, response: "short" });
    expect(textOf(main.batches[1]![0]!.messages.at(-1))).toContain(
      `${long.slice(0, 2048)} [truncated]\n</tool_response>`,
    );
    // A one-frame window says so (suite wording).
    expect(textOf(sub.batches[0]![1]!.messages[0])).toContain(
      "This frame comes from 00:05 to 00:06 of a video (1 second, one frame per second)",
    );
  });

  it("asks once more for a final answer after max_turns rounds, with the small budget (SPEC §5)", async () => {
    const main = new ScriptedEngine((_r, i) => `<think>\nround ${i}\n</think>\n${call(i, i + 2)}`);
    const t = await runEpisode({
      engine: main,
      subAgentEngine: summaries(),
      input: { ...input, questionType: "tvg" },
      frames: sampler,
      config: { k: 4 },
    });
    expect(t.status).toBe("ok");
    expect(t.turns.map((x) => [x.forcedFinal, x.maxTokens, x.toolCalls.length])).toEqual([
      [false, 2048, 1],
      [false, 2048, 1],
      [false, 2048, 1],
      [true, 128, 0],
    ]);
    expect(t.turns[3]!.parseIssues.join()).toMatch(/no tool round left \(max_turns = 3\)/);
    const last = main.batches[3]![0]!;
    expect(last.maxTokens).toBe(128);
    expect(textOf(last.messages.at(-1))).toMatch(
      /<\/tool_response>\nYou have used all your rounds of tool calls\..*start and end time/s,
    );
    // MCQ: 64 tokens; the nano preset adds no nudge (its training data never has one).
    const nano = new ScriptedEngine((_r, i) => call(i, i + 2), { promptPreset: "nano" });
    const t2 = await runEpisode({
      engine: nano,
      subAgentEngine: summaries(),
      input,
      frames: sampler,
      config: { k: 4, maxTurns: 1 },
    });
    expect(t2.turns.map((x) => x.maxTokens)).toEqual([2048, 64]);
    expect(textOf(nano.batches[1]![0]!.messages.at(-1))).toMatch(/<\/tool_response>$/);
  });

  it("an engine failure of the main agent ends the episode with status error, never an answer", async () => {
    const main = new ScriptedEngine((_r, i) =>
      i === 0 ? call(0, 4) : new EngineError("network", "cannot reach http://127.0.0.1:9: ECONNREFUSED", true),
    );
    const t = await runEpisode({ engine: main, subAgentEngine: summaries(), input, frames: sampler, config: { k: 4 } });
    expect(t).toMatchObject({ status: "error", prediction: "", finalText: "" });
    expect(t.error).toEqual({
      kind: "network",
      stage: "main_agent",
      message: "cannot reach http://127.0.0.1:9: ECONNREFUSED",
      turn: 1,
    });
    expect(t.turns).toHaveLength(1);
    expect(scoreEpisode(t, { questionType: "mcq", answer: "A" })).toEqual({
      status: "error",
      prediction: "",
      correct: null,
      score: null,
      iou: null,
    });
    expect(TrajectorySchema.parse(t)).toEqual(t);
  });

  it("a sub-agent failure is an error text for its call only; fail_episode stops the episode", async () => {
    const main = () =>
      new ScriptedEngine((_r, i) => (i === 0 ? `${call(0, 2)}\n${call(10, 12)}` : "<answer>C</answer>"));
    // The engine rejects batches holding the 00:10 window: the runner retries each request alone.
    const sub = () =>
      new ScriptedEngine((r) =>
        textOf(r.messages[0]).includes("00:10") ? new EngineError("http", "HTTP 400: prompt too long", false) : "fine",
      );
    const s1 = sub();
    const t = await runEpisode({ engine: main(), subAgentEngine: s1, input, frames: sampler, config: { k: 4 } });
    expect(t.status).toBe("ok");
    expect(t.turns[0]!.toolCalls.map((c) => [c.status, c.response])).toEqual([
      ["OK", "fine"],
      ["ERROR", "Error: the sub-agent failed (http): HTTP 400: prompt too long"],
    ]);
    expect(s1.batches.map((b) => b.length)).toEqual([2, 1, 1]);
    const t2 = await runEpisode({
      engine: main(),
      subAgentEngine: sub(),
      input,
      frames: sampler,
      config: { k: 4, subAgentFailure: "fail_episode" },
    });
    expect(t2).toMatchObject({ status: "error", error: { kind: "http", stage: "sub_agent", turn: 0 } });
  });

  it("a transient sub-agent failure is not retried per call", async () => {
    const main = new ScriptedEngine((_r, i) => (i === 0 ? `${call(0, 2)}\n${call(10, 12)}` : "<answer>C</answer>"));
    const sub = new ScriptedEngine(() => new EngineError("timeout", "no answer within 10 ms", true));
    const t = await runEpisode({ engine: main, subAgentEngine: sub, input, frames: sampler, config: { k: 4 } });
    expect(t.turns[0]!.toolCalls.map((c) => c.status)).toEqual(["ERROR", "ERROR"]);
    expect(sub.batches.map((b) => b.length)).toEqual([2]);
  });
});

describe("runEpisode: other modes and styles", () => {
  it("evaluator style: each crop's frames go back to the main agent, then a text tool response (SPEC §5)", async () => {
    const main = new ScriptedEngine((_r, i) => (i === 0 ? `${call(8, 11)}\n${call(5, 4)}` : "<answer>D</answer>"));
    const t = await runEpisode({ engine: main, input, frames: sampler, config: { k: 4, dispatch: "evaluator" } });
    expect(t.subAgentEngine).toBeNull();
    const [ok, bad] = t.turns[0]!.toolCalls;
    expect(ok).toMatchObject({
      status: "OK",
      subAgentOutput: null,
      response: "crop_video returned 3 frames from 8 s to 11 s (shown above).",
    });
    expect(bad!.status).toBe("ERROR");
    const msgs = main.batches[1]![0]!.messages;
    expect(msgs.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "user"]);
    const parts = msgs[3]!.content as Exclude<CompletionRequest["messages"][number]["content"], string>;
    expect(parts.map((p) => (p.type === "text" ? p.text : p.type === "frame" ? `[frame ${p.t}]` : p.url))).toEqual([
      "<8.0 seconds>",
      "[frame 8]",
      "<9.0 seconds>",
      "[frame 9]",
      "<10.0 seconds>",
      "[frame 10]",
      "\n<tool_response>\ncrop_video returned 3 frames from 8 s to 11 s (shown above).\n</tool_response>",
    ]);
    expect(textOf(msgs[4])).toMatch(/^<tool_response>\nError: Invalid crop window 5\.0s–4\.0s/);
  });

  it("non-agentic modes are a single pass: a call in the text is recorded, not dispatched", async () => {
    const main = new ScriptedEngine(() => `${call(0, 4)}\n<answer>A</answer>`);
    const frames = measuredSampler(sampler);
    const t = await runEpisode({ engine: main, input, frames, config: { k: 4, mode: "direct" } });
    expect(t.turns).toHaveLength(1);
    expect(t.turns[0]!.parsedCalls).toHaveLength(1);
    expect(t.turns[0]!.toolCalls).toEqual([]);
    expect(t.turns[0]!.parseIssues.join()).toMatch(/single pass/);
    expect(frames.crops).toBe(0);
    expect(main.batches[0]![0]!.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("renders the overview as `<t seconds>` + frame pairs, forces the think prefix, and keeps it in the history", async () => {
    const main = new ScriptedEngine((_r, i) =>
      i === 0 ? `x\n</think>\n${call(0, 1)}` : "y\n</think>\n<answer>A</answer>",
    );
    const t = await runEpisode({
      engine: main,
      subAgentEngine: summaries(),
      input: { ...input, subtitles: "1\n00:00:01,000 --> 00:00:02,000\nhello" },
      frames: sampler,
      config: { k: 4, thinkPrefix: true, promptPreset: "nano" },
    });
    const first = main.batches[0]![0]!;
    expect(first.forcedPrefix).toBe("<think>\n");
    const parts = first.messages[0]!.content as Exclude<CompletionRequest["messages"][number]["content"], string>;
    expect(parts.filter((p) => p.type === "frame").map((p) => p.t)).toEqual([0, 16, 32, 48]);
    expect(parts.map((p) => (p.type === "text" ? p.text : "F")).slice(0, 8)).toEqual([
      "<0.0 seconds>",
      "F",
      "<16.0 seconds>",
      "F",
      "<32.0 seconds>",
      "F",
      "<48.0 seconds>",
      "F",
    ]);
    expect(textOf(first.messages[0])).toMatch(
      /<48\.0 seconds>\nSubtitles of the video:\n1\n00:00:01,000 --> 00:00:02,000\nhello\n\nWhat color was the shape\?\nA\. red\nB\. blue\nC\. green\nD\. white\nVideo path: videos\/v0001\.mp4$/,
    );
    expect(textOf(main.batches[1]![0]!.messages[1])).toBe(`<think>\nx\n</think>\n${call(0, 1)}`);
    expect(t.turns.map((x) => x.forcedPrefix)).toEqual(["<think>\n", "<think>\n"]);
  });

  it("the training parser reads Python-style positional calls (SPEC §4)", async () => {
    const text = '<tool_code>crop_video("videos/v0001.mp4", 2, 6)</tool_code>';
    const main = () => new ScriptedEngine((_r, i) => (i === 0 ? text : "<answer>A</answer>"));
    const eval_ = await runEpisode({
      engine: main(),
      subAgentEngine: summaries(),
      input,
      frames: sampler,
      config: { k: 4 },
    });
    // The evaluation parser only reads k=v arguments: no readable argument, no call.
    expect(eval_.turns[0]!.toolCalls).toEqual([]);
    const training = await runEpisode({
      engine: main(),
      subAgentEngine: summaries(),
      input,
      frames: sampler,
      config: { k: 4, toolParser: "training" },
    });
    expect(training.turns[0]!.toolCalls[0]).toMatchObject({ status: "OK", startS: 2, endS: 6 });
  });

  it("an unreadable video is a frames error; an aborted episode is cancelled; bad knobs throw", async () => {
    const main = new ScriptedEngine(() => "<answer>A</answer>");
    const t = await runEpisode({
      engine: main,
      input: { ...input, video: { file: `${suite.dir}/nope.mp4` } },
      frames: sampler,
    });
    expect(t).toMatchObject({ status: "error", error: { kind: "video", stage: "frames" } });
    expect(main.batches).toHaveLength(0);

    const ac = new AbortController();
    const slow = new ScriptedEngine((_r, i) => {
      if (i === 0) ac.abort();
      return call(0, 2);
    });
    const c = await runEpisode({ engine: slow, input, frames: sampler, config: { k: 4 }, signal: ac.signal });
    expect(c).toMatchObject({ status: "error", error: { kind: "cancelled" } });

    await expect(runEpisode({ engine: main, input, frames: sampler, config: { k: 0 } })).rejects.toThrow(/k/);
    await expect(
      runEpisode({
        engine: main,
        input,
        frames: sampler,
        config: { prompts: { user: "{frames} {question} {qestion}" } },
      }),
    ).rejects.toThrow(/unknown placeholder \{qestion\} in the user template/);
  });
});
