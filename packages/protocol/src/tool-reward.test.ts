import { describe, expect, it } from "vitest";
import { hasParseableToolCall } from "./parseable-call";
import { toolReward } from "./tool-reward";

describe("hasParseableToolCall (SPEC §4 Parseable tool call)", () => {
  it("a <tool_call> body that is a JSON object with name", () => {
    expect(hasParseableToolCall('<tool_call>\n{"name": "crop_video"}\n</tool_call>')).toBe(true);
    expect(hasParseableToolCall('<tool_call>{"name": NaN}</tool_call>')).toBe(true);
  });

  it("the body runs to </tool_call> or the end", () => {
    expect(hasParseableToolCall('<tool_call>{"name": "x"}\n')).toBe(true);
  });

  it("not: missing name, not an object, invalid JSON, empty, starting with <|im_end|>", () => {
    expect(hasParseableToolCall('<tool_call>{"arguments": {}}</tool_call>')).toBe(false);
    expect(hasParseableToolCall('<tool_call>[{"name": 1}]</tool_call>')).toBe(false);
    expect(hasParseableToolCall("<tool_call>{'name': 1}</tool_call>")).toBe(false);
    expect(hasParseableToolCall("<tool_call> </tool_call>")).toBe(false);
    expect(hasParseableToolCall('<tool_call><|im_end|>{"name": 1}</tool_call>')).toBe(false);
  });

  it("a later good block still counts", () => {
    expect(hasParseableToolCall('<tool_call>bad</tool_call><tool_call>{"name":1}</tool_call>')).toBe(true);
  });

  it("a <tool_code> body with a line containing ( that is not a # comment", () => {
    expect(hasParseableToolCall("<tool_code>crop_video(1)</tool_code>")).toBe(true);
    expect(hasParseableToolCall("<tool_code>\n# crop_video(1)\nnothing\n</tool_code>")).toBe(false);
    expect(hasParseableToolCall("<tool_code>crop_video</tool_code>")).toBe(false);
    expect(hasParseableToolCall("<tool_code><|im_end|>f()</tool_code>")).toBe(false);
    expect(hasParseableToolCall("<tool_code>\n  f(\n")).toBe(true);
  });

  it("is false without tool tags", () => {
    expect(hasParseableToolCall('{"name": "crop_video"} crop_video(1)')).toBe(false);
  });
});

describe("toolReward (SPEC §2 R_tool)", () => {
  const call = '<tool_call>{"name": "crop_video", "arguments": {}}</tool_call>';
  it("is 0 without a parseable tool call, even when accurate", () => {
    expect(toolReward("<tool_call>oops</tool_call>", 1)).toBe(0);
  });
  it("is 0.1 for a parseable call, 0.3 with <tool_response>", () => {
    expect(toolReward(call, 0)).toBe(0.1);
    expect(toolReward(`${call}<tool_response>x</tool_response>`, 0)).toBe(0.3);
  });
  it("adds 0.5 when R_acc > 0", () => {
    expect(toolReward(call, 0.2)).toBeCloseTo(0.6, 15);
    expect(toolReward(`${call}<tool_response>`, 1)).toBeCloseTo(0.8, 15);
  });
});
