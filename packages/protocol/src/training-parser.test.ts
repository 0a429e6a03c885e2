import { describe, expect, it } from "vitest";
import { parseTrainingToolCalls } from "./training-parser";

const crop = (start: number, end: number) =>
  `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": ${start}, "end_time": ${end}}}\n</tool_call>`;

describe("parseTrainingToolCalls (SPEC §4 Training parser)", () => {
  it("parses every <tool_call> JSON block {name, arguments}", () => {
    expect(parseTrainingToolCalls(`<think>x</think>${crop(1, 2)}\n${crop(3, 4)}`)).toEqual([
      { name: "crop_video", arguments: { video_path: "v.mp4", start_time: 1, end_time: 2 } },
      { name: "crop_video", arguments: { video_path: "v.mp4", start_time: 3, end_time: 4 } },
    ]);
  });

  it("reads an unterminated last block to the end", () => {
    const text = `${crop(1, 2)}<tool_call>{"name": "crop_video", "arguments": {"start_time": 5}}`;
    expect(parseTrainingToolCalls(text)[1]).toEqual({ name: "crop_video", arguments: { start_time: 5 } });
  });

  it("accepts NaN and Infinity like Python's json.loads", () => {
    const [call] = parseTrainingToolCalls(
      '<tool_call>{"name": "f", "arguments": {"a": NaN, "b": Infinity}}</tool_call>',
    );
    expect(call?.arguments).toEqual({ a: NaN, b: Infinity });
  });

  it("if ANY block fails, falls through to <tool_code>", () => {
    const text = `${crop(1, 2)}<tool_call>{"name": "x"}</tool_call><tool_code>crop_video(start_time=7)</tool_code>`;
    expect(parseTrainingToolCalls(text)).toEqual([{ name: "crop_video", arguments: { start_time: 7 } }]);
    expect(parseTrainingToolCalls(`${crop(1, 2)}<tool_call>[]</tool_call>`)).toEqual([]);
  });

  it("keeps name and arguments as written (any JSON value)", () => {
    expect(parseTrainingToolCalls('<tool_call>{"name": 3, "arguments": "x"}</tool_call>')).toEqual([
      { name: 3, arguments: "x" },
    ]);
  });

  it("reads each line of each <tool_code> block as a Python call", () => {
    const text =
      "<tool_code>\ncrop_video(video_path='v.mp4', start_time=1, end_time=2)\ncrop_video(start_time=3.5)\n</tool_code>";
    expect(parseTrainingToolCalls(text)).toEqual([
      { name: "crop_video", arguments: { video_path: "v.mp4", start_time: 1, end_time: 2 } },
      { name: "crop_video", arguments: { start_time: 3.5 } },
    ]);
  });

  it("unwraps print(f(...)) and takes the attribute name of a.f(...)", () => {
    expect(parseTrainingToolCalls("<tool_code>print(crop_video(start_time=1))</tool_code>")).toEqual([
      { name: "crop_video", arguments: { start_time: 1 } },
    ]);
    expect(parseTrainingToolCalls("<tool_code>tools.crop_video(start_time=1)</tool_code>")).toEqual([
      { name: "crop_video", arguments: { start_time: 1 } },
    ]);
  });

  it("maps positional arguments to video_path, start_time, end_time", () => {
    expect(parseTrainingToolCalls("<tool_code>crop_video('v.mp4', 10, -20.5)</tool_code>")).toEqual([
      { name: "crop_video", arguments: { video_path: "v.mp4", start_time: 10, end_time: -20.5 } },
    ]);
    // Positional literals only count when no keyword argument was read; non-literals are skipped.
    expect(parseTrainingToolCalls("<tool_code>crop_video(x, 10, 20)</tool_code>")).toEqual([
      { name: "crop_video", arguments: { start_time: 10, end_time: 20 } },
    ]);
    expect(parseTrainingToolCalls("<tool_code>crop_video('v.mp4', 10, end_time=20)</tool_code>")).toEqual([
      { name: "crop_video", arguments: { end_time: 20 } },
    ]);
  });

  it("retries once after removing stray quotes around the closing parenthesis", () => {
    expect(
      parseTrainingToolCalls('<tool_code>crop_video(video_path="v.mp4", start_time=5, end_time=15.0\')</tool_code>'),
    ).toEqual([{ name: "crop_video", arguments: { video_path: "v.mp4", start_time: 5, end_time: 15 } }]);
    expect(parseTrainingToolCalls("<tool_code>crop_video(start_time=5)' trailing</tool_code>")).toEqual([
      { name: "crop_video", arguments: { start_time: 5 } },
    ]);
  });

  it("drops calls with no readable argument and lines that are not calls", () => {
    expect(
      parseTrainingToolCalls(
        "<tool_code>crop_video(video_path=/v.mp4, start_time=1:30)\nI will crop.\ncrop_video()\nprint('hi')</tool_code>",
      ),
    ).toEqual([]);
  });

  it("one unserializable argument (bytes, complex, set) voids the whole <tool_code> branch", () => {
    expect(parseTrainingToolCalls("<tool_code>crop_video(start_time=1)\ncrop_video(end_time=1j)</tool_code>")).toEqual(
      [],
    );
    expect(parseTrainingToolCalls("<tool_code>crop_video(a=b'x')</tool_code>")).toEqual([]);
  });

  it("converts Python literals to JSON (tuples to arrays, dict keys to strings)", () => {
    expect(parseTrainingToolCalls("<tool_code>f(a=(1, None), b={1: 'x', 2.5: True})</tool_code>")).toEqual([
      { name: "f", arguments: { a: [1, null], b: { "1": "x", "2.5": true } } },
    ]);
  });

  it("returns [] without tool tags", () => {
    expect(parseTrainingToolCalls("crop_video(start_time=1)")).toEqual([]);
  });
});
