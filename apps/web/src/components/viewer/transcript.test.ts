import type { EpisodePromptsOutput, EvalEpisodeOutput } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { buildTranscript, countLabel, transcriptJson, wholeText } from "./transcript";

type Turn = EvalEpisodeOutput["turns"][number];
type Call = Turn["toolCalls"][number];

const call = (index: number, over: Partial<Call> = {}): Call => ({
  index,
  name: "crop_video",
  arguments: { start_time: 1, end_time: 4 },
  startS: 1,
  endS: 4,
  clamped: false,
  frameTimestamps: [1, 2],
  subAgentOutput: `a red ball (${index})`,
  status: "OK",
  error: null,
  durationMs: 10,
  details: {
    response: `<tool_response>a red ball (${index})</tool_response>`,
    tokens: { prompt: 900, completion: 7, summary: 7 },
  },
  ...over,
});

const turn = (index: number, over: Partial<Turn> = {}): Turn => ({
  index,
  rawText: `turn ${index} text`,
  forcedPrefix: null,
  forcedFinal: false,
  parsedCalls: [],
  parseIssues: [],
  promptTokens: 1200,
  completionTokens: 40,
  timings: null,
  toolCalls: [],
  ...over,
});

const episode = (over: Partial<EvalEpisodeOutput> = {}): EvalEpisodeOutput => ({
  id: "ep1",
  run: { id: "r1", name: "run" },
  sample: {
    id: "s1",
    key: "k1",
    question: "What rolls?",
    options: ["a ball", "a cube"],
    answer: "A",
    questionType: "mcq",
    videoId: null,
    metadata: {},
  },
  rolloutIndex: 0,
  k: 8,
  promptMode: "agentic_general",
  status: "OK",
  error: null,
  finalText: "A",
  prediction: "A",
  score: 1,
  correct: true,
  toolCallCount: 2,
  overviewTimestamps: [],
  timings: null,
  tokenCounts: { mainPrompt: 2400, mainCompletion: 80, subAgentPrompt: 1800, subAgentCompletion: 14 },
  details: { promptPreset: "generic" },
  turns: [],
  createdAt: new Date(0),
  turnCount: 0,
  nextCursor: null,
  ...over,
});

describe("full transcript", () => {
  it("orders the question, each turn, and each call's arguments, sub-agent output and tool response", () => {
    const e = episode({
      turns: [turn(0, { toolCalls: [call(0), call(1)] }), turn(1, { forcedFinal: true })],
      turnCount: 2,
    });
    const s = buildTranscript(e, {
      available: false,
      reason: "This run was ingested from a trainer outside the workbench.",
    });
    expect(s.map((x) => x.id)).toEqual([
      "question",
      "turn-0",
      "turn-0.call-0.prompt",
      "turn-0.call-0.output",
      "turn-0.call-0.response",
      "turn-0.call-1.prompt",
      "turn-0.call-1.output",
      "turn-0.call-1.response",
      "turn-1",
    ]);
    expect(s.map((x) => x.role)).toEqual([
      "user",
      "assistant",
      "tool call",
      "sub-agent output",
      "tool",
      "tool call",
      "sub-agent output",
      "tool",
      "assistant",
    ]);
    expect(s[0]!.text).toBe("What rolls?\nA. a ball\nB. a cube");
    // An ingested run's prompts are not known: the reason is said, no prompt invented.
    expect(s[0]!.note).toContain("ingested from a trainer outside");
    expect(s[0]!.note).toContain("1,200 engine prompt tokens");
    expect(s[4]!.text).toBe("<tool_response>a red ball (0)</tool_response>");
    expect(s[8]!.title).toContain("forced final answer");
  });

  it("uses stored token counts and falls back to characters, never invented tokens", () => {
    const e = episode({
      turns: [
        turn(0, {
          toolCalls: [call(0), call(1, { details: { response: "frames at 1 s" }, subAgentOutput: null })],
        }),
        turn(1, { promptTokens: null, completionTokens: null, rawText: "12345" }),
      ],
      turnCount: 2,
    });
    const byId = new Map(buildTranscript(e).map((x) => [x.id, x]));
    expect(countLabel(byId.get("turn-0")!.counts)).toBe("40 completion tokens · 1,200 prompt tokens");
    expect(countLabel(byId.get("turn-0.call-0.output")!.counts)).toBe("7 completion tokens");
    expect(byId.get("turn-0.call-0.prompt")!.counts.map((c) => c.unit)).toEqual(["chars", "tokens"]);
    // Direct dispatch: no sub-agent output, no token counts stored for the call.
    expect(byId.has("turn-0.call-1.output")).toBe(false);
    expect(byId.get("turn-0.call-1.prompt")!.counts).toEqual([
      { value: JSON.stringify({ start_time: 1, end_time: 4 }).length, unit: "chars", what: "" },
    ]);
    expect(countLabel(byId.get("turn-0.call-1.response")!.counts)).toBe("13 chars");
    expect(countLabel(byId.get("turn-1")!.counts)).toBe("5 chars");
  });

  it("counts a preview by its stored length and names where its whole text is served", () => {
    const e = episode({
      turns: [
        turn(0, {
          completionTokens: null,
          rawText: "head … tail",
          clipped: { rawText: 100_000 },
          toolCalls: [call(0, { status: "REJECTED", details: null, subAgentOutput: null, error: "max_parallel" })],
        }),
      ],
      turnCount: 1,
    });
    const [, t0, , err] = buildTranscript(e);
    expect(t0!.clippedLength).toBe(100_000);
    expect(t0!.counts).toEqual([{ value: 100_000, unit: "chars", what: "" }]);
    expect(t0!.ref).toEqual({ field: "rawText", turn: 0 });
    expect(err!.title).toContain("error (rejected)");
    expect(err!.ref).toEqual({ field: "error", turn: 0, call: 0 });
  });

  it("reads a tool response out of its call's whole details JSON", () => {
    const e = episode({ turns: [turn(0, { toolCalls: [call(0, { clipped: { details: 90_000 } })] })], turnCount: 1 });
    const response = buildTranscript(e).find((x) => x.role === "tool")!;
    expect(response.ref).toEqual({ field: "details", turn: 0, call: 0, key: "response" });
    expect(wholeText(response, JSON.stringify({ response: "whole response", tokens: null }))).toBe("whole response");
    expect(wholeText(response, "not json")).toBe(response.text);
  });

  it("shows an imported row's final response when there are no turns", () => {
    const s = buildTranscript(episode({ finalText: "The answer is A" }));
    expect(s.map((x) => x.id)).toEqual(["question", "final"]);
  });

  it("copies one JSON entry per section, previews replaced by whole texts", () => {
    const e = episode({
      turns: [turn(0, { rawText: "head … tail", clipped: { rawText: 20 }, toolCalls: [call(0)] })],
      turnCount: 1,
    });
    const sections = buildTranscript(e);
    const json = transcriptJson(e, sections, new Map([["turn-0", "the whole twenty chr"]]));
    expect(json.sections).toHaveLength(sections.length);
    expect(json.sections[1]).toMatchObject({ id: "turn-0", text: "the whole twenty chr", preview: false });
    expect(transcriptJson(e, sections).sections[1]!.preview).toBe(true);
    expect(JSON.parse(JSON.stringify(json)).tokenCounts.subAgentCompletion).toBe(14);
  });

  it("shows the rendered system, user, final-answer and sub-agent prompts, with their counts, and copies them", () => {
    const prompts: EpisodePromptsOutput = {
      available: true,
      source: "rendered",
      runKind: "eval",
      preset: "generic",
      mode: "agentic_general",
      requestStyle: "workbench",
      overridden: ["subAgentSystem"],
      tokenizer: null,
      system: { text: "You answer questions about a video.", count: { value: 35, unit: "chars" } },
      user: { before: "", after: "\nWhat rolls?\nVideo path: v.mp4", frames: 8, count: { value: 30, unit: "chars" } },
      finalAnswer: { text: "Give your final answer now.", count: { value: 27, unit: "chars" }, placement: "appended" },
      subAgents: [
        {
          turn: 0,
          call: 1,
          system: { text: "Describe 3 seconds.", count: { value: 19, unit: "chars" } },
          text: "\nThese 2 frames come from 00:01 to 00:04",
          frames: 2,
          count: { value: 40, unit: "chars" },
        },
      ],
      subAgentsLeftOut: 0,
    };
    const e = episode({
      turns: [turn(0, { toolCalls: [call(0), call(1)] }), turn(1, { forcedFinal: true })],
      turnCount: 2,
    });
    const s = buildTranscript(e, prompts);
    const byId = new Map(s.map((x) => [x.id, x]));
    expect(s.map((x) => x.id).slice(0, 3)).toEqual(["system", "question", "turn-0"]);
    expect(byId.get("system")).toMatchObject({ role: "system", text: "You answer questions about a video." });
    expect(byId.get("system")!.note).toContain('"generic" preset');
    expect(byId.get("question")!.text).toBe(
      "[8 overview frames, each after its <t seconds> text]\nWhat rolls?\nVideo path: v.mp4",
    );
    expect(countLabel(byId.get("question")!.counts)).toBe("30 chars · 1,200 engine prompt tokens");
    // The sub-agent prompt follows its call's arguments; a call without one has none.
    const ids = s.map((x) => x.id);
    expect(ids.indexOf("turn-0.call-1.subagent")).toBe(ids.indexOf("turn-0.call-1.prompt") + 1);
    expect(byId.has("turn-0.call-0.subagent")).toBe(false);
    expect(byId.get("turn-0.call-1.subagent")!.text).toBe(
      "Describe 3 seconds.\n\n[2 window frames, each after its <t seconds> text]\nThese 2 frames come from 00:01 to 00:04",
    );
    // The final-answer request comes right before the forced final turn.
    expect(ids.indexOf("turn-1.final-request")).toBe(ids.indexOf("turn-1") - 1);
    const json = transcriptJson(e, s, new Map(), prompts);
    expect(json.prompts).toMatchObject({ rendered: true, preset: "generic" });
    expect(json.sections.find((x) => x.id === "system")!.text).toBe("You answer questions about a video.");
    expect(
      transcriptJson(e, buildTranscript(e, { available: false, reason: "no" }), new Map(), {
        available: false,
        reason: "no",
      }).prompts,
    ).toEqual({ rendered: false, reason: "no" });
  });

  it("nano tokenizer counts are labelled as tokens of the text", () => {
    const s = buildTranscript(episode(), {
      available: true,
      source: "rendered",
      runKind: "rl",
      preset: "nano",
      mode: "agentic_general",
      requestStyle: "workbench",
      overridden: [],
      tokenizer: "nano tokenizer v2",
      system: null,
      user: { before: "", after: "\nq", frames: 4, count: { value: 2, unit: "tokens" } },
      finalAnswer: null,
      subAgents: [],
      subAgentsLeftOut: 0,
    });
    expect(s[0]!.id).toBe("question");
    expect(countLabel(s[0]!.counts)).toBe("2 text tokens");
    expect(s[0]!.note).toContain("No system prompt is sent");
  });
});
