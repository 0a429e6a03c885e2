// The quality bar of a ParaVT-nano checkpoint (issue 6), measured with the real episode runner on a
// held-out needle suite at temperature 0: format compliance (every main-agent turn has balanced
// tags and is either a parseable tool call or a non-empty answer, and the last turn answers) and
// the score by K x with/without tools x question template and type, next to what a blind guess
// scores (chance), and the paired difference with − without tools per K.
//
// "With tools": agentic_general, sub-agent dispatch (the training style, SPEC §1.4), max_turns 3.
// "Without tools": the same prompt with max_turns 0, so the first turn is final (a call written
// then is not dispatched and the episode has no answer).
//
//   npx paravt suite generate --seed 101 --count 10 --out var/suites/heldout
//   npx tsx research/quality/nano-quality.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/heldout --ks 8 [--limit N] [--templates when,count] [--json out.json] \
//     [--trajectories out.jsonl]
//
// --trajectories writes one JSON line per episode (question, answer, score, failure, every turn's
// raw text and calls) for reading what the model actually did.
import { appendFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { extractTimeRange, hasNonemptyAnswer, hasParseableToolCall, tagsBalanced } from "@paravt/protocol";
import { readSuite, SHAPE_COLORS, SHAPES, type VideoAnnotation } from "@paravt/suite";
import { loadCoreNanoEngine, runEpisode, scoreEpisode, videoFrameSampler, type Trajectory } from "@paravt/agent";
import { addLetters, mcqLetter, noLetters } from "./mcq-letters";
import { addOrderQuotes, noOrderQuotes, ORDER_QUOTE_LEAD, orderQuote } from "./order-quotes";
import { addQuotes, noQuotes, sceneQuote } from "./scene-quotes";
import { addClaims, noClaims, overviewClaims } from "./overview-claims";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/heldout" },
    ks: { type: "string", default: "8" },
    limit: { type: "string" },
    templates: { type: "string" },
    json: { type: "string" },
    trajectories: { type: "string" },
  },
});

/**
 * SPEC §2 format ingredients applied per turn: balanced tags, and a call or an answer; the last
 * turn answers. Returns why a trajectory fails (the first failing turn's reason), or null.
 */
export function formatFailure(t: Trajectory): string | null {
  // The error's kind and stage (not its message, which names times and paths) group the failures.
  if (t.status !== "ok") return `episode error (${t.error?.kind ?? "?"} at ${t.error?.stage ?? "?"})`;
  if (t.turns.length === 0) return "no turn";
  for (const turn of t.turns) {
    const text = (turn.forcedPrefix ?? "") + turn.rawText;
    const ok = tagsBalanced(text) && (hasParseableToolCall(text) || hasNonemptyAnswer(text));
    if (ok) continue;
    if (turn.finish === "length") return "ran to max tokens";
    if (!tagsBalanced(text)) return "unbalanced tags";
    return "neither a parseable call nor an answer";
  }
  const last = t.turns[t.turns.length - 1]!;
  return hasNonemptyAnswer((last.forcedPrefix ?? "") + last.rawText) ? null : "last turn does not answer";
}

/**
 * What a sub-agent saw, checked against the video's annotation: its summary's background color
 * ("The background is X", the oracle's phrasing) against the scene at the window's start, and every
 * "color shape" it names against the events overlapping the window (precision), and those events
 * against what it named (recall).
 */
export function perception(summary: string, a: VideoAnnotation, startS: number, endS: number) {
  const scene = a.scenes.find((x) => x.start <= startS && startS < x.end);
  const background = /The background is (\w+)/.exec(summary)?.[1];
  const pair = new RegExp(`\\b(${SHAPE_COLORS.join("|")}) (${SHAPES.join("|")})\\b`, "g");
  const named = new Set([...summary.matchAll(pair)].map((m) => `${m[1]} ${m[2]}`));
  const present = new Set(a.events.filter((e) => e.start < endS && e.end > startS).map((e) => `${e.color} ${e.shape}`));
  return {
    background: background === undefined || !scene ? null : background === scene.color,
    namedRight: [...named].filter((n) => present.has(n)).length,
    named: named.size,
    presentNamed: [...present].filter((p) => named.has(p)).length,
    present: present.size,
  };
}
/**
 * Does the answer copy what the thinking just named? The oracle's `oe` last turns end "… a(n)
 * COLOR SHAPE.\n</think>\n<answer>COLOR SHAPE</answer>"; null when the turn does not. Free-running,
 * so a repeat of a wrong color counts as copied: `research/probes/answer-copy-probe.ts` measures the
 * copy teacher-forced (nano README, "the main agent does not take a color from the text").
 */
export function answerCopiesThinking(text: string): { color: boolean; shape: boolean } | null {
  // The answer may name the shape with an article, "the orange diamond" (SPEC §2 normalization drops it).
  const m = /an? (\w+) (\w+)\.\s*<\/think>\s*<answer>(?:the )?(\w+) (\w+)<\/answer>/.exec(text);
  return m ? { color: m[1] === m[3], shape: m[2] === m[4] } : null;
}

/** A summary time in seconds: "01:59" (the suite's format) or "119 s" (nano README, "Seconds in summaries"). */
function summarySeconds(text: string): number {
  const mm = /^(\d+):(\d\d)$/.exec(text);
  return mm ? Number(mm[1]) * 60 + Number(mm[2]) : Number(text.replace(/ s$/, ""));
}

/**
 * The times a sub-agent states, checked against its frames: for every "A color shape is in the
 * position from X to Y" (or "at X") whose shape is really in the window, is X the first of the
 * window's frames that shows it, and Y the last? Frames at `frameTimes` (seconds).
 */
export function statedTimes(summary: string, a: VideoAnnotation, frameTimes: readonly number[]) {
  const time = "(\\d+:\\d\\d|\\d+ s)";
  // Either word order of the suite's shapeSentence: "… is in the center from X to Y" or "… from X to Y is in …".
  const sentence = new RegExp(
    `(?:A|An) (\\w+) (\\w+) (?:is in the [a-z-]+ )?(?:from ${time} to ${time}|at ${time})`,
    "g",
  );
  const out = { stated: 0, startRight: 0, endRight: 0 };
  for (const m of summary.matchAll(sentence)) {
    const event = a.events.find(
      (e) => e.color === m[1] && e.shape === m[2] && frameTimes.some((t) => t >= e.start && t < e.end),
    );
    if (!event) continue;
    const showing = frameTimes.filter((t) => t >= event.start && t < event.end);
    out.stated++;
    out.startRight += summarySeconds(m[3] ?? m[5]!) === Math.floor(showing[0]!) ? 1 : 0;
    out.endRight += summarySeconds(m[4] ?? m[5]!) === Math.floor(showing[showing.length - 1]!) ? 1 : 0;
  }
  return out;
}

/**
 * How a `when` answer was read and where its times came from: `inAnswer` when the `<answer>` body
 * alone holds a range (not SPEC §4's fallback to the first two numbers of the whole turn, which
 * can score by accident: "from 6 s to 67 s" reads as [6, 67]); `copied` when its start and end are
 * both times the tool responses state for the target ("A cyan square is in the center from 00:56
 * to 01:03" or "at 00:56"; MM:SS or seconds).
 */
export function groundingSource(finalText: string, target: string, responses: readonly string[]) {
  const body = /<answer>([\s\S]*?)<\/answer>/.exec(finalText)?.[1];
  const range = extractTimeRange(finalText);
  const time = "(\\d+:\\d\\d|\\d+ s)";
  const sentence = new RegExp(`(?:A|An) ${target} (?:is in the [a-z-]+ )?(?:from ${time} to ${time}|at ${time})`, "g");
  const stated = responses.flatMap((r) => [...r.matchAll(sentence)]).map((m) => [m[1] ?? m[3]!, m[2] ?? m[3]!]);
  const starts = new Set(stated.map(([a]) => summarySeconds(a!)));
  const ends = new Set(stated.map(([, b]) => summarySeconds(b!)));
  return {
    inAnswer: body !== undefined && extractTimeRange(body) !== null,
    copied: range !== null && starts.has(range[0]) && ends.has(range[1]),
  };
}

/** Per K with tools, over `when` questions: IoU thresholds (SPEC §5 R@0.3/0.5/0.7) and sources. */
const grounding = new Map<
  number,
  {
    n: number;
    r3: number;
    r5: number;
    r7: number;
    inAnswer: number;
    copied: number;
    targetStated: number;
    chanceR5: number;
  }
>();

const copied = { answers: 0, color: 0, shape: 0 };
const times = { stated: 0, startRight: 0, endRight: 0 };
const seen = {
  summaries: 0,
  backgroundRight: 0,
  backgroundStated: 0,
  namedRight: 0,
  named: 0,
  presentNamed: 0,
  present: 0,
};

const suite = await readSuite(values.suite);
const engine = await loadCoreNanoEngine(values.checkpoint);
const frames = videoFrameSampler({ maxErrorS: 0 });
const ks = values.ks.split(",").map(Number);
const templates = values.templates?.split(",");
const questions = suite.questions
  .filter((q) => !templates || templates.includes(q.template))
  .slice(0, values.limit ? Number(values.limit) : undefined);
if (values.trajectories) await writeFile(values.trajectories, "");

/**
 * What a blind guess scores on a question, with the same scorer (scoreEpisode): the mean over
 * every option letter (mcq), every color + shape of the palette (oe, token F1), and 400 random
 * whole-second windows of the suite's event lengths, 2–10 s, inside the video (tvg, hull IoU).
 */
function chanceOf(q: (typeof suite.questions)[number], durationS: number): number {
  const score = (guess: string) =>
    scoreEpisode({ status: "ok", finalText: `<answer>${guess}</answer>` }, { questionType: q.type, answer: q.answer })
      .score ?? 0;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  if (q.type === "mcq") return mean(["A", "B", "C", "D"].slice(0, q.options?.length ?? 4).map(score));
  if (q.type === "oe") return mean(SHAPE_COLORS.flatMap((c) => SHAPES.map((s) => score(`${c} ${s}`))));
  let state = 0x9e3779b9;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return mean(
    Array.from({ length: 400 }, () => {
      const len = 2 + Math.floor(next() * 9);
      const start = Math.floor(next() * (durationS - len + 1));
      return score(`[${start}, ${start + len}]`);
    }),
  );
}

/** tvg only: the share of those random windows with hull IoU >= 0.5 (chance of SPEC §5's R@0.5). */
function chanceR5(q: (typeof suite.questions)[number], durationS: number): number {
  let state = 0x9e3779b9;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let hits = 0;
  for (let i = 0; i < 400; i++) {
    const len = 2 + Math.floor(next() * 9);
    const start = Math.floor(next() * (durationS - len + 1));
    const s = scoreEpisode(
      { status: "ok", finalText: `<answer>[${start}, ${start + len}]</answer>` },
      { questionType: q.type, answer: q.answer },
    );
    hits += (s.score ?? 0) >= 0.5 ? 1 : 0;
  }
  return hits / 400;
}

interface Cell {
  n: number;
  score: number;
  chance: number;
  formatOk: number;
  toolCalls: number;
}
const cells = new Map<string, Cell>();
const add = (key: string, score: number, chance: number, ok: boolean, calls: number) => {
  const c = cells.get(key) ?? { n: 0, score: 0, chance: 0, formatOk: 0, toolCalls: 0 };
  c.n++;
  c.score += score;
  c.chance += chance;
  c.formatOk += ok ? 1 : 0;
  c.toolCalls += calls;
  cells.set(key, c);
};
/** The main agent's first-turn claims about its overview frames (overview-claims.ts), all K, with tools. */
const claims = noClaims();
/** scene_color / order answers (all K, with tools): the option text concluded, and whether the letter is its letter (mcq-letters.ts). */
const letters = noLetters();
/** scene_color / scene_position answers (all K, with tools): rounds, and whether their quote is a tool response's (scene-quotes.ts). */
const quotes = noQuotes();
/** order answers (all K, with tools): rounds, and whether they quote the first response sentence naming an option (order-quotes.ts). */
const orderQuotes = noOrderQuotes();
/** Per K and tools: how many trajectories failed the format, by reason. */
const failures = new Map<string, Map<string, number>>();
/** Per K: each question's score with tools minus without (a paired comparison). */
const paired = new Map<number, Map<string, number>>();

const started = Date.now();
for (const k of ks) {
  for (const tools of [true, false]) {
    for (const q of questions) {
      const video = suite.videos.find((v) => v.id === q.videoId)!;
      const t = await runEpisode({
        engine,
        input: { video: { file: video.path, path: q.video }, question: q.question, questionType: q.type },
        frames,
        config: { mode: "agentic_general", dispatch: "subagent", k, thinkPrefix: true, maxTurns: tools ? 3 : 0 },
      });
      const s = scoreEpisode(t, { questionType: q.type, answer: q.answer });
      for (const call of t.turns.flatMap((turn) => turn.toolCalls)) {
        if (call.subAgentOutput === null || call.startS === null || call.endS === null) continue;
        const p = perception(call.subAgentOutput, video.annotation, call.startS, call.endS);
        seen.summaries++;
        if (p.background !== null) {
          seen.backgroundStated++;
          seen.backgroundRight += p.background ? 1 : 0;
        }
        seen.namedRight += p.namedRight;
        seen.named += p.named;
        seen.presentNamed += p.presentNamed;
        seen.present += p.present;
        const st = statedTimes(call.subAgentOutput, video.annotation, call.frameTimestamps);
        times.stated += st.stated;
        times.startRight += st.startRight;
        times.endRight += st.endRight;
      }
      if (q.type === "tvg" && tools && q.template === "when" && t.status === "ok") {
        const target = `${q.params.target.color} ${q.params.target.shape}`;
        const responses = t.turns.flatMap((turn) => turn.toolCalls.map((c) => c.subAgentOutput ?? ""));
        const src = groundingSource(t.finalText, target, responses);
        const g = grounding.get(k) ?? {
          n: 0,
          r3: 0,
          r5: 0,
          r7: 0,
          inAnswer: 0,
          copied: 0,
          targetStated: 0,
          chanceR5: 0,
        };
        const iou = s.score ?? 0;
        g.n++;
        g.r3 += iou >= 0.3 ? 1 : 0;
        g.r5 += iou >= 0.5 ? 1 : 0;
        g.r7 += iou >= 0.7 ? 1 : 0;
        g.inAnswer += src.inAnswer ? 1 : 0;
        g.copied += src.copied ? 1 : 0;
        g.targetStated += responses.some((r) => new RegExp(` ${target} (?:is in the|from|at) `).test(r)) ? 1 : 0;
        g.chanceR5 += chanceR5(q, video.annotation.durationS);
        grounding.set(k, g);
      }
      const first = t.turns[0];
      if (tools && first) addClaims(claims, overviewClaims(first.rawText, video.annotation, t.overviewTimestamps));
      if (tools) addLetters(letters, mcqLetter(q.template, t.finalText, q.options ?? [], q.answerText));
      if (tools && (q.template === "scene_color" || q.template === "scene_position")) {
        const responses = t.turns.flatMap((turn) => turn.toolCalls.map((c) => c.subAgentOutput ?? ""));
        const rounds = t.turns.filter((turn) => turn.toolCalls.length > 0).length;
        addQuotes(quotes, sceneQuote(q.template, q.params.scene, t.finalText, responses, rounds));
      }
      if (tools && q.template === "order") {
        const responses = t.turns.flatMap((turn) => turn.toolCalls.map((c) => c.subAgentOutput ?? ""));
        const rounds = t.turns.filter((turn) => turn.toolCalls.length > 0).length;
        addOrderQuotes(
          orderQuotes,
          orderQuote(q.template, q.params.options, q.answerText, t.finalText, responses, rounds),
        );
      }
      const copy = q.type === "oe" && tools ? answerCopiesThinking(t.turns.at(-1)?.rawText ?? "") : null;
      if (copy) {
        copied.answers++;
        copied.color += copy.color ? 1 : 0;
        copied.shape += copy.shape ? 1 : 0;
      }
      const calls = t.turns.reduce((n, turn) => n + turn.toolCalls.filter((c) => c.status !== "REJECTED").length, 0);
      const failure = formatFailure(t);
      if (t.status !== "ok") process.stderr.write(`${q.id} K=${k} tools=${tools}: ${t.error?.message ?? "?"}\n`);
      else if (failure && tools) {
        // What broke the format, as the model wrote it: the end of its last turn.
        const tail = (t.turns.at(-1)?.rawText ?? "").slice(-120);
        process.stderr.write(`${q.id} K=${k} tools=${tools}: ${failure}: …${JSON.stringify(tail)}\n`);
      }
      const ok = failure === null;
      if (values.trajectories) {
        const line = {
          question: q.id,
          template: q.template,
          k,
          tools,
          expected: q.answer,
          score: s.score,
          failure,
          trajectory: t,
        };
        await appendFile(values.trajectories, `${JSON.stringify(line)}\n`);
      }
      if (failure) {
        const byReason = failures.get(`${k}|${tools}`) ?? new Map<string, number>();
        byReason.set(failure, (byReason.get(failure) ?? 0) + 1);
        failures.set(`${k}|${tools}`, byReason);
      }
      const chance = chanceOf(q, video.annotation.durationS);
      for (const group of [q.template, `type ${q.type}`, "all"])
        add(`${k}|${tools}|${group}`, s.score ?? 0, chance, ok, calls);
      const diffs = paired.get(k) ?? new Map<string, number>();
      diffs.set(q.id, (diffs.get(q.id) ?? 0) + (tools ? 1 : -1) * (s.score ?? 0));
      paired.set(k, diffs);
    }
    process.stderr.write(
      `K=${k} tools=${tools}: ${questions.length} episodes, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }
}

const rows = [...cells.entries()].map(([key, c]) => {
  const [k, tools, group] = key.split("|");
  return {
    k: Number(k),
    tools: tools === "true",
    group: group!,
    n: c.n,
    score: c.score / c.n,
    chance: c.chance / c.n,
    formatCompliance: c.formatOk / c.n,
    avgToolCalls: c.toolCalls / c.n,
  };
});
const groupOrder = (g: string) => (g === "all" ? 0 : g.startsWith("type ") ? 1 : 2);
console.log("| K | tools | questions | n | score | chance | format compliance | avg tool calls |");
console.log("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows.sort(
  (a, b) =>
    a.k - b.k ||
    Number(b.tools) - Number(a.tools) ||
    groupOrder(a.group) - groupOrder(b.group) ||
    a.group.localeCompare(b.group),
))
  console.log(
    `| ${r.k} | ${r.tools ? "with" : "without"} | ${r.group} | ${r.n} | ${r.score.toFixed(3)} | ${r.chance.toFixed(3)} | ${r.formatCompliance.toFixed(3)} | ${r.avgToolCalls.toFixed(2)} |`,
  );
console.log("\n| K | with − without tools (paired, mean ± standard error) |\n| ---: | --- |");
const comparisons = [...paired.entries()].map(([k, diffs]) => {
  const d = [...diffs.values()];
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1));
  const se = sd / Math.sqrt(d.length);
  console.log(`| ${k} | ${mean.toFixed(3)} ± ${se.toFixed(3)} |`);
  return { k, mean, se };
});
console.log("\n| K | tools | format failures by reason |\n| ---: | --- | --- |");
for (const [key, byReason] of failures) {
  const [k, tools] = key.split("|");
  const reasons = [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r}: ${n}`);
  console.log(`| ${k} | ${tools === "true" ? "with" : "without"} | ${reasons.join("; ")} |`);
}
const ratio = (a: number, b: number) => `${a}/${b} = ${b > 0 ? (a / b).toFixed(3) : "—"}`;
if (grounding.size > 0) {
  console.log(
    "\n| K | `when` with tools | R@0.3 | R@0.5 (chance) | R@0.7 | range in the answer tag | a tool response names the target | answer copies its stated times |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [k, g] of grounding)
    console.log(
      `| ${k} | ${g.n} | ${(g.r3 / g.n).toFixed(3)} | ${(g.r5 / g.n).toFixed(3)} (${(g.chanceR5 / g.n).toFixed(3)}) | ` +
        `${(g.r7 / g.n).toFixed(3)} | ${g.inAnswer}/${g.n} | ${g.targetStated}/${g.n} | ${g.copied}/${g.n} |`,
    );
}
console.log(
  `\nSub-agent perception over ${seen.summaries} summaries (all K, with tools): background color right ` +
    `${ratio(seen.backgroundRight, seen.backgroundStated)}; named "color shape" pairs present in the window ` +
    `${ratio(seen.namedRight, seen.named)}; window events named ${ratio(seen.presentNamed, seen.present)}`,
);
console.log(
  `Sub-agent times: of ${times.stated} shapes named in their window, the first frame showing it is right ` +
    `${ratio(times.startRight, times.stated)}, the last ${ratio(times.endRight, times.stated)}`,
);
console.log(
  `oe answers (with tools) after a thinking that names "color shape": ${copied.answers}; ` +
    `the answer repeats its color ${ratio(copied.color, copied.answers)}, its shape ${ratio(copied.shape, copied.answers)}`,
);
console.log(
  `scene_color / order answers (with tools) that name an option's text: ${letters.stated}; the text is right ` +
    `${ratio(letters.textRight, letters.stated)}, the answer's letter is that text's letter ${ratio(letters.letterMatches, letters.stated)}`,
);
console.log(
  `scene_color / scene_position episodes (with tools): ${quotes.episodes}, ` +
    `${quotes.episodes > 0 ? (quotes.rounds / quotes.episodes).toFixed(2) : "—"} tool rounds each; a tool response shows the ` +
    `asked scene throughout with a shape in ${quotes.quotable}; the answer quotes "The background is <scene> throughout." ` +
    `in ${quotes.quoted}, word for word from a tool response in ${quotes.copied} (${quotes.copiedWhenQuotable} of the ${quotes.quotable})`,
);
console.log(
  `order episodes (with tools): ${orderQuotes.episodes}, ` +
    `${orderQuotes.episodes > 0 ? (orderQuotes.rounds / orderQuotes.episodes).toFixed(2) : "—"} tool rounds each; a tool ` +
    `response names one of the four options in ${orderQuotes.findable}; the answer quotes "${ORDER_QUOTE_LEAD.trim()}" in ` +
    `${orderQuotes.quoted}, a response's sentence word for word in ${orderQuotes.copied}, the first one naming an option in ` +
    `${orderQuotes.first}; it concludes the right shape in ${orderQuotes.right}`,
);
const blind = (c: typeof claims.shape) => (c.stated > 0 ? (c.chance / c.stated).toFixed(3) : "—");
console.log(
  `Main agent's first-turn claims about its overview frames (all K, with tools): "the X background shows at T" right ` +
    `${ratio(claims.background.right, claims.background.stated)} (blind ${blind(claims.background)}); ` +
    `"a color shape at T" right ${ratio(claims.shape.right, claims.shape.stated)} (blind ${blind(claims.shape)})`,
);
if (values.json)
  await writeFile(
    values.json,
    JSON.stringify(
      {
        checkpoint: values.checkpoint,
        suite: values.suite,
        rows,
        comparisons,
        perception: seen,
        subAgentTimes: times,
        answerCopiesThinking: copied,
        overviewClaims: claims,
        mcqLetters: letters,
        sceneQuotes: quotes,
        orderQuotes,
        grounding: Object.fromEntries(grounding),
        formatFailures: Object.fromEntries([...failures].map(([key, m]) => [key, Object.fromEntries(m)])),
      },
      null,
      2,
    ),
  );
await engine.close();
