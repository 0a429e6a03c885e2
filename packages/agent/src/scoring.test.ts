import { defaultTokenizer } from "@paravt/nano";
import { describe, expect, it } from "vitest";
import { scoreEpisode } from "./scoring";
import { charsTokenCounter, nanoTokenCounter, truncateSummary } from "./token-counter";
import { parseTurnCalls, planCall } from "./tool-calls";
import { storableJson } from "./trajectory";

const ok = (finalText: string) => ({ status: "ok" as const, finalText });

describe("scoreEpisode", () => {
  it("oe with the reference's extract_letter scoring (MMVU open-ended rows, driver.py `_score`)", () => {
    const ref = { questionType: "oe" as const, referenceScoring: "extract_letter" as const };
    // extract_letter's last resort is the first character: a one-character answer can be hit...
    expect(scoreEpisode(ok("3 cells divide"), { ...ref, answer: "3" })).toMatchObject({
      prediction: "3",
      correct: true,
    });
    // ...a longer one never (the reference scores it 0 whatever the response).
    expect(scoreEpisode(ok("mitosis"), { ...ref, answer: "mitosis" })).toMatchObject({ prediction: "m", score: 0 });
    // A standalone capital A–J wins over the first character.
    expect(scoreEpisode(ok("x is B"), { ...ref, answer: "x" })).toMatchObject({ prediction: "B", correct: false });
    // Without the mark: SPEC §2 F1 as usual.
    expect(scoreEpisode(ok("<answer>mitosis</answer>"), { questionType: "oe", answer: "mitosis" })).toMatchObject({
      correct: true,
    });
  });

  it("mcq: SPEC §4 letter extraction against the answer letter", () => {
    expect(
      scoreEpisode(ok("<think>\nhm\n</think>\n<answer>C</answer>"), { questionType: "mcq", answer: " c " }),
    ).toEqual({
      status: "ok",
      prediction: "C",
      correct: true,
      score: 1,
      iou: null,
    });
    expect(scoreEpisode(ok("The answer is B."), { questionType: "mcq", answer: "C" })).toMatchObject({
      prediction: "B",
      correct: false,
      score: 0,
    });
    expect(scoreEpisode(ok(""), { questionType: "mcq", answer: "A" })).toMatchObject({
      prediction: "",
      correct: false,
      score: 0,
    });
  });

  it("tvg: IoU = intersection / hull span (SPEC §5), correct = R@0.5", () => {
    // [10, 20] vs [15, 25]: intersection 5, hull 15.
    const s = scoreEpisode(ok("<answer>10 - 20</answer>"), { questionType: "tvg", answer: "[15, 25]" });
    expect(s).toMatchObject({ prediction: "10 - 20", correct: false });
    expect(s.score).toBeCloseTo(1 / 3, 12);
    expect(
      scoreEpisode(ok("from 00:12 to 00:24... <time>00:12 - 00:24</time>"), { questionType: "tvg", answer: [12, 22] }),
    ).toMatchObject({
      correct: true,
      score: 10 / 12,
    });
    expect(scoreEpisode(ok("no idea"), { questionType: "tvg", answer: [1, 2] })).toMatchObject({
      prediction: "",
      score: 0,
      iou: 0,
    });
    expect(() => scoreEpisode(ok("1 - 2"), { questionType: "tvg", answer: "soon" })).toThrow(/ground-truth/);
  });

  it("oe: the protocol's R_acc for other question types (SPEC §2, f1 by default)", () => {
    expect(
      scoreEpisode(ok("<answer>The red circle</answer>"), { questionType: "oe", answer: "red circle" }),
    ).toMatchObject({ score: 1, correct: true });
    const f1 = scoreEpisode(ok("<answer>red square</answer>"), { questionType: "oe", answer: "red circle" });
    expect(f1.score).toBeCloseTo(0.5, 12);
    expect(
      scoreEpisode(ok("<answer>red square</answer>"), { questionType: "oe", answer: "red circle", rewardMode: "exact" })
        .score,
    ).toBe(0);
  });

  it("an errored episode is not scored, whatever its text", () => {
    expect(
      scoreEpisode({ status: "error", finalText: "<answer>A</answer>" }, { questionType: "mcq", answer: "A" }),
    ).toEqual({
      status: "error",
      prediction: "",
      correct: null,
      score: null,
      iou: null,
    });
  });
});

describe("summary truncation (SPEC §1.5)", () => {
  it("cuts to the first N tokens of the counter and appends ' [truncated]'", () => {
    const chars = charsTokenCounter();
    expect(truncateSummary("abcdefgh", chars, 2)).toEqual({ text: "abcdefgh", tokens: 2, truncated: false });
    expect(truncateSummary("abcdefghi", chars, 2)).toEqual({
      text: "abcdefgh [truncated]",
      tokens: 3,
      truncated: true,
    });
    const nano = nanoTokenCounter(defaultTokenizer());
    const text = "The background is teal throughout. A cyan cross in the bottom-center from 00:10 to 00:12.";
    const n = nano.count(text);
    expect(n).toBe(defaultTokenizer().encode(text).length);
    const cut = truncateSummary(text, nano, n - 3);
    expect(cut.truncated).toBe(true);
    expect(nano.count(cut.text.replace(/ \[truncated\]$/, ""))).toBeLessThanOrEqual(n - 3);
    expect(text.startsWith(cut.text.replace(/ \[truncated\]$/, ""))).toBe(true);
  });
});

describe("tool calls of a turn", () => {
  it("reports why call-like text gave no call, and stores Python's NaN as text", () => {
    const text =
      '<tool_call>\n{"name": "crop_video", "arguments": {"start_time": NaN}}\n</tool_call>\n<tool_call>{oops}</tool_call>\n<tool_call>\n{"name"';
    const r = parseTurnCalls(text, "eval");
    expect(r.calls).toHaveLength(1);
    expect(r.issues.join("\n")).toMatch(/1 <tool_call> block\(s\) are not valid JSON[\s\S]*unterminated/);
    expect(storableJson(r.calls[0]!)).toEqual({ name: "crop_video", arguments: { start_time: "NaN" } });
    expect(planCall(r.calls[0]!, 60).error).toMatch(/finite/);
    expect(planCall({ name: "crop_video", arguments: { start_time: "00:50", end_time: "1:10" } }, 60)).toMatchObject({
      requested: { start: 50, end: 70 },
      window: { start: 50, end: 60, clamped: true },
      error: null,
    });
    // SPEC §4/§5: end defaults to start + 10.
    expect(planCall({ name: "crop_video", arguments: { start: 3 } }, 60).window).toEqual({
      start: 3,
      end: 13,
      clamped: false,
    });
    expect(planCall([1, 2], 60).error).toMatch(/not a JSON object/);
    expect(parseTurnCalls("<tool_call>\n{}\n", "training").issues.join()).toMatch(/training parser/);
  });
});
