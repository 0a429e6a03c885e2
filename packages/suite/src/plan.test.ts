import { accReward, normalizeText } from "@paravt/protocol";
import { overviewTimestamps } from "@paravt/video/sampling";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, OVERVIEW_KS, TEMPLATES } from "./config";
import { ALL_APPEARANCES, appearanceName, SHAPE_COLORS, SHAPES } from "./palette";
import { planSuite } from "./plan";
import { AnnotationSchema, QuestionSchema, RlRowSchema, type SuiteQuestion, type VideoAnnotation } from "./schemas";
import { groundTruth, LETTERS, questionStem } from "./templates";
import { evidenceVisibility, formatVisibilityTable, visibilityTable, visibleInOverview } from "./visibility";

// One large plan (no video is rendered): 240 videos, ~720 questions.
const plan = planSuite({ seed: 7, count: 240 });
const annotations = new Map(plan.videos.map((v) => [v.id, v]));
const video = (q: SuiteQuestion) => annotations.get(q.videoId)!;

describe("planSuite: determinism", () => {
  it("gives the same bytes for the same seed and different timelines for another seed", () => {
    const a = planSuite({ seed: 11, count: 5 });
    const b = planSuite({ seed: 11, count: 5 });
    const c = planSuite({ seed: 12, count: 5 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.videos)).not.toBe(JSON.stringify(c.videos));
    expect(JSON.stringify(a.questions)).not.toBe(JSON.stringify(c.questions));
  });

  it("plans video i the same whatever the count (a suite is a prefix of a bigger one)", () => {
    const small = planSuite({ seed: 7, count: 6 });
    expect(JSON.stringify(small.videos)).toBe(JSON.stringify(plan.videos.slice(0, 6)));
    const ids = new Set(small.questions.map((q) => q.id));
    expect(JSON.stringify(small.questions)).toBe(JSON.stringify(plan.questions.filter((q) => ids.has(q.id))));
  });

  it("rejects bad seeds, counts and configs with a clear message", () => {
    expect(() => planSuite({ seed: -1, count: 1 })).toThrow(/seed/);
    expect(() => planSuite({ seed: 1.5, count: 1 })).toThrow(/seed/);
    expect(() => planSuite({ seed: 1, count: 0 })).toThrow(/count/);
    expect(() => planSuite({ seed: 1, count: 1, config: { minMinutes: 5, maxMinutes: 2 } })).toThrow(/maxMinutes/);
    expect(() => planSuite({ seed: 1, count: 1, config: { fps: 5 as 4 } })).toThrow();
    expect(() => planSuite({ seed: 1, count: 1, config: { maxEventS: 40 } })).toThrow(/maxEventS/);
  });
});

describe("annotations", () => {
  it("are valid, tile the video with scenes and keep every event rule", () => {
    const c = DEFAULT_CONFIG;
    for (const a of plan.videos) {
      expect(AnnotationSchema.parse(a)).toEqual(a);
      expect(a.durationS % (64 / c.fps)).toBe(0);
      expect(a.durationS).toBeGreaterThanOrEqual(c.minMinutes * 60);
      expect(a.durationS).toBeLessThanOrEqual(c.maxMinutes * 60);
      for (const [i, s] of a.scenes.entries()) {
        if (a.scenes.length > 1) expect(s.end - s.start).toBeGreaterThanOrEqual(c.minSceneS);
        expect(s.end - s.start).toBeLessThanOrEqual(c.maxSceneS);
        if (i > 0) expect(s.color).not.toBe(a.scenes[i - 1]!.color);
      }
      for (const [i, e] of a.events.entries()) {
        expect(e.end - e.start).toBeGreaterThanOrEqual(c.minEventS);
        expect(e.end - e.start).toBeLessThanOrEqual(c.maxEventS);
        expect(a.scenes.some((s) => e.start >= s.start && e.end <= s.end)).toBe(true);
        if (i > 0) expect(e.start - a.events[i - 1]!.end).toBeGreaterThanOrEqual(c.minGapS);
      }
    }
  });

  it("hold distractors that look like the needles (same color or same shape)", () => {
    let similar = 0;
    let distractors = 0;
    for (const a of plan.videos) {
      const needles = a.events.filter((e) => e.role === "needle");
      for (const d of a.events.filter((e) => e.role === "distractor")) {
        distractors++;
        if (needles.some((n) => n.color === d.color || n.shape === d.shape)) similar++;
      }
    }
    expect(distractors).toBeGreaterThan(plan.videos.length * 3);
    expect(similar / distractors).toBeGreaterThan(0.6);
  });
});

describe("questions", () => {
  it("are valid and their answers are the ground truth recomputed from the annotation", () => {
    expect(plan.questions.length).toBeGreaterThan(plan.videos.length * 2.9);
    expect(plan.dropped).toBeLessThan(plan.questions.length * 0.01);
    for (const q of plan.questions) {
      expect(QuestionSchema.parse(q)).toEqual(q);
      const gt = groundTruth(q, video(q))!;
      expect(gt.answerText).toBe(q.answerText);
      expect(q.answer).toBe(q.options ? LETTERS[q.options.indexOf(gt.answerText)] : gt.answerText);
      expect(q.evidence).toEqual(gt.evidence.map((e) => e.id));
      // Scoring the ground truth with the protocol's reward gives full accuracy.
      expect(accReward(q.answer, q.answer, q.type, "f1")).toBe(1);
    }
  });

  it("cover every template and question type, with mcq options formatted A-D", () => {
    for (const t of TEMPLATES) expect(plan.questions.filter((q) => q.template === t).length).toBeGreaterThan(100);
    for (const q of plan.questions.filter((x) => x.type === "mcq")) {
      const lines = q.question.split("\n");
      expect(lines.slice(1, 5)).toEqual(q.options!.map((o, i) => `${LETTERS[i]}. ${o}`));
      expect(new Set(q.options).size).toBe(4);
    }
    for (const q of plan.questions.filter((x) => x.type === "tvg")) expect(q.answer).toMatch(/^\[\d+, \d+\]$/);
    for (const q of plan.questions.filter((x) => x.type === "oe")) expect(q.answer).toMatch(/^[a-z]+ [a-z]+$/);
  });

  it("spread mcq answer letters, counts and colors evenly", () => {
    const share = (xs: readonly string[], x: string) => xs.filter((y) => y === x).length / xs.length;
    for (const t of ["scene_color", "count", "order"] as const) {
      const letters = plan.questions.filter((q) => q.template === t).map((q) => q.answer);
      for (const l of LETTERS) expect(Math.abs(share(letters, l) - 0.25)).toBeLessThan(0.04);
    }
    const colorAnswers = plan.questions.filter((q) => q.template === "scene_color").map((q) => q.answerText);
    const oeColors = plan.questions.filter((q) => q.type === "oe").map((q) => q.answerText.split(" ")[0]!);
    const oeShapes = plan.questions.filter((q) => q.type === "oe").map((q) => q.answerText.split(" ")[1]!);
    for (const c of SHAPE_COLORS) {
      expect(Math.abs(share(colorAnswers, c) - 1 / 6)).toBeLessThan(0.04);
      expect(Math.abs(share(oeColors, c) - 1 / 6)).toBeLessThan(0.04);
    }
    for (const s of SHAPES) expect(Math.abs(share(oeShapes, s) - 1 / 5)).toBeLessThan(0.04);
  });

  it("cannot be answered from their text: text-only baselines score near chance on held-out videos", () => {
    const half = plan.videos[plan.videos.length / 2]!.id;
    const train = plan.questions.filter((q) => q.videoId < half);
    const test = plan.questions.filter((q) => q.videoId >= half);
    const mostCommon = (xs: readonly string[]) => {
      const n = new Map<string, number>();
      for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
      return [...n.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
    };
    const score = (q: SuiteQuestion, prediction: string) => accReward(prediction, q.answer, q.type, "f1");
    // Baseline 1: the most common answer text for the same question stem (else for the template).
    // Baseline 2: the most common answer letter / text of the template. Baseline 3 (mcq): the longest option.
    const baselines: Record<string, (q: SuiteQuestion) => string> = {
      stem: (q) => {
        const same = train.filter((t) => t.template === q.template && questionStem(t) === questionStem(q));
        const pool = same.length > 0 ? same : train.filter((t) => t.template === q.template);
        const text = mostCommon(pool.map((t) => t.answerText));
        return q.options ? (LETTERS[q.options.indexOf(text)] ?? "A") : text;
      },
      template: (q) => mostCommon(train.filter((t) => t.template === q.template).map((t) => t.answer)),
      longest: (q) =>
        q.options ? LETTERS[q.options.indexOf([...q.options].sort((a, b) => b.length - a.length)[0]!)]! : "",
    };
    // Chance: the mean score of a uniform guess (a letter; a look, which token F1 gives half
    // credit for a right color or shape; no tvg guess overlaps a random interval much).
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const oe = test.filter((q) => q.type === "oe");
    const chance = {
      mcq: 0.25,
      oe: mean(oe.map((q) => mean(ALL_APPEARANCES.map((a) => score(q, appearanceName(a)))))),
      tvg: 0,
    };
    expect(chance.oe).toBeCloseTo(5.5 / 30, 2);
    for (const [name, predict] of Object.entries(baselines)) {
      for (const type of ["mcq", "oe", "tvg"] as const) {
        const qs = test.filter((q) => q.type === type);
        const acc = mean(qs.map((q) => score(q, predict(q))));
        expect(acc, `${name} baseline on ${type}`).toBeLessThan(chance[type] + 0.07);
      }
    }
  });

  it("never contain their answer in the question stem", () => {
    for (const q of plan.questions.filter((x) => x.type !== "tvg")) {
      const stem = normalizeText(questionStem(q));
      if (q.template === "count") continue; // options are numbers; the stem names the counted shape
      expect(` ${stem} `).not.toContain(` ${normalizeText(q.answerText)} `);
    }
  });

  it("produce SPEC §6 RL rows with a <video> marker, the video and {answer, question_type}", () => {
    expect(plan.rl).toHaveLength(plan.questions.length);
    plan.rl.forEach((r, i) => {
      const q = plan.questions[i]!;
      expect(RlRowSchema.parse(r)).toEqual(r);
      expect(r.prompt[0]!.content.startsWith("<video>\n")).toBe(true);
      expect(r.prompt[0]!.content).toContain(q.question);
      expect(r.prompt[0]!.content).toContain(q.video);
      expect(r.videos).toEqual([{ video: q.video }]);
      expect(r.extra_info).toEqual({ answer: q.answer, question_type: q.type });
    });
  });
});

describe("visibility in the overview", () => {
  const a = (events: [number, number][]): VideoAnnotation => ({
    generatorVersion: 1,
    id: "v1",
    file: "videos/v1.mp4",
    durationS: 64,
    fps: 4,
    width: 192,
    height: 108,
    scenes: [{ index: 0, start: 0, end: 64, color: "blue" }],
    events: events.map(([start, end], i) => ({
      id: `e${i}`,
      start,
      end,
      shape: "circle",
      color: "red",
      position: "center",
      role: "needle",
    })),
  });

  it("counts an event visible when an overview timestamp falls in [start, end)", () => {
    // K = 4 of 64 s samples 0, 16, 32, 48.
    expect(visibleInOverview({ start: 16, end: 18 }, 64, 4)).toBe(true);
    expect(visibleInOverview({ start: 14, end: 16 }, 64, 4)).toBe(false);
    expect(visibleInOverview({ start: 17, end: 27 }, 64, 4)).toBe(false);
    expect(visibleInOverview({ start: 17, end: 27 }, 64, 8)).toBe(true);
    const v = a([
      [10, 12],
      [40, 42],
    ]);
    expect(evidenceVisibility(v.events, 64)).toEqual({ 4: false, 8: false, 16: false, 32: true, 64: true });
    expect(evidenceVisibility([v.events[1]!], 64)).toEqual({ 4: false, 8: true, 16: true, 32: true, 64: true });
  });

  it("matches the stored visibleAtK of every question and never decreases with K", () => {
    for (const q of plan.questions) {
      const v = video(q);
      const evidence = q.evidence.map((id) => v.events.find((e) => e.id === id)!);
      for (const k of OVERVIEW_KS) {
        const direct = evidence.every((e) => overviewTimestamps(v.durationS, k).some((t) => t >= e.start && t < e.end));
        expect(q.visibleAtK[k]).toBe(direct);
      }
      OVERVIEW_KS.slice(1).forEach((k, i) => {
        if (q.visibleAtK[OVERVIEW_KS[i]!]) expect(q.visibleAtK[k]).toBe(true);
      });
    }
  });

  it("leaves most questions to crops at small K and some answerable at K = 64 (default config)", () => {
    const all = plan.visibility.find((r) => r.group === "all")!;
    expect(all.questions).toBe(plan.questions.length);
    expect(all.visible[4]).toBeLessThan(0.3);
    expect(all.visible[8]).toBeLessThan(0.5);
    expect(all.visible[64]).toBeGreaterThan(0.5);
    expect(all.noCrop[64]).toBeGreaterThan(0.3);
    expect(all.noCrop[4]).toBeLessThan(all.noCrop[64]);
  });

  it("reports shares per group and renders them as a Markdown table", () => {
    const qs = plan.questions.slice(0, 12);
    const noCrop = new Map(qs.map((q) => [q.id, { 4: true, 64: false }]));
    const rows = visibilityTable(qs, noCrop);
    const all = rows[0]!;
    expect(all.group).toBe("all");
    expect(all.noCrop[4]).toBe(1);
    expect(all.noCrop[64]).toBe(0);
    expect(all.noCrop[8]).toBe(0);
    expect(all.visible[16]).toBeCloseTo(qs.filter((q) => q.visibleAtK[16]).length / qs.length);
    const byType = rows.filter((r) => r.group.startsWith("type ")).reduce((n, r) => n + r.questions, 0);
    expect(byType).toBe(qs.length);
    const md = formatVisibilityTable(rows);
    expect(md.split("\n")).toHaveLength(rows.length + 2);
    expect(md).toContain("| all | 12 |");
  });
});
