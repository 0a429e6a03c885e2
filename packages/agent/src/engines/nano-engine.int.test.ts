// NanoEngine on the committed default checkpoint (C++ core) and the rendering contract: what the
// runner sends, converted for nano, is token for token the training format of the suite's oracle.
import { fileURLToPath } from "node:url";
import {
  buildSequence,
  defaultTokenizer,
  generate,
  loadCheckpoint,
  mainAgentTurns,
  subAgentTurns,
  THINK_PREFIX,
  videoFrameSource,
} from "@paravt/nano";
import type { OracleRow } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoFrameSampler } from "../frame-sampler";
import { runEpisode } from "../runner";
import { scoreEpisode } from "../scoring";
import { ScriptedEngine, textOf, timeless, writeTinySuite } from "../test-support";
import { TrajectorySchema, type Trajectory } from "../trajectory";
import type { ChatMessage } from "../types";
import { loadCoreNanoEngine, type CoreNanoBackend } from "./core-backend";
import { loadOrtNanoEngine } from "./ort-backend";
import type { NanoEngine } from "./nano-engine";
import { chatToNanoContent, ThumbnailCache, toNanoTurns } from "./nano-messages";

const CHECKPOINT = fileURLToPath(new URL("../../../nano/checkpoints/default", import.meta.url));
const tok = defaultTokenizer();
let suite: Awaited<ReturnType<typeof writeTinySuite>>;
let engine: NanoEngine;
const sampler = videoFrameSampler({ maxErrorS: 0 }); // exact frames, as the nano trainer decodes

beforeAll(async () => {
  suite = await writeTinySuite();
  engine = await loadCoreNanoEngine(CHECKPOINT);
});
afterAll(async () => suite?.cleanup());

const nanoIds = (messages: readonly ChatMessage[]) => {
  const { turns } = toNanoTurns(messages.map(chatToNanoContent), new ThumbnailCache({ width: 48, height: 27 }));
  return buildSequence(tok, turns);
};

/** Replays an oracle row through the runner (scripted main agent and sub-agents). */
async function replay(row: OracleRow) {
  const said = row.turns.filter((t) => t.role === "assistant").map((t) => t.content.slice(THINK_PREFIX.length));
  const main = new ScriptedEngine((_r, i) => said[i] ?? "");
  const sub = new ScriptedEngine((r) => {
    const m = /from (\d\d):(\d\d) to (\d\d):(\d\d)/.exec(textOf(r.messages[0]))!;
    const [a, b] = [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
    return row.subAgents.find((s) => s.start === a && s.end === b)!.summary;
  });
  const q = suite.plan.questions.find((x) => x.id === row.questionId)!;
  const t = await runEpisode({
    engine: main,
    subAgentEngine: sub,
    input: {
      video: { file: `${suite.dir}/${row.video}`, path: row.video },
      question: q.question,
      questionType: q.type,
    },
    frames: sampler,
    config: { k: row.k, thinkPrefix: true, promptPreset: "nano" },
  });
  return { t, main, sub, said };
}

describe("rendering = training format", () => {
  it("every oracle trajectory replayed through the runner renders to the SFT sequence, main agent and sub-agents", async () => {
    // Every row of the tiny suite: K = 4..64, no tool round, one call, several calls in parallel.
    const picked = suite.plan.oracle;
    expect(picked.some((r) => r.rounds.some((c) => c.length > 1))).toBe(true);
    expect(picked.some((r) => r.rounds.length === 0)).toBe(true);
    for (const row of picked) {
      const { t, main, sub, said } = await replay(row);
      expect(t.status).toBe("ok");
      expect(t.overviewTimestamps).toEqual(row.overviewTimestamps);
      expect(t.turns.map((x) => x.rawText)).toEqual(said);
      expect(t.turns.flatMap((x) => x.toolCalls.map((c) => [c.startS, c.endS]))).toEqual(
        row.rounds.flat().map((c) => [c.start, c.end]),
      );
      const last = main.requests.at(-1)!;
      const ours = nanoIds([...last.messages, { role: "assistant", content: THINK_PREFIX + said.at(-1)! }]);
      const theirs = buildSequence(tok, mainAgentTurns(row, { thinkPrefix: true }));
      expect(Array.from(ours.ids)).toEqual(Array.from(theirs.ids));
      expect(ours.frames.map((f) => f.t)).toEqual(theirs.frames.map((f) => f.t));
      // Each sub-agent request + its summary = the sub-agent SFT example.
      expect(sub.requests).toHaveLength(row.subAgents.length);
      sub.requests.forEach((r, i) => {
        const s = row.subAgents[i]!;
        const seq = nanoIds([...r.messages, { role: "assistant", content: s.summary }]);
        expect(Array.from(seq.ids)).toEqual(Array.from(buildSequence(tok, subAgentTurns(s)).ids));
      });
    }
  });
});

describe("NanoEngine (C++ core) end to end", () => {
  it("runs every question of the suite video; turn 1 equals nano's generate() on the training prompt", async () => {
    const ckpt = await loadCheckpoint(CHECKPOINT);
    const frames = videoFrameSource(suite.dir, ckpt.config.thumbnail);
    const k = 16;
    const trajectories: Trajectory[] = [];
    for (const q of suite.plan.questions) {
      const t = await runEpisode({
        engine,
        input: {
          video: { file: `${suite.dir}/${q.video}`, path: q.video },
          question: q.question,
          questionType: q.type,
        },
        frames: sampler,
        config: { k, thinkPrefix: true, maxTokens: 256, subAgentMaxTokens: 256 },
      });
      expect(t.status).toBe("ok");
      expect(TrajectorySchema.parse(JSON.parse(JSON.stringify(t)))).toEqual(t);
      // The default checkpoint's tokenizer has time pieces (version 2).
      expect(t).toMatchObject({ promptPreset: "nano", tokenCounter: expect.stringMatching(/^nano tokenizer v2 /) });
      trajectories.push(t);

      // The same first turn straight from nano, on its own training rendering and frame pipeline.
      const row = suite.plan.oracle.find((r) => r.questionId === q.id && r.k === k)!;
      const direct = await generate({
        model: (engine.backend as CoreNanoBackend).model,
        config: ckpt.config,
        tokenizer: ckpt.tokenizer,
        frames,
        turns: mainAgentTurns(row).slice(0, 1),
        forcedPrefix: THINK_PREFIX,
        maxTokens: 256,
      });
      expect(t.turns[0]!.rawText).toBe(direct.text);
      expect(t.turns[0]!.promptTokens).toBe(direct.promptTokens);
      expect(t.turns[0]!.completionTokens).toBe(direct.ids.length);
      const s = scoreEpisode(t, { questionType: q.type, answer: q.answer });
      expect(s.status).toBe("ok");
      expect(s.score).not.toBeNull();
    }
    // Greedy decoding is deterministic: a second run is the same trajectory.
    const q = suite.plan.questions[0]!;
    const again = await runEpisode({
      engine,
      input: { video: { file: `${suite.dir}/${q.video}`, path: q.video }, question: q.question, questionType: q.type },
      frames: sampler,
      config: { k, thinkPrefix: true, maxTokens: 256, subAgentMaxTokens: 256 },
    });
    expect(timeless(again)).toEqual(timeless(trajectories[0]!));
  });

  it("on onnxruntime (the eval jobs' backend): the same trajectories as on the core, sub-agent batches included", async () => {
    const ort = await loadOrtNanoEngine(CHECKPOINT);
    try {
      expect(ort.description).toMatch(/onnxruntime/);
      for (const q of suite.plan.questions) {
        const run = (e: NanoEngine) =>
          runEpisode({
            engine: e,
            input: {
              video: { file: `${suite.dir}/${q.video}`, path: q.video },
              question: q.question,
              questionType: q.type,
            },
            frames: sampler,
            config: { k: 16, thinkPrefix: true, maxTokens: 256, subAgentMaxTokens: 128 },
          });
        const [onCore, onOrt] = [await run(engine), await run(ort)];
        expect(onOrt.status).toBe("ok");
        expect(timeless(onOrt)).toEqual({
          ...(timeless(onCore) as object),
          engine: expect.stringMatching(/onnxruntime/),
          subAgentEngine: expect.stringMatching(/onnxruntime/),
        });
      }
    } finally {
      await ort.close();
    }
  });

  it("as the sub-agent: the calls of a turn go to nano in one batch and each summary equals generate() on the sub-agent training prompt", async () => {
    const ckpt = await loadCheckpoint(CHECKPOINT);
    const frames = videoFrameSource(suite.dir, ckpt.config.thumbnail);
    const row = suite.plan.oracle.find((r) => r.rounds.some((c) => c.length > 2))!;
    const said = row.turns.filter((t) => t.role === "assistant").map((t) => t.content.slice(THINK_PREFIX.length));
    const main = new ScriptedEngine((_r, i) => said[i] ?? "");
    const batches: number[] = [];
    const backend = engine.backend;
    const counting = {
      ...engine,
      description: engine.description,
      tokenCounter: engine.tokenCounter,
      promptPreset: engine.promptPreset,
      complete: (reqs: Parameters<NanoEngine["complete"]>[0], o?: Parameters<NanoEngine["complete"]>[1]) => {
        batches.push(reqs.length);
        return engine.complete(reqs, o);
      },
      close: async () => {},
    };
    const q = suite.plan.questions.find((x) => x.id === row.questionId)!;
    const t = await runEpisode({
      engine: main,
      subAgentEngine: counting,
      // The summary is cut in the MAIN agent's tokens; the scripted main agent has none, so say which.
      tokenCounter: engine.tokenCounter,
      input: {
        video: { file: `${suite.dir}/${row.video}`, path: row.video },
        question: q.question,
        questionType: q.type,
      },
      frames: sampler,
      config: { k: row.k, thinkPrefix: true, promptPreset: "nano", subAgentMaxTokens: 200 },
    });
    expect(t.status).toBe("ok");
    const calls = t.turns.flatMap((x) => x.toolCalls);
    expect(calls.length).toBe(row.subAgents.length);
    expect(batches).toEqual(row.rounds.map((c) => c.length));
    for (const [i, c] of calls.entries()) {
      const direct = await generate({
        model: (backend as CoreNanoBackend).model,
        config: ckpt.config,
        tokenizer: ckpt.tokenizer,
        frames,
        turns: subAgentTurns(row.subAgents[i]!).slice(0, 1),
        maxTokens: 200,
      });
      expect(c).toMatchObject({ status: "OK", subAgentOutput: direct.text });
      expect(c.tokens).toMatchObject({ prompt: direct.promptTokens, completion: direct.ids.length });
      expect(c.tokens!.summary).toBe(ckpt.tokenizer.encode(direct.text).length);
    }
  });
});
