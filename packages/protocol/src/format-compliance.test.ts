// One test per rule of the format-compliance definition (format-compliance.ts header).
import { describe, expect, it } from "vitest";
import { FORMAT_CONTRACTS, formatContract, formatVerdict, type FormatTurn } from "./format-compliance";

const turn = (rawText: string, over: Partial<FormatTurn> = {}): FormatTurn => ({
  rawText,
  forcedPrefix: null,
  parseIssues: [],
  finish: "stop",
  forcedFinal: false,
  ...over,
});

const THINK = "<think>\nThe clock in the overview reads noon.\n</think>\n";
const CALL =
  '<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": 10, "end_time": 20}}\n</tool_call>';
const agentic = FORMAT_CONTRACTS.agentic_general;

describe("formatVerdict", () => {
  it("passes a think + parallel calls turn followed by a think + answer turn", () => {
    expect(formatVerdict([turn(THINK + CALL + "\n" + CALL), turn(THINK + "<answer>B</answer>")], agentic)).toEqual({
      compliant: true,
      reasons: [],
    });
  });

  it("fails an episode without a main-agent turn", () => {
    expect(formatVerdict([], agentic)).toEqual({ compliant: false, reasons: ["no main-agent turn"] });
  });

  it("fails a turn cut by max tokens even when its text happens to close every tag", () => {
    const v = formatVerdict([turn(THINK + "<answer>B</answer>", { finish: "length" })], agentic);
    expect(v).toEqual({ compliant: false, reasons: ["turn 1: ran to max tokens"] });
    // A producer that did not record how the turn ended is judged on its text.
    expect(formatVerdict([turn(THINK + "<answer>B</answer>", { finish: null })], agentic).compliant).toBe(true);
  });

  it("fails on every parse issue, named with its turn", () => {
    const v = formatVerdict(
      [
        turn(THINK + "<tool_call>{bad json</tool_call>", {
          parseIssues: ["1 <tool_call> block(s) are not valid JSON"],
        }),
        turn(THINK + "<answer>B</answer>"),
      ],
      agentic,
    );
    expect(v.reasons).toEqual(["turn 1: 1 <tool_call> block(s) are not valid JSON"]);
  });

  it("checks tag balance per turn over the forced prefix + the generated text", () => {
    const body = THINK.slice("<think>".length) + "<answer>B</answer>";
    expect(formatVerdict([turn(body, { forcedPrefix: "<think>" })], agentic).compliant).toBe(true);
    // Without the prefix the closing </think> has no opening one.
    expect(formatVerdict([turn(body)], agentic).reasons).toContain("turn 1: unclosed or unbalanced tag");
    // An unclosed tag in an early turn is not repaired by a later one.
    const v = formatVerdict(
      [turn("<think>\nlooking closer at the clock" + CALL), turn("</think><answer>B</answer>")],
      agentic,
    );
    expect(v.reasons).toEqual(["turn 1: unclosed or unbalanced tag", "turn 2: unclosed or unbalanced tag"]);
  });

  it("asks the last turn for a non-blank <answer> when the mode uses answer tags", () => {
    expect(formatVerdict([turn(THINK + "<answer> </answer>")], agentic).reasons).toEqual([
      "turn 1: no non-empty <answer></answer>",
    ]);
    expect(formatVerdict([turn(THINK + "B")], agentic).reasons).toEqual(["turn 1: no non-empty <answer></answer>"]);
    // An answer in an earlier turn does not count: the episode ends on its last turn.
    expect(formatVerdict([turn(THINK + "<answer>B</answer>" + CALL), turn(THINK)], agentic).compliant).toBe(false);
  });

  it("holds the forced final-answer turn to its nudge's format: a bare letter answers", () => {
    const calls = [turn(THINK + CALL), turn(THINK + CALL), turn(THINK + CALL)];
    expect(formatVerdict([...calls, turn("B", { forcedFinal: true })], agentic).compliant).toBe(true);
    expect(formatVerdict([...calls, turn("  ", { forcedFinal: true })], agentic).reasons).toEqual([
      "turn 4: no answer",
    ]);
  });

  it("asks for a substantive <think> only in the modes that ask for reasoning", () => {
    const short = "<think>ok</think><answer>B</answer>";
    expect(formatVerdict([turn(short)], agentic).reasons).toEqual(["no <think> block of at least 10 characters"]);
    expect(formatVerdict([turn("<answer>B</answer>")], FORMAT_CONTRACTS.reasoning).compliant).toBe(false);
    expect(formatVerdict([turn("<answer>B</answer>")], FORMAT_CONTRACTS.direct).compliant).toBe(true);
  });

  it("accepts a free-text final answer under the bare tool envelope (agentic_minimal)", () => {
    const minimal = FORMAT_CONTRACTS.agentic_minimal;
    expect(formatVerdict([turn(CALL), turn("The event happens in 12.0 - 19.5 seconds.")], minimal).compliant).toBe(
      true,
    );
    expect(formatVerdict([turn(CALL), turn("")], minimal).reasons).toEqual(["turn 2: no answer"]);
  });
});

describe("formatContract", () => {
  it("reads the contract of each SPEC §5 mode and holds unknown labels to the training contract", () => {
    expect(formatContract("direct")).toEqual({ think: false, answerTags: true });
    expect(formatContract("agentic_minimal")).toEqual({ think: false, answerTags: false });
    expect(formatContract("ppo-rollout")).toEqual(FORMAT_CONTRACTS.agentic_general);
    expect(formatContract("toString")).toEqual(FORMAT_CONTRACTS.agentic_general);
  });
});
