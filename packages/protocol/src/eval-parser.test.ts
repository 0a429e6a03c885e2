import { describe, expect, it } from "vitest";
import { evalCallWindow, parseEvalToolCalls, parseTimeValue } from "./eval-parser";

describe("parseEvalToolCalls (SPEC §4 Evaluation parser)", () => {
  it("reads each complete <tool_call> body independently, skipping bad ones", () => {
    const text =
      '<tool_call> {"name": "crop_video", "arguments": {"start_time": 1}} </tool_call>' +
      "<tool_call>oops</tool_call>" +
      '<tool_call>{"name": "x", "arguments": {}}</tool_call>' +
      '<tool_call>{"name": "unterminated"}';
    expect(parseEvalToolCalls(text)).toEqual([
      { name: "crop_video", arguments: { start_time: 1 } },
      { name: "x", arguments: {} },
    ]);
  });

  it("keeps whatever JSON value a block holds", () => {
    expect(parseEvalToolCalls("<tool_call>[1, 2]</tool_call>")).toEqual([[1, 2]]);
  });

  it("reads <tool_code>crop_video(k=v, …)</tool_code>: numbers where possible, quotes stripped", () => {
    const text = "<tool_code>crop_video(video_path='v.mp4', start_time=10, end_time=\"1:30\")</tool_code>";
    expect(parseEvalToolCalls(text)).toEqual([
      { name: "crop_video", arguments: { video_path: "v.mp4", start_time: 10, end_time: "1:30" } },
    ]);
  });

  it("only crop_video at the start of the body, arguments to the last ')'", () => {
    expect(parseEvalToolCalls("<tool_code>print(crop_video(start_time=1))</tool_code>")).toEqual([]);
    expect(parseEvalToolCalls("<tool_code>crop_video (a=f(1), b=2) x</tool_code>")).toEqual([
      { name: "crop_video", arguments: { a: "f(1)", b: 2 } },
    ]);
    expect(parseEvalToolCalls("<tool_code>crop_video()</tool_code>")).toEqual([]);
    expect(parseEvalToolCalls("<tool_code><|im_end|>crop_video(a=1)</tool_code>")).toEqual([]);
  });

  it("lists JSON calls before <tool_code> calls", () => {
    const text = '<tool_code>crop_video(a=1)</tool_code><tool_call>{"name": "n"}</tool_call>';
    expect(parseEvalToolCalls(text)).toEqual([{ name: "n" }, { name: "crop_video", arguments: { a: 1 } }]);
  });
});

describe("parseTimeValue (SPEC §4: seconds, MM:SS, HH:MM:SS)", () => {
  it.each([
    [12, 12],
    ["12.5", 12.5],
    [" 7 ", 7],
    ["1:30", 90],
    ["01:02:03", 3723],
    ["٣:٠٥", 185],
    [true, 1],
    ["abc", 0],
    ["1:2:3:4", 0],
    ["a:b", 0],
    [null, 0],
    [[1], 0],
  ] as const)("%j -> %j", (input, expected) => {
    expect(parseTimeValue(input as never)).toBe(expected);
  });
});

describe("evalCallWindow (reference evaluator dispatch)", () => {
  it("uses start_time/end_time, else start/end, else 0 and start + 10", () => {
    expect(evalCallWindow({ name: "c", arguments: { start_time: "0:30", end_time: 45 } })).toEqual({
      start: 30,
      end: 45,
    });
    expect(evalCallWindow({ name: "c", arguments: { start: 5 } })).toEqual({ start: 5, end: 15 });
    expect(evalCallWindow({ name: "c" })).toEqual({ start: 0, end: 10 });
    expect(evalCallWindow({ arguments: { start_time: null } })).toEqual({ start: 0, end: 10 });
  });

  it("is null where the reference evaluator raises", () => {
    expect(evalCallWindow([1])).toBeNull();
    expect(evalCallWindow({ arguments: "x" })).toBeNull();
    expect(evalCallWindow({ arguments: null })).toBeNull();
  });
});
