import { describe, expect, it } from "vitest";
import {
  computeReward,
  DEFAULT_REWARD_CONFIG,
  isDegenerate,
  judgePrompt,
  judgeQuestion,
  judgeRequest,
  PARA_GRPO,
  parseJudgeReply,
  VANILLA_GRPO,
} from "./reward";

const FULL =
  "<think>I will crop the video now.</think>" +
  '<tool_call>{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": 1, "end_time": 5}}</tool_call>' +
  "<tool_response>A red car.</tool_response><answer>B</answer>";

describe("recipes (SPEC §2 Recipe defaults)", () => {
  it("PARA-GRPO: think_prefix, answer_suffix, nframes_gating on, anchor 0.5, f1, format 1.0", () => {
    expect(PARA_GRPO).toEqual({
      thinkPrefix: true,
      answerSuffix: true,
      nframesGating: true,
      anchorWeight: 0.5,
      rewardMode: "f1",
      formatWeight: 1.0,
    });
  });

  it("vanilla GRPO: all off, anchor 0, format 1.0", () => {
    expect(VANILLA_GRPO).toMatchObject({
      thinkPrefix: false,
      answerSuffix: false,
      nframesGating: false,
      anchorWeight: 0,
      formatWeight: 1.0,
    });
  });

  it("the default reward config is PARA-GRPO's", () => {
    expect(DEFAULT_REWARD_CONFIG).toEqual({
      answerSuffix: true,
      anchorWeight: 0.5,
      formatWeight: 1.0,
      rewardMode: "f1",
    });
  });
});

describe("degenerate guard (SPEC §2)", () => {
  const spam = "<|im_start|>".repeat(5);
  it("needs at least 5 <|im_start|> and fewer than 300 code points", () => {
    expect(isDegenerate(spam)).toBe(true);
    expect(isDegenerate("<|im_start|>".repeat(4))).toBe(false);
    expect(isDegenerate(spam + "x".repeat(240))).toBe(false); // exactly 300
    expect(isDegenerate(spam + "x".repeat(239))).toBe(true); // 299
  });

  it("counts code points, not UTF-16 units", () => {
    expect(isDegenerate(spam + "😀".repeat(239))).toBe(true);
  });

  it("zeroes every term", () => {
    const r = computeReward({ completion: `${spam}<answer>B</answer>`, answer: "B", questionType: "mcq" });
    expect(r).toEqual({ reward: 0, accReward: 0, formatReward: 0, toolReward: 0, degenerate: true });
  });
});

describe("computeReward (SPEC §2 R = R_acc + format_weight * R_fmt + R_tool)", () => {
  it("sums the three terms with the PARA-GRPO defaults", () => {
    const r = computeReward({ completion: FULL, answer: "B", questionType: "mcq" });
    expect(r.accReward).toBe(1);
    expect(r.formatReward).toBe(1);
    expect(r.toolReward).toBeCloseTo(0.8, 15);
    expect(r.reward).toBeCloseTo(2.8, 15);
    expect(r.degenerate).toBe(false);
  });

  it("weights R_fmt by format_weight", () => {
    const r = computeReward(
      { completion: FULL, answer: "B", questionType: "mcq" },
      { ...DEFAULT_REWARD_CONFIG, formatWeight: 0.5 },
    );
    expect(r.reward).toBeCloseTo(1 + 0.5 + 0.8, 15);
  });

  it("scores open-ended answers by the reward mode", () => {
    const input = { completion: "<answer>a red car</answer>", answer: "red truck", questionType: "oe" };
    expect(computeReward(input, { ...DEFAULT_REWARD_CONFIG, rewardMode: "f1" }).accReward).toBe(0.5);
    expect(computeReward(input, { ...DEFAULT_REWARD_CONFIG, rewardMode: "exact" }).accReward).toBe(0);
  });

  it("llm mode takes the judge score, F1 when the judge failed", () => {
    const input = { completion: "<answer>a red car</answer>", answer: "red truck", questionType: "oe" };
    const llm = { ...DEFAULT_REWARD_CONFIG, rewardMode: "llm" as const };
    expect(computeReward(input, llm, 1).accReward).toBe(1);
    expect(computeReward(input, llm, null).accReward).toBe(0.5);
  });
});

describe("LLM judge helpers (SPEC §2 llm mode)", () => {
  it("finds the question after the last <|vision_end|>", () => {
    const prompt = "<|im_start|>user\n<|vision_start|>…<|vision_end|> What color? <|im_end|>\n<|im_start|>";
    expect(judgeQuestion(prompt)).toBe("What color?");
    expect(judgeQuestion("no vision")).toBe("");
  });

  it("reads the first number of the reply, clamped to [0, 1]", () => {
    expect(parseJudgeReply(" 1.0")).toBe(1);
    expect(parseJudgeReply("0.5 partially")).toBe(0.5);
    expect(parseJudgeReply("score 7")).toBe(1);
    expect(parseJudgeReply("none")).toBeNull();
    expect(parseJudgeReply("...")).toBeNull();
  });

  it("asks the judge only where the llm branch is reached", () => {
    const llm = { ...DEFAULT_REWARD_CONFIG, rewardMode: "llm" as const };
    const input = { completion: "<answer>a red car</answer>", answer: "red truck", questionType: "oe" };
    expect(judgeRequest(input, llm)).toEqual({ question: "", prediction: "a red car", groundTruth: "red truck" });
    expect(judgeRequest(input)).toBeNull();
    expect(judgeRequest({ ...input, questionType: "mcq" }, llm)).toBeNull();
    expect(judgeRequest({ ...input, answer: "A red car!" }, llm)).toBeNull();
  });

  it("builds the judge message", () => {
    const text = judgePrompt({ question: "Q?", prediction: "p", groundTruth: "g" });
    expect(text).toContain("Question: Q?\nGround truth answer: g\nModel prediction: p\n\n");
    expect(text).toContain("1.0 if correct, 0.5 if partially correct, 0.0 if wrong.");
  });
});
