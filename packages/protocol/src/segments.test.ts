import { describe, expect, it } from "vitest";
import { segmentProtocolText } from "./segments";

describe("segmentProtocolText", () => {
  it("splits a full turn into tagged segments that concatenate back to the input", () => {
    const text =
      '<think>plan</think>\n<tool_call>{"name": "crop_video", "arguments": {}}</tool_call>' +
      "<tool_response>ok</tool_response><answer>B</answer>";
    const segs = segmentProtocolText(text);
    expect(segs.map((s) => s.kind)).toEqual(["think", "plain", "tool_call", "tool_response", "answer"]);
    expect(segs.map((s) => s.text).join("")).toBe(text);
    expect(segs[2]).toMatchObject({ body: '{"name": "crop_video", "arguments": {}}', closed: true, parseable: true });
    expect(segs[4]).toMatchObject({ body: "B", closed: true, parseable: null });
  });

  it("flags unclosed and unparseable blocks", () => {
    const segs = segmentProtocolText("<tool_code>nothing here</tool_code><tool_call>{oops");
    expect(segs[0]).toMatchObject({ kind: "tool_code", closed: true, parseable: false });
    expect(segs[1]).toMatchObject({ kind: "tool_call", closed: false, parseable: false, body: "{oops" });
  });

  it("an unclosed <think> stops at the next tool tag, <answer> or <|im_end|>", () => {
    const segs = segmentProtocolText('<think>reasoning<tool_call>{"name": 1}');
    expect(segs.map((s) => [s.kind, s.closed])).toEqual([
      ["think", false],
      ["tool_call", false],
    ]);
    expect(segs[1]?.parseable).toBe(true);
  });

  it("marks stray closing tags (e.g. </think> after a forced prefix)", () => {
    const segs = segmentProtocolText("reasoning\n</think>\n<answer>A</answer>");
    expect(segs.map((s) => [s.kind, s.strayClose])).toEqual([
      ["plain", false],
      ["plain", true],
      ["plain", false],
      ["answer", false],
    ]);
  });

  it("keeps offsets usable for slicing", () => {
    const text = "😀<answer>é</answer>";
    for (const s of segmentProtocolText(text)) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it("returns no segment for empty text", () => {
    expect(segmentProtocolText("")).toEqual([]);
  });
});
