import {
  computeReward,
  extractTimeRange,
  formatReward,
  hullIou,
  hasParseableToolCall,
  PARA_GRPO,
  parseEvalToolCalls,
  parseTrainingToolCalls,
} from "@paravt/protocol";
import { cropTimestamps, overviewTimestamps } from "@paravt/video/sampling";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, OVERVIEW_KS } from "./config";
import { Knowledge, observe, parseSummary, summarizeFrames } from "./observe";
import { coverRuns, decide, MAX_CALLS_PER_TURN, MAX_TOOL_ROUNDS, MAX_WINDOW_S, oracleTrajectory } from "./oracle";
import { planSuite } from "./plan";
import { OracleRowSchema, type OracleRow, type VideoAnnotation } from "./schemas";
import { visibleInOverview } from "./visibility";

const plan = planSuite({ seed: 3, count: 40 });
const videos = new Map(plan.videos.map((v) => [v.id, v]));
const questions = new Map(plan.questions.map((q) => [q.id, q]));
const assistantTurns = (o: OracleRow) => o.turns.filter((t) => t.role === "assistant").map((t) => t.content);
const completion = (o: OracleRow) =>
  o.turns
    .slice(1)
    .map((t) => t.content)
    .join("\n");
const fmt = (text: string) => formatReward(text, PARA_GRPO);

describe("oracle trajectories (default config)", () => {
  it("settle every question at every K", () => {
    expect(plan.unsettled).toEqual([]);
    expect(plan.oracle).toHaveLength(plan.questions.length * OVERVIEW_KS.length);
    for (const o of plan.oracle) expect(OracleRowSchema.parse(o)).toEqual(o);
  });

  it("follow the protocol: think, then parallel crop calls the training parser reads back exactly", () => {
    let parallel = 0;
    for (const o of plan.oracle) {
      const turns = assistantTurns(o);
      expect(turns).toHaveLength(o.rounds.length + 1);
      expect(o.rounds.length).toBeLessThanOrEqual(MAX_TOOL_ROUNDS);
      expect(o.turns[0]).toMatchObject({ role: "user" });
      expect(o.turns[0]!.content.startsWith("<video>\n")).toBe(true);
      o.rounds.forEach((calls, r) => {
        const text = turns[r]!;
        expect(text.startsWith("<think>\n")).toBe(true);
        const intended = calls.map((c) => ({
          name: "crop_video",
          arguments: { video_path: o.video, start_time: c.start, end_time: c.end },
        }));
        expect(parseTrainingToolCalls(text)).toEqual(intended);
        expect(parseEvalToolCalls(text)).toEqual(intended);
        expect(hasParseableToolCall(text)).toBe(true);
        expect(calls.length).toBeLessThanOrEqual(MAX_CALLS_PER_TURN);
        if (calls.length > 1) parallel++;
        const d = videos.get(o.videoId)!.durationS;
        for (const c of calls) {
          expect(Number.isInteger(c.start) && Number.isInteger(c.end)).toBe(true);
          expect(c.start).toBeGreaterThanOrEqual(0);
          expect(c.end).toBeLessThanOrEqual(d);
          expect(c.end - c.start).toBeGreaterThan(0);
          expect(c.end - c.start).toBeLessThanOrEqual(MAX_WINDOW_S);
        }
        // The tool responses come back as one user turn, in call order (SPEC §1.5).
        const responses = o.turns[2 + 2 * r]!;
        expect(responses.role).toBe("user");
        const subs = o.subAgents.filter((s) => s.round === r + 1);
        expect(responses.content).toBe(subs.map((s) => `<tool_response>\n${s.summary}\n</tool_response>`).join("\n"));
      });
      const last = turns[turns.length - 1]!;
      expect(parseTrainingToolCalls(last)).toEqual([]);
      expect(last).toMatch(/^<think>\n[^<]{10,}\n<\/think>\n<answer>[^<]+<\/answer>$/);
    }
    expect(parallel).toBeGreaterThan(plan.oracle.length / 4);
  });

  it("earn full accuracy and the maximal format reward under PARA-GRPO", () => {
    for (const o of plan.oracle) {
      const q = questions.get(o.questionId)!;
      const turns = assistantTurns(o);
      const final = computeReward({ completion: turns[turns.length - 1]!, answer: q.answer, questionType: q.type });
      expect(final.accReward).toBe(1);
      expect(final.formatReward).toBe(1);
      const full = computeReward({ completion: completion(o), answer: q.answer, questionType: q.type }, PARA_GRPO);
      expect(full.accReward).toBe(1);
      expect(full.formatReward).toBe(1);
      expect(full.toolReward).toBe(o.rounds.length > 0 ? 0.8 : 0);
      expect(o.reward).toEqual({ reward: full.reward, acc: 1, format: 1, tool: full.toolReward });
      // A tool-call turn has no answer: 0.2 think + 0.5 * 0.4 anchor + 0.3 think-before-tool + 0.1 balance.
      for (const t of turns.slice(0, -1)) expect(fmt(t)).toBeCloseTo(0.8, 12);
    }
  });

  it("crop only what the overview leaves open, and answer from the overview when it settles the question", () => {
    let noCrop = 0;
    for (const o of plan.oracle) {
      if (o.rounds.length === 0) noCrop++;
      const q = questions.get(o.questionId)!;
      // Seeing all the evidence is necessary for answering without a crop, except for `order`,
      // where the earliest option can be certain without seeing the later ones.
      if (o.rounds.length === 0 && q.template !== "order") expect(q.visibleAtK[o.k]).toBe(true);
    }
    expect(noCrop).toBeGreaterThan(0);
    expect(noCrop).toBeLessThan(plan.oracle.length / 2);
  });

  it("decide from the frames seen only: hiding everything the overview misses changes no first turn", () => {
    let compared = 0;
    for (const q of plan.questions) {
      const a = videos.get(q.videoId)!;
      for (const k of OVERVIEW_KS) {
        const twin: VideoAnnotation = { ...a, events: a.events.filter((e) => visibleInOverview(e, a.durationS, k)) };
        const first = (v: VideoAnnotation) => {
          const kn = new Knowledge(v.durationS);
          for (const t of overviewTimestamps(v.durationS, k)) kn.see(t, observe(v, t));
          return decide(q, kn, DEFAULT_CONFIG);
        };
        expect(first(twin)).toEqual(first(a));
        compared++;
      }
    }
    expect(compared).toBe(plan.questions.length * OVERVIEW_KS.length);
  });

  it("give sub-agent samples whose summaries say exactly what their frames show", () => {
    for (const o of plan.oracle) {
      const a = videos.get(o.videoId)!;
      for (const s of o.subAgents) {
        expect(s.timestamps).toEqual(cropTimestamps(s.start, s.end, a.durationS));
        const frames = s.timestamps.map((t) => observe(a, t));
        expect(s.summary).toBe(summarizeFrames(s.timestamps, frames));
        expect(parseSummary(s.summary, s.timestamps)).toEqual(frames);
        expect(s.prompt).toContain(`(${s.end - s.start} second`);
        expect(s.summary.length).toBeLessThan(1500); // far below SPEC §1.5's 512-token cut
        for (const e of a.events.filter((x) => x.start < s.end && x.end > s.start)) {
          expect(s.summary).toContain(`${e.color} ${e.shape} is in the ${e.position}`);
        }
      }
    }
  });
});

describe("oracle trajectories with MM:SS `when` answers (whenAnswer mmss)", () => {
  const mmssPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: { whenAnswer: "mmss" } } });
  const last = (o: OracleRow) => assistantTurns(o).at(-1)!;

  it("differ from the default only in the `when` answer turn", () => {
    expect(mmssPlan.oracle).toHaveLength(plan.oracle.length);
    let when = 0;
    mmssPlan.oracle.forEach((o, i) => {
      const base = plan.oracle[i]!;
      expect(o.turns.slice(0, -1)).toEqual(base.turns.slice(0, -1));
      if (o.questionType !== "tvg") return expect(o).toEqual(base);
      when++;
      expect(last(o)).toMatch(
        /^<think>\nThe \w+ \w+ is visible from \d\d:\d\d to \d\d:\d\d\.\n<\/think>\n<answer>\d\d:\d\d - \d\d:\d\d<\/answer>$/,
      );
    });
    expect(when).toBeGreaterThan(0);
  });

  it("name the first and last second the shape is visible, which SPEC §4 reads and §2's training IoU does not", () => {
    for (const o of mmssPlan.oracle.filter((x) => x.questionType === "tvg")) {
      const q = questions.get(o.questionId)!;
      const [start, end] = JSON.parse(q.answer) as [number, number];
      const text = last(o);
      // The last visible second is end - 1: one second short of the annotation's exclusive end.
      expect(extractTimeRange(text)).toEqual([start, end - 1]);
      expect(hullIou(extractTimeRange(text)!, [start, end])).toBeCloseTo((end - 1 - start) / (end - start), 12);
      const r = computeReward({ completion: completion(o), answer: q.answer, questionType: q.type }, PARA_GRPO);
      expect(r.accReward).toBe(0);
      expect(r.formatReward).toBe(1);
      expect(r.toolReward).toBe(o.rounds.length > 0 ? 0.3 : 0);
      expect(o.reward.acc).toBe(0);
    }
  });
});

describe("oracle `when` trajectories that search through crops only (whenSearch crops)", () => {
  const mmssPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: { whenAnswer: "mmss" } } });
  const cropsPlan = planSuite({
    seed: 3,
    count: 40,
    config: { oracleStyle: { whenAnswer: "mmss", whenSearch: "crops" } },
  });
  const when = cropsPlan.oracle.filter((o) => o.questionType === "tvg");

  it("change only the `when` trajectories, and settle every one", () => {
    expect(cropsPlan.questions).toEqual(mmssPlan.questions);
    const other = (p: typeof cropsPlan) => p.oracle.filter((o) => o.questionType !== "tvg");
    expect(other(cropsPlan)).toEqual(other(mmssPlan));
    expect(when).toHaveLength(mmssPlan.oracle.filter((o) => o.questionType === "tvg").length);
    expect(when.length).toBeGreaterThan(0);
  });

  it("read the video from its start through contiguous windows, never from the overview frames", () => {
    for (const o of when) {
      const a = videos.get(o.videoId)!;
      const first = assistantTurns(o)[0]!;
      expect(first).toMatch(/^<think>\nTo find when the \w+ \w+ is visible I will look through the video/);
      expect(o.rounds[0]![0]!.start).toBe(0);
      for (const round of o.rounds) expect(round.length).toBeLessThanOrEqual(MAX_CALLS_PER_TURN);
      expect(o.rounds.length).toBeLessThanOrEqual(MAX_TOOL_ROUNDS);
      // Scanned windows follow one another until the target is found (then at most a pin round).
      const scanned = o.rounds.flat();
      for (let i = 1; i < Math.min(scanned.length, 5); i++) expect(scanned[i]!.start).toBe(scanned[i - 1]!.end);
      expect(scanned.every((c) => c.end <= a.durationS && c.end - c.start <= MAX_WINDOW_S)).toBe(true);
    }
  });

  it("answer the right range with times that a tool response states", () => {
    for (const o of when) {
      const q = questions.get(o.questionId)!;
      const [start, end] = JSON.parse(q.answer) as [number, number];
      const text = assistantTurns(o).at(-1)!;
      expect(extractTimeRange(text)).toEqual([start, end - 1 > start ? end - 1 : end]);
      const responses = o.turns
        .filter((t) => t.role === "user")
        .map((t) => t.content)
        .join("\n");
      const answerTimes = /<answer>(\d\d:\d\d) - (\d\d:\d\d)<\/answer>/.exec(text)!;
      expect(responses).toContain(answerTimes[1]!);
      if (end - 1 > start) expect(responses).toContain(answerTimes[2]!);
    }
  });
});

describe("oracle scene trajectories that search through crops only (sceneSearch crops)", () => {
  const base = { whenAnswer: "mmss", whenSearch: "crops", shapeSentence: "time-first", sceneAnswer: "quote" } as const;
  const overviewPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: base } });
  const cropsPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: { ...base, sceneSearch: "crops" } } });
  const isScene = (o: OracleRow) => {
    const t = questions.get(o.questionId)!.template;
    return t === "scene_color" || t === "scene_position";
  };
  const scene = cropsPlan.oracle.filter(isScene);

  it("change only the scene trajectories, and settle almost every one", () => {
    expect(cropsPlan.questions).toEqual(overviewPlan.questions);
    const other = (p: typeof cropsPlan) => p.oracle.filter((o) => !isScene(o));
    expect(other(cropsPlan)).toEqual(other(overviewPlan));
    const asked = overviewPlan.oracle.filter(isScene).length;
    expect(scene.length).toBeGreaterThan(0.8 * asked);
    expect(scene.length).toBeLessThanOrEqual(asked);
  });

  it("read the video from its start through contiguous windows, never from the overview frames", () => {
    for (const o of scene) {
      const q = questions.get(o.questionId)!;
      const color = (q.params as { scene: string }).scene;
      expect(assistantTurns(o)[0]).toMatch(
        new RegExp(`^<think>\nTo find the ${color} scene I will look through the video at one frame per second: 0-`),
      );
      expect(o.rounds[0]![0]!.start).toBe(0);
      const scanned = o.rounds[0]!;
      for (let i = 1; i < scanned.length; i++) expect(scanned[i]!.start).toBe(scanned[i - 1]!.end);
      expect(o.rounds.length).toBeLessThanOrEqual(MAX_TOOL_ROUNDS);
      // The same trajectory whatever K: the overview frames take no part in a decision.
      const a = videos.get(o.videoId)!;
      const other = oracleTrajectory(q, a, o.k === 8 ? 16 : 8, cropsPlan.config).row!;
      expect(other.turns.slice(1)).toEqual(o.turns.slice(1));
    }
  });

  it("answer right by quoting a summary that shows the scene throughout, cropping the shape's seconds when needed", () => {
    let pinned = 0;
    for (const o of scene) {
      const q = questions.get(o.questionId)!;
      const color = (q.params as { scene: string }).scene;
      expect(o.reward.acc).toBe(1);
      const reason = /^<think>\n([^]*)\n<\/think>\n<answer>/.exec(assistantTurns(o).at(-1)!)![1]!;
      const quote = reason.replace(/ That is the shape .*$/, "");
      expect(quote.startsWith(`The background is ${color} throughout. `)).toBe(true);
      expect(o.subAgents.some((x) => x.summary.startsWith(quote))).toBe(true);
      if (
        assistantTurns(o).some((t) =>
          t.includes("but its crop also shows another scene, so I will crop its own seconds"),
        )
      )
        pinned++;
    }
    expect(pinned).toBeGreaterThan(0);
  });
});

describe("oracle order trajectories that search through crops only (orderSearch crops)", () => {
  const base = { shapeSentence: "time-first", optionStyle: "text-first" } as const;
  const overviewPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: base } });
  const cropsPlan = planSuite({ seed: 3, count: 40, config: { oracleStyle: { ...base, orderSearch: "crops" } } });
  const isOrder = (o: OracleRow) => questions.get(o.questionId)!.template === "order";
  const order = cropsPlan.oracle.filter(isOrder);
  const cropsQuestions = new Map(cropsPlan.questions.map((q) => [q.id, q]));

  it("change only the order trajectories, and settle every one", () => {
    expect(cropsPlan.questions).toEqual(overviewPlan.questions);
    const other = (p: typeof cropsPlan) => p.oracle.filter((o) => !isOrder(o));
    expect(other(cropsPlan)).toEqual(other(overviewPlan));
    expect(order.length).toBe(overviewPlan.oracle.filter(isOrder).length);
    expect(order.length).toBeGreaterThan(0);
  });

  it("read from 0 s through contiguous windows and answer right by quoting the first sentence that names an option", () => {
    let secondRound = 0;
    for (const o of order) {
      const q = cropsQuestions.get(o.questionId)!;
      expect(assistantTurns(o)[0]).toMatch(
        /^<think>\nTo find which of the four shapes \(.*\) comes first I will look through the video from its start at one frame per second: 0-/,
      );
      const windows = o.rounds.flat();
      expect(windows[0]!.start).toBe(0);
      for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBe(windows[i - 1]!.end);
      if (o.rounds.length > 1) secondRound++;
      expect(o.reward.acc).toBe(1);
      const reason =
        /^<think>\nThe first of the four shapes in my crops: (.*) So the (\w+ \w+) came first \(([A-D])\)\.\n<\/think>\n<answer>([A-D])<\/answer>$/.exec(
          assistantTurns(o).at(-1)!,
        )!;
      expect(reason).not.toBeNull();
      const [, sentence, name, lead, answer] = reason;
      expect(lead).toBe(answer);
      expect(q.options![["A", "B", "C", "D"].indexOf(answer!)]).toBe(name);
      // The quote is word for word a sentence of a summary, and no summary before it names an option.
      const summaries = o.subAgents.map((x) => x.summary);
      const at = summaries.findIndex((x) => x.includes(sentence!));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(sentence!.toLowerCase()).toContain(name!);
      for (const earlier of summaries.slice(0, at)) for (const opt of q.options!) expect(earlier).not.toContain(opt);
      // The same trajectory whatever K: the overview frames take no part in a decision.
      const other = oracleTrajectory(q, videos.get(o.videoId)!, o.k === 8 ? 16 : 8, cropsPlan.config).row!;
      expect(other.turns.slice(1)).toEqual(o.turns.slice(1));
    }
    expect(secondRound).toBeGreaterThan(0);
  });
});

describe("summaries", () => {
  it("state backgrounds, shapes, positions and first/last visible times in MM:SS", () => {
    const times = [58, 59, 60, 61, 62, 63];
    const frames = [
      {
        scene: "gray" as const,
        shape: { shape: "circle" as const, color: "orange" as const, position: "top-left" as const },
      },
      {
        scene: "gray" as const,
        shape: { shape: "circle" as const, color: "orange" as const, position: "top-left" as const },
      },
      { scene: "blue" as const, shape: null },
      {
        scene: "blue" as const,
        shape: { shape: "square" as const, color: "red" as const, position: "center" as const },
      },
      { scene: "blue" as const, shape: null },
      { scene: "blue" as const, shape: null },
    ];
    const text = summarizeFrames(times, frames);
    expect(text).toBe(
      "The background is gray from 00:58 to 00:59 and blue from 01:00 to 01:03. " +
        "An orange circle is in the top-left from 00:58 to 00:59, already visible in the first frame. " +
        "A red square is in the center at 01:01. No other shape appears.",
    );
    expect(parseSummary(text, times)).toEqual(frames);
    expect(summarizeFrames([5], [{ scene: "teal", shape: null }])).toBe(
      "The background is teal throughout. No shape appears in these frames.",
    );
    const one = summarizeFrames(
      [7, 8],
      [
        { scene: "olive", shape: { shape: "cross", color: "white", position: "bottom-right" } },
        { scene: "brown", shape: null },
      ],
    );
    expect(one).toBe(
      "The background is olive at 00:07 and brown at 00:08. " +
        "A white cross is in the bottom-right at 00:07, already visible in the first frame. No other shape appears.",
    );
    expect(parseSummary(one, [7, 8])).toEqual([
      { scene: "olive", shape: { shape: "cross", color: "white", position: "bottom-right" } },
      { scene: "brown", shape: null },
    ]);
    // time-first: the times right after the shape's name; parseSummary reads either order.
    const timeFirst = summarizeFrames(times, frames, "time-first");
    expect(timeFirst).toBe(
      "The background is gray from 00:58 to 00:59 and blue from 01:00 to 01:03. " +
        "An orange circle from 00:58 to 00:59 is in the top-left, already visible in the first frame. " +
        "A red square at 01:01 is in the center. No other shape appears.",
    );
    expect(parseSummary(timeFirst, times)).toEqual(frames);
  });
});

describe("oracle trajectories with time-first shape sentences (shapeSentence time-first)", () => {
  const style = { whenAnswer: "mmss", whenSearch: "crops" } as const;
  const base = planSuite({ seed: 3, count: 40, config: { oracleStyle: style } });
  const timeFirst = planSuite({
    seed: 3,
    count: 40,
    config: { oracleStyle: { ...style, shapeSentence: "time-first" } },
  });
  // Position-first text of a time-first trajectory: the order swapped back, and the `when` answer's wording.
  const swapBack = (text: string) =>
    text
      .replace(/(\w+ \w+) ((?:from \d\d:\d\d to \d\d:\d\d|at \d\d:\d\d)) is in the ([a-z-]+)/g, "$1 is in the $3 $2")
      .replace(
        /The (\w+ \w+) from (\d\d:\d\d) to (\d\d:\d\d) is the one asked about\./,
        "The $1 is visible from $2 to $3.",
      );

  it("take the same decisions: only the shape sentences and the `when` answer's wording change", () => {
    expect(timeFirst.questions).toEqual(base.questions);
    expect(timeFirst.oracle.map((o) => o.rounds)).toEqual(base.oracle.map((o) => o.rounds));
    let changed = 0;
    timeFirst.oracle.forEach((o, i) => {
      const turns = o.turns.map((t) => ({ ...t, content: swapBack(t.content) }));
      expect(turns).toEqual(base.oracle[i]!.turns);
      changed += o.turns.some((t, j) => t.content !== base.oracle[i]!.turns[j]!.content) ? 1 : 0;
    });
    expect(changed).toBeGreaterThan(timeFirst.oracle.length / 2);
  });

  it("answer `when` with the target's name followed by the times a tool response states after it", () => {
    const when = timeFirst.oracle.filter((o) => o.questionType === "tvg");
    expect(when.length).toBeGreaterThan(0);
    for (const o of when) {
      const text = assistantTurns(o).at(-1)!;
      const m = /^<think>\nThe (\w+ \w+) from (\d\d:\d\d) to (\d\d:\d\d) is the one asked about\.\n<\/think>/.exec(
        text,
      )!;
      expect(m).not.toBeNull();
      const responses = o.turns
        .filter((t) => t.role === "user")
        .map((t) => t.content)
        .join("\n");
      // The start is written right after the target's name in a response (an induction copy).
      expect(responses).toMatch(new RegExp(`${m[1]} (?:from ${m[2]} to|at ${m[2]} is)`));
    }
  });
});

describe("scene answers that quote a crop's summary (sceneAnswer: quote)", () => {
  const style = { whenAnswer: "mmss", whenSearch: "crops", shapeSentence: "time-first" } as const;
  const quoted = planSuite({ seed: 3, count: 40, config: { oracleStyle: { ...style, sceneAnswer: "quote" } } });
  const plain = planSuite({ seed: 3, count: 40, config: { oracleStyle: style } });
  const reasonOf = (o: OracleRow) => /^<think>\n([^]*)\n<\/think>\n<answer>/.exec(o.turns.at(-1)!.content)![1]!;

  it("repeat a tool response word for word up to the shape asked about, when a crop shows the scene throughout", () => {
    let quotes = 0;
    quoted.oracle.forEach((o, i) => {
      const p = plain.oracle[i]!;
      const q = questions.get(o.questionId)!;
      expect({ ...o, turns: o.turns.slice(0, -1) }).toEqual({ ...p, turns: p.turns.slice(0, -1) });
      if (reasonOf(o) === reasonOf(p)) return;
      expect(q.template === "scene_color" || q.template === "scene_position").toBe(true);
      const scene = (q.params as { scene: string }).scene;
      const quote = reasonOf(o).replace(/ That is the shape .*$/, "");
      expect(quote.startsWith(`The background is ${scene} throughout. `)).toBe(true);
      expect(o.subAgents.some((a) => a.summary.startsWith(quote))).toBe(true);
      const last = quote.split(/(?<=\.) /).at(-1)!;
      const answer = q.template === "scene_color" ? `${q.answerText} ` : `${o.answer} `;
      expect(last.startsWith(`${/^[aeiou]/.test(answer) ? "An" : "A"} ${answer}`)).toBe(true);
      if (q.template === "scene_position")
        expect(last).toContain(`is in the ${(q.params as { position: string }).position}`);
      quotes++;
    });
    expect(quotes).toBeGreaterThan(20);
  });
});

describe("text-first options (optionStyle: text-first)", () => {
  const textFirst = planSuite({ seed: 3, count: 40, config: { oracleStyle: { optionStyle: "text-first" } } });

  it("list each option as '- text (L)' and name the letter as ' (L)'; change nothing else", () => {
    textFirst.questions.forEach((q, i) => {
      const p = plan.questions[i]!;
      if (q.type !== "mcq") return expect(q).toEqual(p);
      const lines = (o: string[], f: (t: string, l: string) => string) => o.map((t, j) => f(t, "ABCD"[j]!)).join("\n");
      const before = lines(p.options!, (t, l) => `${l}. ${t}`);
      expect(q.question).toBe(
        p.question.replace(
          before,
          lines(p.options!, (t, l) => `- ${t} (${l})`),
        ),
      );
      expect({ ...q, question: p.question }).toEqual(p);
    });
    let leads = 0;
    textFirst.oracle.forEach((o, i) => {
      const p = plan.oracle[i]!;
      const q = questions.get(o.questionId)!;
      const t = textFirst.questions.find((x) => x.id === q.id)!;
      expect(o.turns[0]!.content.replace(t.question, q.question)).toBe(p.turns[0]!.content);
      expect(o.turns.slice(1, -1)).toEqual(p.turns.slice(1, -1));
      const last = o.turns.at(-1)!.content;
      if (q.type !== "mcq") return expect(last).toBe(p.turns.at(-1)!.content);
      expect(last).toContain(` (${o.answer}).\n</think>\n<answer>${o.answer}</answer>`);
      expect(last.replace(` (${o.answer}).\n</think>`, `: option ${o.answer}.\n</think>`)).toBe(
        p.turns.at(-1)!.content,
      );
      leads++;
    });
    expect(leads).toBeGreaterThan(150);
  });
});

describe("coverRuns", () => {
  const covered = (ws: { start: number; end: number }[]) =>
    ws.flatMap((w) => Array.from({ length: w.end - w.start }, (_, i) => w.start + i));

  it("covers a long stretch with the fewest, evenly long windows of at most 16 s", () => {
    const ws = coverRuns([[0, 40]]);
    expect(ws).toHaveLength(3);
    expect(covered(ws)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    const lengths = ws.map((w) => w.end - w.start);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
  });

  it("merges stretches that fit one window and never crops a stray second alone", () => {
    expect(
      coverRuns([
        [3, 8],
        [10, 15],
        [30, 33],
      ]),
    ).toEqual([
      { start: 3, end: 15 },
      { start: 30, end: 33 },
    ]);
    // 17 s from first to last: two windows, each around one stretch, not 16 s + 1 s.
    expect(
      coverRuns([
        [109, 117],
        [118, 126],
      ]),
    ).toEqual([
      { start: 109, end: 117 },
      { start: 118, end: 126 },
    ]);
    expect(coverRuns([])).toEqual([]);
  });
});

describe("oracle on long videos", () => {
  it("is never wrong: it answers only what it settled, and reports the rest as unsettled", () => {
    const long = planSuite({ seed: 5, count: 3, config: { minMinutes: 10, maxMinutes: 12 } });
    expect(long.oracle.length + long.unsettled.length).toBe(long.questions.length * OVERVIEW_KS.length);
    expect(long.unsettled.length).toBeGreaterThan(0);
    const qs = new Map(long.questions.map((q) => [q.id, q]));
    for (const o of long.oracle) {
      const q = qs.get(o.questionId)!;
      expect(computeReward({ completion: completion(o), answer: q.answer, questionType: q.type }).accReward).toBe(1);
    }
    for (const u of long.unsettled) {
      const q = qs.get(u.questionId)!;
      const r = oracleTrajectory(
        q,
        long.videos.find((v) => v.id === q.videoId)!,
        u.k,
        long.config,
      );
      expect(r.row).toBeNull();
      expect(r.rounds).toBe(MAX_TOOL_ROUNDS);
    }
  });
});
