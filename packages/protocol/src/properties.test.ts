import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as protocol from "./index";
import {
  accReward,
  computeReward,
  extractLetter,
  extractTimeRange,
  formatReward,
  hasParseableToolCall,
  normalizeText,
  parsePyJson,
  parseTrainingToolCalls,
  segmentProtocolText,
  tokenF1,
  toolReward,
  type JsonValue,
  type RewardConfig,
} from "./index";
import { codePointLength } from "./py-text";

const TAGS = [
  "<think>",
  "</think>",
  "<think>\n",
  "<tool_call>",
  "</tool_call>",
  "<tool_code>",
  "</tool_code>",
  "<tool_response>",
  "</tool_response>",
  "<answer>",
  "</answer>",
  "<|im_end|>",
  "<|im_start|>",
  "<time>",
  "</time>",
  "<tool_",
  "<|vision_end|>",
];
const SNIPPETS = [
  '{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": 10, "end_time": 20}}',
  '{"name": 1',
  "NaN",
  "crop_video(video_path='v.mp4', start_time=1, end_time=2)",
  "print(crop_video('v.mp4', 3, 4))",
  "crop_video(start_time=10)'",
  "f'{x!r:{w}}'",
  "The answer is C",
  "(B)",
  "Answer: D",
  "[10.5, 20]",
  "00:10 - 00:20",
  "starting at 3 ending at 9",
  "1.2.3",
  "٣",
  "\r\n",
  "\u2028",
  "\x1c",
  "\ufeff",
  "\ud800",
];

// Any code unit, lone surrogates included (Python strs from JSON can hold them too).
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
const graphemes = fc.string({ unit: "grapheme" });
const binary = fc.string({ unit: "binary" });
/** Arbitrary text biased towards protocol tags and the shapes the parsers look for. */
const protocolText = fc
  .array(fc.oneof(fc.constantFrom(...TAGS), fc.constantFrom(...SNIPPETS), graphemes, anyUnits, binary), {
    maxLength: 24,
  })
  .map((parts) => parts.join(""));
const anyText = fc.oneof(protocolText, anyUnits, graphemes, binary);

const config: fc.Arbitrary<RewardConfig> = fc.record({
  answerSuffix: fc.boolean(),
  anchorWeight: fc.double({ min: 0, max: 1, noNaN: true }),
  formatWeight: fc.double({ min: 0, max: 2, noNaN: true }),
  rewardMode: fc.constantFrom("f1", "exact", "llm"),
});

describe("no exported function throws on arbitrary strings", () => {
  // Everything exported that takes strings; the rest gets typed inputs in the next tests.
  const typedInputs = new Set([
    "computeReward",
    "judgeRequest",
    "judgePrompt",
    "formatReward",
    "toolReward",
    "hullIou",
    "literalEval",
    "evalCallWindow",
    "parseTimeValue",
    "formatVerdict",
  ]);
  const stringFns = Object.entries(protocol).flatMap(([name, v]) =>
    typeof v === "function" && !typedInputs.has(name) ? [[name, v as (...args: unknown[]) => unknown] as const] : [],
  );

  it("covers the string-in functions", () => {
    expect(stringFns.length).toBeGreaterThan(25);
  });

  for (const [name, fn] of stringFns) {
    it(name, () => {
      fc.assert(
        fc.property(anyText, anyText, fc.constantFrom("mcq", "tvg", "oe", "x"), (a, b, qt) => {
          // Functions taking (text) ignore extra arguments; two-string ones get both.
          if (name === "accReward") fn(a, b, qt, "f1");
          else if (name === "removeBlocks") fn(a, "<x>", "</x>");
          else if (name === "findLazyBlocks" || name === "findGreedyTailBlocks") fn(a, "<tool_call>", "</tool_call>");
          else fn(a, b);
        }),
        { numRuns: 150 },
      );
    });
  }

  it("computeReward, judgeRequest, formatReward, toolReward", () => {
    fc.assert(
      fc.property(
        anyText,
        anyText,
        fc.constantFrom("mcq", "tvg", "oe"),
        anyText,
        config,
        (completion, answer, questionType, prompt, cfg) => {
          computeReward({ completion, answer, questionType, prompt }, cfg);
          protocol.judgeRequest({ completion, answer, questionType, prompt }, cfg);
          formatReward(completion, cfg);
          toolReward(completion, 0.5);
        },
      ),
    );
  });

  it("formatVerdict on arbitrary turns: compliant exactly when no reason is given", () => {
    const turn = fc.record({
      rawText: protocolText,
      forcedPrefix: fc.option(fc.constantFrom("<think>\n", "<think>"), { nil: null }),
      parseIssues: fc.array(anyText, { maxLength: 2 }),
      finish: fc.constantFrom("stop" as const, "length" as const, null),
      forcedFinal: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 4 }), fc.boolean(), fc.boolean(), (turns, think, answerTags) => {
        const v = protocol.formatVerdict(turns, { think, answerTags });
        expect(v.compliant).toBe(v.reasons.length === 0);
      }),
    );
  });

  it("parsers on JSON values built from arbitrary data", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        protocol.evalCallWindow(v as JsonValue);
        protocol.parseTimeValue(v as JsonValue);
      }),
    );
  });
});

describe("reward ranges (SPEC §2)", () => {
  it("R_acc in [0, 1], R_tool in [0, 1], R_fmt <= 1 and >= -0.3 * anchor_weight, R consistent", () => {
    fc.assert(
      fc.property(
        protocolText,
        anyText,
        fc.constantFrom("mcq", "tvg", "oe"),
        config,
        (completion, answer, questionType, cfg) => {
          const r = computeReward({ completion, answer, questionType }, cfg);
          expect(r.accReward).toBeGreaterThanOrEqual(0);
          expect(r.accReward).toBeLessThanOrEqual(1);
          expect(r.toolReward).toBeGreaterThanOrEqual(0);
          expect(r.toolReward).toBeLessThanOrEqual(1);
          expect(r.formatReward).toBeLessThanOrEqual(1);
          expect(r.formatReward).toBeGreaterThanOrEqual(-0.3 * cfg.anchorWeight - 1e-12);
          expect(r.reward).toBe(r.accReward + cfg.formatWeight * r.formatReward + r.toolReward);
          if (r.degenerate) expect([r.reward, r.accReward, r.formatReward, r.toolReward]).toEqual([0, 0, 0, 0]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("R_fmt is in [0, 1] without anchoring", () => {
    fc.assert(
      fc.property(protocolText, fc.boolean(), (completion, answerSuffix) => {
        const f = formatReward(completion, { answerSuffix, anchorWeight: 0 });
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("R_tool takes only the values 0, 0.1, 0.3, 0.6, 0.8 and is 0 exactly without a parseable call", () => {
    fc.assert(
      fc.property(protocolText, fc.double({ min: 0, max: 1, noNaN: true }), (completion, acc) => {
        const t = toolReward(completion, acc);
        expect([0, 0.1, 0.3, 0.6, 0.8].some((v) => Math.abs(v - t) < 1e-12)).toBe(true);
        expect(t === 0).toBe(!hasParseableToolCall(completion));
      }),
    );
  });

  it("token F1 is symmetric, in [0, 1], and unique/total tokens against itself (SET semantics)", () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const f = tokenF1(a, b);
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(tokenF1(b, a)).toBeCloseTo(f, 12);
        const tokens = normalizeText(a)
          .split(" ")
          .filter((t) => t !== "");
        const self = tokens.length === 0 ? 0 : new Set(tokens).size / tokens.length;
        expect(tokenF1(a, a)).toBeCloseTo(self, 12);
      }),
    );
  });

  it("R_acc for mcq and tvg stays in [0, 1]", () => {
    fc.assert(
      fc.property(anyText, anyText, fc.constantFrom("mcq", "tvg"), (p, a, qt) => {
        const v = accReward(p, a, qt, "f1");
        expect(v >= 0 && v <= 1).toBe(true);
      }),
    );
  });
});

describe("parser properties", () => {
  it("parsePyJson agrees with JSON.parse on standard JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        const r = parsePyJson(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value).toEqual(JSON.parse(text));
      }),
    );
  });

  it("parsePyJson accepts what JSON.parse accepts, with the same value", () => {
    const jsonish = fc
      .array(
        fc.oneof(
          fc.constantFrom("{", "}", "[", "]", ",", ":", '"a"', "1", "-0.5e3", "true", "null", " ", "\n", "NaN"),
          anyUnits,
        ),
        { maxLength: 12 },
      )
      .map((p) => p.join(""));
    fc.assert(
      fc.property(jsonish, (text) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          return;
        }
        const r = parsePyJson(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value).toEqual(expected);
      }),
    );
  });

  it("round-trips canonical <tool_call> blocks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), fc.dictionary(fc.string(), fc.jsonValue())), { minLength: 1, maxLength: 5 }),
        (calls) => {
          const text = calls
            .map(([name, args]) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`)
            .join("\n");
          expect(parseTrainingToolCalls(text)).toEqual(
            calls.map(([name, args]) => ({ name, arguments: JSON.parse(JSON.stringify(args)) })),
          );
          expect(hasParseableToolCall(text)).toBe(true);
        },
      ),
    );
  });

  it("round-trips Python-style crop_video calls with literal arguments", () => {
    const num = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    );
    const path = fc.stringMatching(/^[a-zA-Z0-9_./-]{1,20}$/);
    fc.assert(
      fc.property(path, num, num, fc.boolean(), (p, s, e, wrap) => {
        const pyNum = (x: number) => (Object.is(x, -0) ? "-0.0" : Number.isInteger(x) ? String(x) : x.toExponential());
        const call = `crop_video(video_path='${p}', start_time=${pyNum(s)}, end_time=${pyNum(e)})`;
        const text = `<tool_code>\n${wrap ? `print(${call})` : call}\n</tool_code>`;
        expect(parseTrainingToolCalls(text)).toEqual([
          { name: "crop_video", arguments: { video_path: p, start_time: s, end_time: e } },
        ]);
      }),
    );
  });

  it("segments concatenate back to the input and slice correctly", () => {
    fc.assert(
      fc.property(protocolText, (text) => {
        const segs = segmentProtocolText(text);
        expect(segs.map((s) => s.text).join("")).toBe(text);
        for (const s of segs) expect(text.slice(s.start, s.end)).toBe(s.text);
      }),
    );
  });

  it("extractLetter returns at most one code point; extractTimeRange null or two numbers", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(codePointLength(extractLetter(text))).toBeLessThanOrEqual(1);
        const r = extractTimeRange(text);
        if (r !== null) expect(r.every((x) => typeof x === "number")).toBe(true);
      }),
    );
  });
});
