import { describe, expect, it } from "vitest";
import fixtures from "./fixtures/reference-cases.json";
import {
  computeReward,
  extractAnswer,
  extractLetter,
  extractTimeRange,
  formatReward,
  hasParseableToolCall,
  hasSubstantiveThink,
  hullIou,
  normalizeText,
  optionMatch,
  parseEvalToolCalls,
  parsePyJson,
  parseTimeValue,
  parseTrainingToolCalls,
  temporalIou,
  thinkBeforeTool,
  tokenF1,
  type JsonValue,
  type RewardMode,
} from "./index";

// End-to-end checks against outputs of the reference implementation itself (see the file
// header: repository, commit, Python version). The generator ran the reference Python code
// outside this repository; the reference code is not part of this tree.

type Args = readonly unknown[];
const s = (a: Args, i: number) => a[i] as string;

const RUN: Record<string, (a: Args) => unknown> = {
  compose: (a) => {
    const r = computeReward(
      { completion: s(a, 0), answer: s(a, 1), questionType: s(a, 2) },
      {
        answerSuffix: a[3] as boolean,
        anchorWeight: a[4] as number,
        formatWeight: a[5] as number,
        rewardMode: a[6] as RewardMode,
      },
    );
    return [r.reward, r.accReward, r.formatReward, r.toolReward];
  },
  extract_answer: (a) => extractAnswer(s(a, 0)),
  normalize_text: (a) => normalizeText(s(a, 0)),
  f1: (a) => tokenF1(s(a, 0), s(a, 1)),
  mcq: (a) => optionMatch(s(a, 0), s(a, 1)),
  temporal_iou: (a) => temporalIou(s(a, 0), s(a, 1)),
  format_reward: (a) => formatReward(s(a, 0), { answerSuffix: a[1] as boolean, anchorWeight: a[2] as number }),
  has_parseable: (a) => hasParseableToolCall(s(a, 0)),
  has_think: (a) => hasSubstantiveThink(s(a, 0)),
  think_before_tool: (a) => thinkBeforeTool(s(a, 0)),
  training_parse: (a) => parseTrainingToolCalls(s(a, 0)),
  eval_parse: (a) => parseEvalToolCalls(s(a, 0)),
  time_val: (a) => parseTimeValue(a[0] as JsonValue),
  letter: (a) => extractLetter(s(a, 0)),
  time_range: (a) => extractTimeRange(s(a, 0)),
  hull_iou: (a) => hullIou(a[0] as [number, number], a[1] as [number, number]),
  json_loads: (a) => {
    const r = parsePyJson(s(a, 0));
    return r.ok ? { ok: true, value: r.value } : { ok: false };
  },
};

/** The fixture encoding: non-finite floats tagged, objects as key-sorted entry lists. */
function encode(v: unknown): unknown {
  if (typeof v === "number") {
    if (Number.isNaN(v)) return { $f: "nan" };
    if (!Number.isFinite(v)) return { $f: v > 0 ? "inf" : "-inf" };
    return Object.is(v, -0) ? 0 : v;
  }
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(encode);
  const o = v as Record<string, unknown>;
  return {
    $o: Object.keys(o)
      .sort()
      .map((k) => [k, encode(o[k])]),
  };
}

function canonicalExpected(v: unknown): unknown {
  if (typeof v === "number") return Object.is(v, -0) ? 0 : v;
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(canonicalExpected);
  const o = v as { $o?: [string, unknown][]; $f?: string };
  if (o.$f !== undefined) return o;
  const entries = (o.$o ?? []).map(([k, x]) => [k, canonicalExpected(x)] as const);
  return { $o: [...entries].sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0)) };
}

describe("reference fixtures", () => {
  it("has the expected header", () => {
    expect(fixtures.format).toBe("paravt-protocol-reference-fixtures");
    expect(fixtures.version).toBe(1);
    expect(fixtures.cases.length).toBeGreaterThan(800);
  });

  const byFn = new Map<string, { args: Args; expected: unknown }[]>();
  for (const c of fixtures.cases as { fn: string; args: Args; expected: unknown }[]) {
    const list = byFn.get(c.fn) ?? [];
    list.push(c);
    byFn.set(c.fn, list);
  }
  for (const [fn, list] of byFn) {
    it(`${fn}: ${list.length} cases match the reference`, () => {
      const run = RUN[fn];
      expect(run, `no runner for ${fn}`).toBeDefined();
      for (const c of list) {
        expect(encode(run?.(c.args)), `${fn}(${JSON.stringify(c.args)})`).toEqual(canonicalExpected(c.expected));
      }
    });
  }
});
