import { parseTrainingToolCalls } from "@paravt/protocol";
import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import {
  buildPrompt,
  buildSequence,
  ContextOverflowError,
  datasetHash,
  expandVideo,
  frameTimestampText,
  mainAgentTurns,
  nextTokenArrays,
  padSequence,
  SequenceError,
  sftExamples,
  subAgentTurns,
  THINK_PREFIX,
  videoPathAlias,
  type ModelSequence,
} from "./sequence";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();
const plan = planSuite({ seed: 5, count: 6 });
const set = sftExamples(plan, { contextLength: 4096 });
const rowById = new Map(plan.oracle.map((r) => [r.id, r]));

/** Maximal runs of masked-in positions, decoded. */
function maskedSpans(s: ModelSequence): string[] {
  const spans: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.ids.length; i++) {
    const on = i < s.ids.length && s.lossMask[i] === 1;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      spans.push(tok.decode(s.ids.slice(start, i)));
      start = -1;
    }
  }
  return spans;
}

const slots = (s: ModelSequence) => [...s.ids].filter((id) => id === tok.frame).length;

describe("sftExamples: main agent", () => {
  const mains = set.examples.filter((e) => e.kind === "main");

  it("has one example per oracle trajectory", () => {
    expect(mains.map((e) => e.id)).toEqual(plan.oracle.map((r) => r.id));
  });

  it("masks in exactly the assistant texts after the think prefix, each ended by <|im_end|>", () => {
    for (const e of mains) {
      const row = rowById.get(e.id)!;
      const assistant = row.turns.filter((t) => t.role === "assistant").map((t) => t.content);
      expect(maskedSpans(e)).toEqual(assistant.map((a) => `${a.slice(THINK_PREFIX.length)}<|im_end|>`));
      // Everything else (prompt, frames, tool responses, forced prefixes) is masked out.
      const masked = [...e.lossMask].reduce((a, b) => a + b, 0);
      const expected = assistant.reduce((n, a) => n + tok.encode(a.slice(THINK_PREFIX.length)).length + 1, 0);
      expect(masked).toBe(expected);
    }
  });

  it("trains on text the protocol parses into the intended calls", () => {
    let withCalls = 0;
    for (const e of mains) {
      const row = rowById.get(e.id)!;
      maskedSpans(e).forEach((span, i) => {
        const calls = parseTrainingToolCalls(THINK_PREFIX + span);
        const round = row.rounds[i] ?? [];
        expect(calls.map((c) => c.arguments)).toEqual(
          round.map((c) => ({ video_path: row.video, start_time: c.start, end_time: c.end })),
        );
        if (calls.length > 0) withCalls++;
      });
    }
    expect(withCalls).toBeGreaterThan(10);
  });

  it("has one frame slot per overview frame, each preceded by its timestamp", () => {
    for (const e of mains) {
      const row = rowById.get(e.id)!;
      expect(slots(e)).toBe(row.k);
      expect(e.frames).toEqual(row.overviewTimestamps.map((t) => ({ video: row.video, t })));
      let j = 0;
      for (let i = 0; i < e.ids.length; i++) {
        if (e.ids[i] !== tok.frame) {
          expect(e.frameIndex[i]).toBe(-1);
          continue;
        }
        expect(e.frameIndex[i]).toBe(j);
        const stamp = frameTimestampText(row.overviewTimestamps[j]!);
        const before = tok.decode(e.ids.slice(i - tok.encode(stamp).length, i));
        expect(before).toBe(stamp);
        expect(e.lossMask[i]).toBe(0);
        j++;
      }
    }
  });

  it("renders ChatML exactly", () => {
    const row = plan.oracle.find((r) => r.k === 4 && r.rounds.length === 1)!;
    const e = mains.find((x) => x.id === row.id)!;
    const frames = row.overviewTimestamps.map((t) => `<${t.toFixed(1)} seconds><frame>`).join("");
    const [user, call, response, answer] = row.turns.map((t) => t.content);
    const expected =
      `<|bos|><|im_start|>user\n${user!.replace("<video>", frames)}<|im_end|>\n` +
      `<|im_start|>assistant\n${call}<|im_end|>\n` +
      `<|im_start|>user\n${response}<|im_end|>\n` +
      `<|im_start|>assistant\n${answer}<|im_end|>`;
    expect(tok.decode(e.ids, { controls: "name" })).toBe(expected);
  });

  it("starts each assistant turn from exactly the prompt generation sees", () => {
    for (const row of plan.oracle.slice(0, 40)) {
      const e = set.examples.find((x) => x.id === row.id)!;
      const turns = mainAgentTurns(row);
      turns.forEach((turn, i) => {
        if (turn.role !== "assistant") return;
        const prompt = buildPrompt(tok, turns.slice(0, i), { forcedPrefix: THINK_PREFIX });
        const n = prompt.ids.length;
        expect([...e.ids.slice(0, n)]).toEqual([...prompt.ids]);
        expect(e.lossMask[n - 1]).toBe(0);
        expect(e.lossMask[n]).toBe(1);
        expect(prompt.frames).toEqual(e.frames);
      });
    }
  });

  it("makes `<think>\\n` a target when the think prefix is off", () => {
    const off = sftExamples(
      { oracle: plan.oracle.slice(0, 5) },
      { contextLength: 4096, thinkPrefix: false, subAgents: false },
    );
    for (const e of off.examples) {
      const row = rowById.get(e.id)!;
      const assistant = row.turns.filter((t) => t.role === "assistant").map((t) => `${t.content}<|im_end|>`);
      expect(maskedSpans(e)).toEqual(assistant);
    }
  });
});

describe("sftExamples: sub-agents", () => {
  const subs = set.examples.filter((e) => e.kind === "sub");

  it("masks in the summary and gives one slot per crop frame", () => {
    expect(subs.length).toBeGreaterThan(20);
    for (const e of subs) {
      const row = rowById.get(e.rowId)!;
      const [, r, c] = /-r(\d+)c(\d+)$/.exec(e.id)!;
      const s = row.subAgents.find((x) => x.round === Number(r) && x.call === Number(c))!;
      expect(maskedSpans(e)).toEqual([`${s.summary}<|im_end|>`]);
      expect(slots(e)).toBe(s.timestamps.length);
      expect(e.frames).toEqual(s.timestamps.map((t) => ({ video: s.video, t })));
      expect(tok.decode(e.ids, { controls: "skip" })).toContain(s.prompt);
    }
  });

  it("keeps one example per distinct sub-agent sample unless told otherwise", () => {
    const all = sftExamples(plan, { contextLength: 4096, mainAgent: false, dedupeSubAgents: false });
    const total = plan.oracle.reduce((n, r) => n + r.subAgents.length, 0);
    expect(all.examples).toHaveLength(total);
    expect(subs.length).toBeLessThan(total);
    const keys = subs.map((e) => JSON.stringify([...e.ids]));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("sftExamples: spelled sub-agent times (tokenizer version 2)", () => {
  const tok2 = tok.withTimePieces();
  const mmss = planSuite({
    seed: 5,
    count: 3,
    config: { oracleStyle: { whenAnswer: "mmss", shapeSentence: "time-first" } },
  });
  const isTime = (id: number) => id >= tok2.timeOffset;
  const plain = sftExamples(mmss, { contextLength: 4096, tokenizer: tok2 }).examples;
  const spelled = sftExamples(mmss, { contextLength: 4096, tokenizer: tok2, spellSubAgentTimes: true }).examples;

  it("trains a summary's MM:SS as digits and keeps the time pieces of its prompt and of the main agent", () => {
    expect(spelled.map((e) => e.id)).toEqual(plain.map((e) => e.id));
    let subs = 0;
    for (const [i, e] of spelled.entries()) {
      const before = plain[i]!;
      expect(tok2.decode(e.ids, { controls: "name" })).toBe(tok2.decode(before.ids, { controls: "name" }));
      if (e.kind === "main") {
        expect(e.ids).toEqual(before.ids);
        continue;
      }
      const generated = (s: ModelSequence) => [...s.ids].filter((id, j) => s.lossMask[j] === 1);
      const prompt = (s: ModelSequence) => [...s.ids].filter((id, j) => s.lossMask[j] === 0);
      if (generated(before).some(isTime)) subs++;
      expect(generated(e).some(isTime)).toBe(false);
      expect(prompt(e)).toEqual(prompt(before));
      expect(prompt(e).some(isTime)).toBe(true);
    }
    expect(subs).toBeGreaterThan(5); // summaries that state times, now spelled
  });
});

describe("sftExamples: context length", () => {
  const longest = set.examples.reduce((a, b) => (b.ids.length > a.ids.length ? b : a));

  it("refuses an example longer than T with an error naming it", () => {
    const T = longest.ids.length - 1;
    expect(() => sftExamples(plan, { contextLength: T })).toThrow(ContextOverflowError);
    expect(() => sftExamples(plan, { contextLength: T })).toThrow(
      new RegExp(`${longest.id} needs ${longest.ids.length} tokens`),
    );
    expect(sftExamples(plan, { contextLength: longest.ids.length }).examples).toHaveLength(set.examples.length);
  });

  it("skips or truncates when asked", () => {
    const T = 400;
    const skipped = sftExamples(plan, { contextLength: T, overflow: "skip" });
    const over = set.examples.filter((e) => e.ids.length > T);
    expect(over.length).toBeGreaterThan(0);
    expect(skipped.skipped.map((s) => s.id)).toEqual(over.map((e) => e.id));
    expect(skipped.examples.every((e) => e.ids.length <= T)).toBe(true);

    const cut = sftExamples(plan, { contextLength: T, overflow: "truncate" });
    expect(cut.truncated.length + cut.skipped.length).toBe(over.length);
    for (const e of cut.examples) {
      expect(e.ids.length).toBeLessThanOrEqual(T);
      expect(slots(e)).toBe(e.frames.length);
      expect(e.lossMask.includes(1)).toBe(true);
    }
  });
});

describe("sequence building", () => {
  const frames = [
    { video: "v.mp4", t: 0 },
    { video: "v.mp4", t: 12.5 },
  ];

  it("expands the <video> marker into timestamped frames", () => {
    expect(expandVideo("<video>\nQ?", frames)).toEqual([
      "<0.0 seconds>",
      { frame: frames[0] },
      "<12.5 seconds>",
      { frame: frames[1] },
      "\nQ?",
    ]);
    expect(() => expandVideo("no marker", frames)).toThrow(SequenceError);
    expect(() => expandVideo("<video><video>", frames)).toThrow(/exactly one/);
    expect(() => expandVideo("<video>", [])).toThrow(/without frames/);
    expect(() => frameTimestampText(-1)).toThrow(SequenceError);
  });

  it("rejects malformed turns", () => {
    expect(() => buildSequence(tok, [])).toThrow(/at least one turn/);
    expect(() => buildSequence(tok, [{ role: "assistant", content: [{ frame: frames[0]! }] }])).toThrow(
      /cannot contain frames/,
    );
    expect(() => buildSequence(tok, [{ role: "assistant", content: "hi", forcedPrefix: THINK_PREFIX }])).toThrow(
      /forced prefix/,
    );
    expect(() => buildSequence(tok, [{ role: "user", content: "hi", forcedPrefix: "x" }])).toThrow(/only assistant/);
  });

  it("renders tool turns as user turns and masks them out", () => {
    const s = buildSequence(tok, [
      { role: "system", content: "S" },
      { role: "user", content: expandVideo("<video>\nQ", frames) },
      { role: "assistant", content: "<think>\nx\n</think>\nA" },
      { role: "tool", content: "<tool_response>\nR\n</tool_response>" },
      { role: "assistant", content: "B" },
    ]);
    expect(tok.decode(s.ids, { controls: "name" })).toBe(
      "<|bos|><|im_start|>system\nS<|im_end|>\n<|im_start|>user\n<0.0 seconds><frame><12.5 seconds><frame>\nQ<|im_end|>\n" +
        "<|im_start|>assistant\n<think>\nx\n</think>\nA<|im_end|>\n<|im_start|>user\n<tool_response>\nR\n</tool_response><|im_end|>\n" +
        "<|im_start|>assistant\nB<|im_end|>",
    );
    expect(maskedSpans(s)).toEqual(["<think>\nx\n</think>\nA<|im_end|>", "B<|im_end|>"]);
    expect(s.frames).toEqual(frames);
  });

  it("pads and shifts for next-token training", () => {
    const sample = plan.oracle.flatMap((r) => r.subAgents)[0]!;
    const s = buildSequence(tok, subAgentTurns(sample));
    const p = padSequence(s, s.ids.length + 5, tok.pad);
    expect(p.ids.length).toBe(s.ids.length + 5);
    expect([...p.ids.slice(s.ids.length)]).toEqual([0, 0, 0, 0, 0]);
    expect([...p.lossMask.slice(s.ids.length)]).toEqual([0, 0, 0, 0, 0]);
    expect([...p.frameIndex.slice(s.ids.length)]).toEqual([-1, -1, -1, -1, -1]);
    expect(() => padSequence(s, s.ids.length - 1, tok.pad)).toThrow(SequenceError);
    const a = nextTokenArrays(s);
    expect(a.inputs.length).toBe(s.ids.length - 1);
    for (let i = 0; i < a.inputs.length; i++) {
      expect(a.targets[i]).toBe(s.ids[i + 1]);
      expect(a.weights[i]).toBe(s.lossMask[i + 1]);
      expect(a.frameIndex[i]).toBe(s.frameIndex[i]);
    }
    // The first target is never BOS and the last one is the closing <|im_end|>.
    expect(tok.label(a.targets[a.targets.length - 1]!)).toBe("<|im_end|>");
    expect(a.weights[a.weights.length - 1]).toBe(1);
  });

  it("fingerprints a data set", () => {
    const h = datasetHash(set.examples);
    expect(datasetHash(set.examples)).toBe(h);
    expect(datasetHash(set.examples.slice(1))).not.toBe(h);
    const changed = set.examples.map((e, i) => (i === 3 ? { ...e, lossMask: e.lossMask.map((m) => 1 - m) } : e));
    expect(datasetHash(changed)).not.toBe(h);
  });
});

describe("video path aliases (SFT augmentation)", () => {
  it("keeps the path's shape and draws numbers with many leading zeros as often as without", () => {
    const aliases = Array.from({ length: 2000 }, (_, i) => videoPathAlias("videos/v0002.mp4", `row-${i}`, 1));
    for (const a of aliases) expect(a).toMatch(/^videos\/v\d{4}\.mp4$/);
    expect(videoPathAlias("videos/v0002.mp4", "row-7", 1)).toBe(aliases[7]); // deterministic
    expect(new Set(aliases).size).toBeGreaterThan(800); // small numbers repeat: only 9 have one digit
    const zeros = (a: string) => /\/v(0*)/.exec(a)![1]!.length;
    // log-uniform over 1..9999: about a quarter each with 3, 2, 1 and 0 leading zeros
    for (const z of [0, 1, 2, 3]) {
      const share = aliases.filter((a) => zeros(a) === z).length / aliases.length;
      expect(share).toBeGreaterThan(0.18);
      expect(share).toBeLessThan(0.32);
    }
    expect(videoPathAlias("clip.mp4", "row-1", 1)).toBe("clip.mp4");
  });

  it("renames the video in the prompt and in every crop call, but not the frames' source", () => {
    const rows = plan.oracle.filter((r) => r.rounds.length > 0).slice(0, 5);
    const plain = sftExamples({ oracle: rows }, { contextLength: 4096, subAgents: false });
    const aliased = sftExamples({ oracle: rows }, { contextLength: 4096, subAgents: false, aliasVideoPathsSeed: 9 });
    rows.forEach((row, i) => {
      const alias = videoPathAlias(row.video, row.id, 9);
      expect(alias).not.toBe(row.video);
      const text = tok.decode(aliased.examples[i]!.ids, { controls: "name" });
      expect(text).not.toContain(row.video);
      expect(text).toContain(`Video path: ${alias}`);
      const targets = maskedSpans(aliased.examples[i]!).join("");
      const calls = parseTrainingToolCalls(targets);
      expect(calls.length).toBe(row.rounds.flat().length);
      expect(targets.split(`"video_path": "${alias}"`).length - 1).toBe(row.rounds.flat().length);
      expect(aliased.examples[i]!.frames).toEqual(plain.examples[i]!.frames);
    });
  });
});
