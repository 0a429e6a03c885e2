// The shared pieces (options, spans, SRT, CSV), the registry, option validation, and loader
// invariants checked over generated datasets.

import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../src/csv";
import {
  BENCHMARK_IDS,
  BENCHMARKS,
  loadBenchmark,
  SampleSchema,
  SKIP_REASONS,
  srtToText,
  type SkipReason,
} from "../src/index";
import {
  checkAnswerLetter,
  checkAnswerText,
  checkOptionTexts,
  parseInlineOptions,
  questionWithOptions,
  stripLetterPrefixes,
} from "../src/options";
import { checkSpan, parseSpanText, spanAnswer } from "../src/spans";
import { jsonl, tempDir, touchVideos, write } from "./helpers";

const optionText = fc
  .string({ minLength: 1, maxLength: 20 })
  .map((s) => s.replace(/\s+/g, " ").trim())
  .filter((s) => s !== "" && !/^\([A-J]\)/.test(s));

describe("options", () => {
  it("property: options written in (A) style parse back to the same stem and options", () => {
    fc.assert(
      fc.property(
        optionText.filter((s) => !s.startsWith("(")),
        fc.array(optionText, { minLength: 2, maxLength: 10 }),
        (stem, options) => {
          const parsed = parseInlineOptions(questionWithOptions(stem, options, "paren"));
          expect(parsed).toEqual({ ok: true, value: { stem, options } });
        },
      ),
    );
  });

  it("property: A. prefixes strip back to the texts; answer letters are accepted exactly within range", () => {
    fc.assert(
      fc.property(
        fc.array(optionText, { minLength: 2, maxLength: 10 }),
        fc.integer({ min: 0, max: 9 }),
        (options, k) => {
          const lettered = questionWithOptions("", options, "dot").split("\n").slice(1);
          expect(stripLetterPrefixes(lettered)).toEqual({ ok: true, value: options });
          const letter = "ABCDEFGHIJ"[k]!;
          expect(checkAnswerLetter(letter, options.length).ok).toBe(k < options.length);
        },
      ),
    );
  });

  it("rejects malformed lists and unknown answers with the reason the report shows", () => {
    expect(checkOptionTexts("a, b")).toMatchObject({ ok: false, reason: "malformed_options" });
    expect(checkOptionTexts(Array.from({ length: 11 }, (_, i) => `o${i}`))).toMatchObject({
      detail: "11 option(s); expected 2–10",
    });
    expect(checkOptionTexts(["multi\nline", "b"])).toEqual({ ok: true, value: ["multi line", "b"] });
    expect(stripLetterPrefixes(["A. x", "y"])).toMatchObject({ ok: false, reason: "malformed_options" });
    expect(checkAnswerLetter("(c)", 4)).toEqual({ ok: true, value: "C" });
    expect(checkAnswerLetter("C) blue", 4)).toMatchObject({ ok: false, reason: "unknown_answer" });
    expect(checkAnswerLetter(undefined, 4)).toMatchObject({ ok: false, reason: "missing_field" });
    expect(checkAnswerText(" A Dog ", ["a cat", "a dog"])).toEqual({ ok: true, value: "B" });
    expect(parseInlineOptions("(A) x\n(B) y")).toMatchObject({ ok: false, reason: "missing_field" });
  });
});

describe("spans", () => {
  it("property: a valid span survives answer formatting and parsing at millisecond precision", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (s, len) => {
        const span: [number, number] = [s / 1000, (s + len) / 1000];
        const checked = checkSpan(span[0], span[1]);
        expect(checked).toEqual({ ok: true, value: span });
        expect(parseSpanText(spanAnswer(span))).toEqual(span);
      }),
    );
  });

  it("refuses what the report calls bad timestamps", () => {
    expect(checkSpan("1", "1.0004")).toMatchObject({ ok: false, reason: "bad_timestamps" });
    expect(checkSpan(-1, 2)).toMatchObject({ ok: false, detail: "negative start -1" });
    expect(checkSpan(Number.NaN, 2)).toMatchObject({ ok: false, reason: "bad_timestamps" });
    expect(checkSpan(1, 2, 1)).toMatchObject({ ok: false, reason: "bad_timestamps" });
    expect(checkSpan(1, 5, 2)).toEqual({ ok: true, value: [1, 5] });
    expect(spanAnswer([1e-9, 2])).toBe("0-2");
  });
});

describe("SRT and CSV", () => {
  it("keeps subtitle text only", () => {
    const srt =
      '\uFEFF1\r\n00:00:01,000 --> 00:00:02,000\r\n<i>Hi</i> {\\an8}there\r\nsecond line\r\n\r\n2\r\n00:00:03.000 --> 00:00:04.000\r\n<font size=".72c">Bye</font>\r\n';
    expect(srtToText(srt)).toBe("Hi there\nsecond line\nBye");
    expect(srtToText("")).toBe("");
  });

  it("property: quoted CSV fields round trip", () => {
    const field = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        (records) => {
          const csv = records.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(",")).join("\r\n");
          expect(parseCsv(csv).map((r) => r.fields)).toEqual(records);
        },
      ),
    );
  });
});

describe("registry and options", () => {
  it("lists every benchmark once, with its files and a default split it accepts", () => {
    expect(BENCHMARKS.map((b) => b.id)).toEqual([...BENCHMARK_IDS]);
    for (const b of BENCHMARKS) {
      expect(b.files.some((f) => f.required)).toBe(true);
      if (b.splits.length) expect(b.splits).toContain(b.defaultSplit);
    }
  });

  it("refuses bad requests before reading anything", async () => {
    const dir = await tempDir();
    await expect(loadBenchmark({ benchmark: "nope" as "mlvu", dir })).rejects.toThrow(
      /invalid benchmark options: benchmark/,
    );
    await expect(loadBenchmark({ benchmark: "mlvu", dir, subtitles: true })).rejects.toThrow(/no subtitle variant/);
    await expect(loadBenchmark({ benchmark: "mlvu", dir: join(dir, "absent") })).rejects.toThrow(/is not a directory/);
    await expect(loadBenchmark({ benchmark: "mlvu", dir, videoDir: join(dir, "absent") })).rejects.toThrow(
      /video directory .* is not a directory/,
    );
    await expect(loadBenchmark({ benchmark: "mlvu", dir, extra: 1 } as never)).rejects.toThrow(
      /invalid benchmark options/,
    );
  });
});

describe("loader invariants", () => {
  const rowArb = fc.record(
    {
      id: fc.constantFrom("a", "b", "c", "d", "e", "f", "", 7),
      video: fc.constantFrom("v1.mp4", "v2.mp4", "missing.mp4", "../up.mp4"),
      question: fc.constantFrom("What?", "", "When?"),
      options: fc.option(fc.array(fc.constantFrom("x", "y", "", "z"), { maxLength: 11 }), { nil: undefined }),
      answer: fc.oneof(
        fc.constantFrom("A", "B", "k", "3-7", "[1, 0]", "text"),
        fc.tuple(fc.double({ noNaN: true }), fc.double({ noNaN: true })),
      ),
      question_type: fc.constantFrom("mcq", "tvg", "oe", "other"),
      duration: fc.option(fc.double({ min: -5, max: 100, noNaN: true }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );

  it("property: every row is either a valid sample or a skip with a known reason; keys are unique", async () => {
    const dir = await tempDir();
    await touchVideos(dir, ["v1.mp4", "v2.mp4"]);
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { maxLength: 25 }), async (rows) => {
        await write(dir, "d.jsonl", rows.length ? jsonl(rows) : "");
        const res = await loadBenchmark({ benchmark: "custom", dir: join(dir, "d.jsonl") });
        expect(res.samples.length + res.skipped.length).toBe(rows.length);
        expect(res.stats.rows).toBe(rows.length);
        expect(new Set(res.samples.map((s) => s.key)).size).toBe(res.samples.length);
        for (const s of res.samples) expect(SampleSchema.safeParse(s).success).toBe(true);
        for (const s of res.skipped) expect(SKIP_REASONS).toContain(s.reason satisfies SkipReason);
        const rowsSeen = [...res.skipped.map((s) => s.row), ...res.samples.map(() => 0)];
        expect(rowsSeen.filter((r) => r > rows.length)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
