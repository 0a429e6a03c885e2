import { cropTimestamps } from "@paravt/video/sampling";
import { mainPrompt, subAgentPrompt, planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { EvalKnobsSchema, LOCKED_PROTOCOL, parseEvalKnobs } from "./knobs";
import {
  formatSeconds,
  mmss,
  presetTexts,
  PROMPT_MODES,
  PromptOverridesSchema,
  resolvePromptTexts,
  splitAtFrames,
  subAgentValues,
} from "./prompts";
import { fillTemplate, placeholdersOf } from "./template";
import { TINY_SUITE } from "./test-support";

describe("eval knobs (SPEC §5)", () => {
  it("defaults to the locked protocol", () => {
    expect(LOCKED_PROTOCOL).toMatchObject({
      k: 64,
      temperature: 0,
      maxTokens: 2048,
      maxTurns: 3,
      maxParallel: 5,
      finalAnswerMaxTokens: { mcq: 64, tvg: 128 },
      summaryMaxTokens: 512,
      mode: "agentic_general",
      toolParser: "eval",
      dispatch: "evaluator",
    });
    // A caller naming no dispatch gets training's (SPEC §1); evaluations pass theirs.
    expect(parseEvalKnobs({}).dispatch).toBe("subagent");
  });

  it("takes a reference run with an empty override set, as a launch does", () => {
    const knobs = { requestStyle: "reference", dispatch: "evaluator", prompts: {} };
    expect(parseEvalKnobs(knobs).prompts).toEqual({});
  });

  it("names every bad field and refuses unknown ones", () => {
    const e = (() => {
      try {
        parseEvalKnobs({ k: 0, temperature: -1, maxTurn: 3 });
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    })();
    expect(e).toMatch(/Unrecognized key: "maxTurn"/);
    expect(e).toMatch(/at k\b/);
    expect(e).toMatch(/at temperature/);
    expect(EvalKnobsSchema.safeParse({ mode: "agentic" }).success).toBe(false);
    expect(parseEvalKnobs({ finalAnswerMaxTokens: { mcq: 32 } }).finalAnswerMaxTokens).toEqual({
      mcq: 32,
      tvg: 128,
      oe: 128,
    });
  });
});

describe("prompt templates", () => {
  it("the nano preset's sub-agent prompt is the suite's subAgentPrompt, word for word", () => {
    const plan = planSuite(TINY_SUITE);
    const samples = plan.oracle.flatMap((r) => r.subAgents);
    expect(samples.length).toBeGreaterThan(5);
    const texts = presetTexts("nano", "agentic_general");
    for (const s of samples) {
      const times = s.timestamps;
      const ctx = { question: "", videoPath: s.video, videoName: "" };
      expect(fillTemplate(texts.subAgent, subAgentValues(s.start, s.end, times, ctx))).toBe(
        subAgentPrompt({ start: s.start, end: s.end }, times.length),
      );
    }
    // The edge cases the oracle may not produce: one frame / one second.
    expect(
      fillTemplate(texts.subAgent, subAgentValues(5, 6, [5], { question: "", videoPath: "", videoName: "" })),
    ).toBe(subAgentPrompt({ start: 5, end: 6 }, 1));
  });

  it("the nano preset's agentic user prompt is the suite's mainPrompt with <video> = the frames", () => {
    const q = planSuite(TINY_SUITE).questions[0]!;
    const texts = presetTexts("nano", "agentic_general");
    const values = { question: q.question, video_path: q.video };
    const { before, after } = splitAtFrames(texts.user, {
      ...values,
      video_name: "",
      subtitles: "",
      duration: "",
      k: "",
      max_turns: "",
      max_parallel: "",
      answer_format: "",
    });
    expect(`${before}<video>${after}`).toBe(mainPrompt(q));
  });

  it("windows longer than 16 s state their real sampling rate", () => {
    const times = cropTimestamps(0, 40, 100);
    const v = subAgentValues(0, 40, times, { question: "", videoPath: "", videoName: "" });
    expect(v).toMatchObject({
      rate: "one frame every 2.5 seconds",
      length: "40 seconds",
      frames_intro: "These 16 frames come",
    });
    expect(
      subAgentValues(60.5, 71, cropTimestamps(60.5, 71, 100), { question: "", videoPath: "", videoName: "" }),
    ).toMatchObject({
      start: "01:00",
      end: "01:11",
      length: "10.5 seconds",
      rate: "one frame per second",
    });
    expect([formatSeconds(3), formatSeconds(2.25), formatSeconds(12.3 - 2.1), mmss(3725)]).toEqual([
      "3",
      "2.3",
      "10.2",
      "62:05",
    ]);
  });

  it("every preset text uses known placeholders only, and overrides are validated by name", () => {
    for (const preset of ["generic", "nano"] as const) {
      for (const mode of PROMPT_MODES)
        expect(PromptOverridesSchema.safeParse(presetTexts(preset, mode)).success).toBe(true);
    }
    const r = PromptOverridesSchema.safeParse({ user: "{frames}{question} {video}", subAgent: "{start}-{ends}" });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message).join("\n");
    expect(messages).toMatch(
      /unknown placeholder \{video\} in the user template; known placeholders: \{question\}, \{video_path\}/,
    );
    expect(messages).toMatch(/unknown placeholder \{ends\} in the subAgent template/);
    expect(PromptOverridesSchema.safeParse({ user: "{frames}{frames}" }).success).toBe(false);
    expect(PromptOverridesSchema.safeParse({ usr: "x" }).success).toBe(false);
    // JSON in a template is literal text, not a placeholder.
    expect(placeholdersOf('{"name": "crop_video", "arguments": {}} {k}')).toEqual(["k"]);
    const t = resolvePromptTexts("generic", "agentic_minimal", { system: "" });
    expect(t.system).toBe("");
    expect(t.user).toContain("{video_path}");
  });

  it("agentic modes append the video path, single-pass modes do not (SPEC §5)", () => {
    for (const preset of ["generic", "nano"] as const) {
      expect(presetTexts(preset, "agentic_general").user).toContain("Video path: {video_path}");
      expect(presetTexts(preset, "agentic_minimal").user).toContain("Video path: {video_path}");
      expect(presetTexts(preset, "direct").user).not.toContain("{video_path}");
      expect(presetTexts(preset, "reasoning").user).not.toContain("{video_path}");
    }
  });
});
