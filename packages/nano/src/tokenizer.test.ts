import fc from "fast-check";
import { parseEvalToolCalls, parseTrainingToolCalls } from "@paravt/protocol";
import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import {
  BYTE_OFFSET,
  CONTROL_TOKENS,
  PIECE_OFFSET,
  TIME_PIECE_COUNT,
  TIME_TOKENIZER_VERSION,
  timePieceText,
  Tokenizer,
} from "./tokenizer";
import { defaultPieces, defaultTokenizer, planTexts, PROTOCOL_PIECES, uncoveredWords, vocabJson } from "./vocabulary";

const tok = defaultTokenizer();

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
/** Protocol tags, suite words and arbitrary text glued together. */
const protocolSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PROTOCOL_PIECES, ...tok.pieces.slice(PROTOCOL_PIECES.length, PROTOCOL_PIECES.length + 50)),
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.constantFrom("0", "12.0", " ", "\n", "videos/v0001.mp4", "über", "日本", "🎬", "<frame>", "<|pad|>"),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

describe("tokenizer: round trip", () => {
  it("decode(encode(s)) === s for every string", () => {
    const strings = fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.string({ unit: "grapheme", maxLength: 100 }),
      fc.string({ unit: anyCodeUnit, maxLength: 100 }),
      protocolSoup,
    );
    fc.assert(
      fc.property(strings, (s) => {
        expect(tok.decode(tok.encode(s))).toBe(s);
      }),
      { numRuns: 1500 },
    );
  });

  it("falls back to bytes for unknown words, Unicode and paths", () => {
    for (const s of ["zebra", "Grüße, 世界 🎬", "/data/suites/s1/videos/v0001.mp4", "\u0000\uFFFF", "\uD800x"]) {
      const ids = tok.encode(s);
      expect(tok.decode(ids)).toBe(s);
    }
    const ids = tok.encode("世");
    expect(ids).toEqual([...new TextEncoder().encode("世")].map((b) => BYTE_OFFSET + b));
  });

  it("never produces control tokens from text", () => {
    const ids = tok.encode(CONTROL_TOKENS.join(" "));
    expect(ids.every((id) => !tok.isControl(id))).toBe(true);
    expect(tok.decode(ids)).toBe(CONTROL_TOKENS.join(" "));
  });
});

describe("tokenizer: vocabulary", () => {
  it("has every structural token as one token", () => {
    const structural = [
      "<think>",
      "</think>",
      "<tool_call>",
      "</tool_call>",
      "<tool_code>",
      "</tool_code>",
      "<tool_response>",
      "</tool_response>",
      "<answer>",
      "</answer>",
      "<|im_start|>",
      "<|im_end|>",
      "system",
      "user",
      "assistant",
      '"start_time": ',
      '"end_time": ',
      '{"name": "crop_video", "arguments": {"video_path": "',
    ];
    for (const s of [...structural, ...PROTOCOL_PIECES]) {
      const ids = tok.encode(s);
      expect(ids, s).toHaveLength(1);
      expect(tok.label(ids[0]!)).toBe(s);
    }
  });

  it("spells numbers digit by digit with one token per digit", () => {
    for (let d = 0; d <= 9; d++) expect(tok.encode(String(d))).toEqual([BYTE_OFFSET + 48 + d]);
    expect(tok.encode("1234567890")).toHaveLength(10);
    expect(tok.encode("<113.0 seconds>").map((i) => tok.label(i))).toEqual(["<", "1", "1", "3", ".", "0", " seconds>"]);
    expect(tok.pieces.filter((p) => /\d/.test(p))).toEqual([]);
    expect(() => new Tokenizer(["ab", "a1"])).toThrow(/contains a digit/);
  });

  it("matches the longest piece", () => {
    const call =
      '<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v.mp4", "start_time": 10, "end_time": 20}}\n</tool_call>';
    const labels = tok.encode(call).map((i) => tok.label(i));
    expect(labels[0]).toBe('<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "');
    expect(labels).toContain('", "start_time": ');
    expect(labels).toContain(', "end_time": ');
    expect(labels[labels.length - 1]).toBe("}}\n</tool_call>");
  });

  it("covers every word of suites it was not derived from", () => {
    const held = [
      planSuite({ seed: 7, count: 30 }),
      planSuite({ seed: 9, count: 2, config: { minMinutes: 10, maxMinutes: 12 } }),
      planSuite({ seed: 3, count: 10, config: { minMinutes: 1, maxMinutes: 1, templates: ["count", "after"] } }),
    ];
    for (const plan of held) expect(uncoveredWords(tok, planTexts(plan))).toEqual([]);
    // The check itself sees a word the suite never writes.
    expect(uncoveredWords(tok, ["The zebra is in the top-left."])).toEqual([" zebra"]);
  });

  it("is deterministic and identified by its hash", () => {
    expect(defaultPieces()).toEqual(tok.pieces);
    const json = vocabJson();
    expect(json.size).toBe(tok.size);
    expect(json.size).toBe(PIECE_OFFSET + json.pieces.length);
    expect(json.hash).toMatch(/^[0-9a-f]{64}$/);
    const again = Tokenizer.fromVocabJson(JSON.parse(JSON.stringify(json)));
    expect(again.hash).toBe(tok.hash);
    expect(again.encode("The red circle at 00:12.")).toEqual(tok.encode("The red circle at 00:12."));
    const other = new Tokenizer([...tok.pieces, " zebra"]);
    expect(other.hash).not.toBe(tok.hash);
  });

  it("refuses damaged vocab JSON", () => {
    const json = vocabJson();
    expect(() => Tokenizer.fromVocabJson({ ...json, pieces: [...json.pieces].reverse() })).toThrow(
      /hash .* does not match/,
    );
    expect(() => Tokenizer.fromVocabJson({ ...json, size: json.size + 1 })).toThrow(/size/);
    expect(() => Tokenizer.fromVocabJson({ ...json, version: 3 })).toThrow(/version 3 is not supported/);
    expect(() => Tokenizer.fromVocabJson({ ...json, version: 2 })).toThrow(/hash .* does not match/);
    expect(() => Tokenizer.fromVocabJson({ ...json, hash: "x" })).toThrow(/hash/);
    expect(() => new Tokenizer(["ab", "ab"])).toThrow(/twice/);
    expect(() => new Tokenizer(["a"])).toThrow(/shorter than 2 bytes/);
  });
});

describe("tokenizer: decode", () => {
  it("handles control tokens by mode and rejects ids outside the vocabulary", () => {
    const ids = [tok.bos, ...tok.encode("ab"), tok.frame, ...tok.encode("c")];
    expect(() => tok.decode(ids)).toThrow(/control token <\|bos\|>/);
    expect(tok.decode(ids, { controls: "skip" })).toBe("abc");
    expect(tok.decode(ids, { controls: "name" })).toBe("<|bos|>ab<frame>c");
    expect(() => tok.decode([tok.size])).toThrow(/outside the vocabulary/);
    expect(() => tok.decode([1.5])).toThrow(/outside the vocabulary/);
  });

  it("decodes any id sequence without throwing (model output may be ill-formed UTF-8)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: BYTE_OFFSET, max: tok.size - 1 }), { maxLength: 50 }), (ids) => {
        expect(typeof tok.decode(ids)).toBe("string");
      }),
    );
  });
});

describe("tokenizer: oracle trajectories", () => {
  const plan = planSuite({ seed: 11, count: 8 });

  it("round-trips every trajectory and the protocol parsers read the same calls", () => {
    expect(plan.oracle.length).toBeGreaterThan(50);
    let calls = 0;
    for (const row of plan.oracle) {
      const text = row.turns.map((t) => t.content).join("\n");
      expect(tok.decode(tok.encode(text))).toBe(text);
      row.turns.forEach((turn, i) => {
        if (turn.role !== "assistant") return;
        const decoded = tok.decode(tok.encode(turn.content));
        const before = parseTrainingToolCalls(turn.content);
        expect(parseTrainingToolCalls(decoded)).toEqual(before);
        expect(parseEvalToolCalls(decoded)).toEqual(parseEvalToolCalls(turn.content));
        const round = row.rounds[(i - 1) / 2];
        const expected = (round ?? []).map((c) => ({
          name: "crop_video",
          arguments: { video_path: row.video, start_time: c.start, end_time: c.end },
        }));
        expect(before).toEqual(expected);
        calls += before.length;
      });
    }
    expect(calls).toBeGreaterThan(0);
  });

  it("is much shorter than bytes on suite text", () => {
    const text = plan.oracle
      .map((r) =>
        r.turns
          .slice(1)
          .map((t) => t.content)
          .join("\n"),
      )
      .join("\n");
    const bytes = new TextEncoder().encode(text).length;
    expect(tok.encode(text).length).toBeLessThan(bytes / 3);
  });
});

describe("tokenizer version 2: time pieces", () => {
  const tok2 = tok.withTimePieces();
  const colon = tok.encode(":")[0]!;
  const digit = (id: number) => (id >= BYTE_OFFSET + 0x30 && id <= BYTE_OFFSET + 0x39 ? id - BYTE_OFFSET - 0x30 : -1);
  /** gpu/nano_data.py collapse_times on version-1 ids: each 0M:SS (S < 60), left to right, one token. */
  const collapse = (ids: number[]) => {
    const out: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const d = ids.slice(i, i + 5).map(digit);
      if (
        d.length === 5 &&
        d[0] === 0 &&
        d[1]! >= 0 &&
        ids[i + 2] === colon &&
        d[3]! >= 0 &&
        d[3]! <= 5 &&
        d[4]! >= 0
      ) {
        out.push(tok.size + 60 * d[1]! + 10 * d[3]! + d[4]!);
        i += 4;
      } else out.push(ids[i]!);
    }
    return out;
  };

  it("appends one token per MM:SS below 10:00 after version 1's ids, which stay as they are", () => {
    expect(tok2.version).toBe(TIME_TOKENIZER_VERSION);
    expect(tok2.size).toBe(tok.size + TIME_PIECE_COUNT);
    expect(tok2.timeOffset).toBe(tok.size);
    expect(tok2.hasTimePieces && !tok.hasTimePieces).toBe(true);
    expect(tok2.hash).not.toBe(tok.hash);
    expect(tok2.idOf("00:00")).toBe(tok.size);
    expect(tok2.idOf("01:03")).toBe(tok.size + 63);
    expect(tok2.idOf("09:59")).toBe(tok.size + 599);
    expect(tok2.label(tok.size + 63)).toBe("01:03");
    expect(timePieceText(599)).toBe("09:59");
    for (const id of [0, 4, 300, tok.size - 1]) expect(tok2.label(id)).toBe(tok.label(id));
    expect(tok2.withTimePieces()).toBe(tok2);
  });

  it("encodes a time as one token only where five characters spell 0M:SS", () => {
    const ids = tok2.encode("A cyan square from 00:56 to 01:03 is in the center");
    expect(ids.filter((id) => id >= tok.size).map((id) => tok2.label(id))).toEqual(["00:56", "01:03"]);
    expect(tok2.encode("10:00")).toEqual(tok.encode("10:00"));
    expect(tok2.encode("00:60")).toEqual(tok.encode("00:60"));
    expect(tok2.encode("<12.0 seconds>")).toEqual(tok.encode("<12.0 seconds>"));
    expect(tok2.encode("100:56").map((id) => tok2.label(id))).toEqual(["1", "00:56"]);
  });

  it("spells times as version 1 does when asked (spellTimes), and only time pieces", () => {
    const text = "A cyan square from 00:56 to 01:03 is in the center</think>";
    expect(tok2.encode(text, { spellTimes: true })).toEqual(tok.encode(text));
    expect(tok2.encode(text, { spellTimes: true })).not.toEqual(tok2.encode(text));
    expect(tok.encode(text, { spellTimes: true })).toEqual(tok.encode(text));
  });

  it("gives exactly the tokens the GPU trainer's collapse_times makes of version 1's (oracle texts and any string)", () => {
    const texts = planTexts(
      planSuite({ seed: 12, count: 3, config: { oracleStyle: { whenAnswer: "mmss", shapeSentence: "time-first" } } }),
    );
    let times = 0;
    for (const t of texts) {
      const ids = tok2.encode(t);
      expect(ids).toEqual(collapse(tok.encode(t)));
      times += ids.filter((id) => id >= tok.size).length;
    }
    expect(times).toBeGreaterThan(50);
    const clock = fc
      .tuple(fc.nat(12), fc.nat(70))
      .map(([m, s]) => `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(clock, fc.constantFrom("0", ":", "1", " from ", "12.0")), { maxLength: 12 }),
        (parts) => {
          const s = parts.join("");
          expect(tok2.encode(s)).toEqual(collapse(tok.encode(s)));
          expect(tok2.decode(tok2.encode(s))).toBe(s);
        },
      ),
    );
  });

  it("round-trips through its vocab JSON, which lists the word pieces only", () => {
    const json = tok2.vocabJson();
    expect(json.version).toBe(2);
    expect(json.pieces).toEqual(tok.pieces);
    expect(json.size).toBe(tok.size + TIME_PIECE_COUNT);
    const again = Tokenizer.fromVocabJson(JSON.parse(JSON.stringify(json)));
    expect(again.hash).toBe(tok2.hash);
    expect(() => Tokenizer.fromVocabJson({ ...json, size: tok.size })).toThrow(/size/);
  });
});
