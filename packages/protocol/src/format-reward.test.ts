import { describe, expect, it } from "vitest";
import { formatReward, hasNonemptyAnswer, hasSubstantiveThink, tagsBalanced, thinkBeforeTool } from "./format-reward";

const PARA = { answerSuffix: true, anchorWeight: 0.5 };
const VANILLA = { answerSuffix: false, anchorWeight: 0 };
const CALL = '<tool_call>{"name": "crop_video", "arguments": {}}</tool_call>';
const THINK = "<think>I need to check the video.</think>";

describe("think (SPEC §2: >= 10 code points of trimmed content)", () => {
  it("uses the closed block first, even when it is too short", () => {
    expect(hasSubstantiveThink("<think> 0123456789 </think>")).toBe(true);
    expect(hasSubstantiveThink("<think>short</think> <think>long enough content")).toBe(false);
  });

  it("else an open block running to the next <tool_, <answer>, <|im_end|> or end", () => {
    expect(hasSubstantiveThink("<think>0123456789<tool_call>")).toBe(true);
    expect(hasSubstantiveThink("<think>012345678<tool_code>abcdefghijk")).toBe(false);
    expect(hasSubstantiveThink("<think>012345678<answer>abcdefghijk")).toBe(false);
    expect(hasSubstantiveThink("<think>012345678<|im_end|>abcdefghijk")).toBe(false);
    expect(hasSubstantiveThink("<think>\n0123456789\n")).toBe(true);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(hasSubstantiveThink(`<think>${"😀".repeat(10)}</think>`)).toBe(true);
    expect(hasSubstantiveThink(`<think>${"😀".repeat(9)}</think>`)).toBe(false);
  });

  it("is false without <think>", () => {
    expect(hasSubstantiveThink("I think 0123456789</think>")).toBe(false);
  });
});

describe("answer_body, ordering and balance helpers", () => {
  it("answer_body: some <answer>…</answer> with a non-blank body", () => {
    expect(hasNonemptyAnswer("<answer> </answer><answer>B</answer>")).toBe(true);
    expect(hasNonemptyAnswer("<answer>\u00a0</answer>")).toBe(false);
    expect(hasNonemptyAnswer("<answer>B")).toBe(false);
  });

  it("think before tool compares the FIRST <think> with the first tool tag", () => {
    expect(thinkBeforeTool(`<think>x</think>${CALL}`)).toBe(true);
    expect(thinkBeforeTool(`<tool_code>f()</tool_code><think>x</think>${CALL}`)).toBe(false);
    expect(thinkBeforeTool("<think>x</think>")).toBe(false);
    expect(thinkBeforeTool(CALL)).toBe(false);
  });

  it("balance compares counts for think, tool_call, tool_code and answer", () => {
    expect(tagsBalanced(`${THINK}${CALL}<answer>B</answer>`)).toBe(true);
    expect(tagsBalanced("<answer>B</answer></answer>")).toBe(false);
    expect(tagsBalanced("<tool_response>")).toBe(true);
  });
});

describe("formatReward (SPEC §2 R_fmt)", () => {
  it("answer_suffix on: +0.2 think, +0.3 <answer>, +0.2 </answer> (with answer_body)", () => {
    const noAnchor = { answerSuffix: true, anchorWeight: 0 };
    expect(formatReward(THINK, noAnchor)).toBeCloseTo(0.3, 15); // 0.2 + balance 0.1
    expect(formatReward(`${THINK}<answer>B</answer>`, noAnchor)).toBeCloseTo(0.8, 15);
  });

  it("answer_suffix off: +0.3 think, +0.2 <answer>, +0.1 </answer>", () => {
    expect(formatReward(THINK, VANILLA)).toBeCloseTo(0.4, 15);
    expect(formatReward(`${THINK}<answer>B</answer>`, VANILLA)).toBeCloseTo(0.7, 15);
  });

  it("answer tags count only with a non-blank answer body", () => {
    expect(formatReward(`${THINK}<answer> </answer>`, VANILLA)).toBeCloseTo(0.4, 15);
  });

  it("anchoring: +0.4 for </think> with think, +0.3 more with answer_body and </answer>", () => {
    // 0.2 + 0.5 * 0.4 + balance 0.1
    expect(formatReward(THINK, PARA)).toBeCloseTo(0.5, 15);
    // 0.7 + 0.5 * 0.7 + 0.1 clipped at 1
    expect(formatReward(`${THINK}<answer>B</answer>`, PARA)).toBe(1);
  });

  it("anchoring: -0.3 when <think> is present and </think> absent", () => {
    expect(formatReward("<think>\nreasoning long enough here", PARA)).toBeCloseTo(0.05, 15);
  });

  it("anchoring can make R_fmt negative: only clipped at 1 (documented SPEC ambiguity)", () => {
    expect(formatReward("<think>tiny", PARA)).toBeCloseTo(-0.15, 15);
    expect(formatReward("<think>tiny", { answerSuffix: true, anchorWeight: 2 })).toBeCloseTo(-0.6, 15);
  });

  it("anchoring only applies when anchor_weight > 0", () => {
    expect(formatReward("<think>tiny", { answerSuffix: true, anchorWeight: 0 })).toBe(0);
    expect(formatReward("<think>tiny", { answerSuffix: true, anchorWeight: -1 })).toBe(0);
  });

  it("+0.3 for think and a parseable tool with <think> first", () => {
    expect(formatReward(`${THINK}${CALL}`, VANILLA)).toBeCloseTo(0.7, 15);
    expect(formatReward(`${CALL}${THINK}`, VANILLA)).toBeCloseTo(0.4, 15);
    const unparseable = "<think>I need to check the video.</think><tool_call>{oops}</tool_call>";
    expect(formatReward(unparseable, VANILLA)).toBeCloseTo(0.4, 15);
  });

  it("+0.1 balance only when the score so far is > 0", () => {
    expect(formatReward("", VANILLA)).toBe(0);
    expect(formatReward("<answer>B</answer>", VANILLA)).toBeCloseTo(0.4, 15);
    expect(formatReward(`${THINK}<answer>B</answer></answer>`, VANILLA)).toBeCloseTo(0.6, 15);
  });

  it("is clipped at 1", () => {
    const full = `${THINK}${CALL}<answer>B</answer>`;
    expect(formatReward(full, PARA)).toBe(1);
  });
});
