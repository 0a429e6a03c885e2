// The episode API on real Postgres with episodes at the storage cap (issue 37 item 13): every answer
// of evals.episode stays bounded however many 256 Ki-character texts the episode holds, the
// previews say what they clip, the pages of turns and tool calls join into the whole transcript,
// evals.episodeText gives back every stored text exactly, and the final text is stored once.
import { EPISODE_PREVIEW_CHARS, evalRunConfig, mergeEpisodePages, type EvalEpisodeOutput } from "@paravt/shared";
import { db, evals } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "./test-helpers";

/** What the brief promises: one episode answer under half a megabyte. */
const ANSWER_BOUND = 512 * 1024;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Fx = Awaited<ReturnType<typeof projectWithRoleCallers>>;
type Call = evals.ToolCallRecord;
type Turn = evals.TurnRecord;

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** A project with one MCQ sample and one finished eval run on it (parseable by the compare page). */
async function seed(fx: Fx) {
  const projectId = fx.project.id;
  const dataset = await db().dataset.create({ data: { projectId, name: "big" } });
  const sample = await db().sample.create({
    data: {
      datasetId: dataset.id,
      key: "q1",
      question: "Which?",
      options: ["yes", "no"],
      answer: "A",
      questionType: "mcq",
    },
  });
  const model = await db().model.create({
    data: { projectId, name: "m", kind: "OPENAI_COMPATIBLE", config: { baseUrl: "http://127.0.0.1:9/v1" } },
  });
  const config = evalRunConfig.parse({
    group: { id: `grp_${Date.now()}`, name: "big" },
    modelId: model.id,
    datasetId: dataset.id,
    mode: "agentic_general",
    k: 8,
    knobs: {},
    sampleCount: 1,
    shardSize: 1,
  });
  const run = await db().run.create({
    data: { projectId, modelId: model.id, kind: "eval", jobName: "eval.run", name: "big", status: "SUCCEEDED", config },
  });
  return { projectId, runId: run.id, sampleId: sample.id };
}

function call(index: number, over: Partial<Call> = {}): Call {
  return {
    index,
    name: "crop_video",
    arguments: { start_time: index, end_time: index + 1 },
    startS: index,
    endS: index + 1,
    clamped: false,
    frameTimestamps: [index, index + 0.5],
    subAgentOutput: null,
    status: "OK",
    error: null,
    durationMs: 5,
    details: null,
    ...over,
  };
}

function turn(index: number, rawText: string, toolCalls: Call[]): Turn {
  return {
    index,
    rawText,
    forcedPrefix: null,
    forcedFinal: false,
    parsedCalls: [],
    parseIssues: [],
    promptTokens: 10,
    completionTokens: 10,
    timings: { latencyMs: 1, finish: "length", maxTokens: 32768 },
    toolCalls,
  };
}

function record(sampleId: string, turns: Turn[]): evals.EpisodeRecord {
  return {
    sampleId,
    rolloutIndex: 0,
    modelId: null,
    k: 8,
    promptMode: "agentic_general",
    status: "OK",
    error: null,
    // As the episode runner does: the final text is the last turn's text.
    finalText: turns[turns.length - 1]!.rawText,
    prediction: "A",
    score: 1,
    correct: true,
    overviewTimestamps: [0, 1],
    timings: { totalMs: 10 },
    tokenCounts: null,
    details: { engine: "openai" },
    turns,
  };
}

/** Past the storage cap, so the stored text is the capped one with its marker. */
const huge = (label: string) => `${label}-head ${"é".repeat(100)}${"x".repeat(300_000)} ${label}-tail`;

/** Every page of the episode, from the first one down the cursors. */
async function pages(fx: Fx, projectId: string, episodeId: string): Promise<EvalEpisodeOutput[]> {
  const out: EvalEpisodeOutput[] = [];
  let cursor: string | undefined;
  do {
    const page = await fx.asViewer.evals.episode({ projectId, episodeId, ...(cursor ? { cursor } : {}) });
    out.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && out.length < 100);
  return out;
}

/** A whole text through evals.episodeText, page by page. */
async function fullText(
  fx: Fx,
  ref: { projectId: string; episodeId: string; field: string; turn?: number; call?: number; limit?: number },
): Promise<{ text: string; pages: string[] }> {
  const parts: string[] = [];
  let offset: number | null = 0;
  while (offset !== null && parts.length < 1000) {
    const page = await fx.asViewer.evals.episodeText({ ...ref, offset } as Parameters<
      Fx["asViewer"]["evals"]["episodeText"]
    >[0]);
    expect(page.offset).toBe(offset);
    parts.push(page.text);
    offset = page.nextOffset;
  }
  return { text: parts.join(""), pages: parts };
}

describe("evals.episode with texts at the storage cap", () => {
  it("answers in bounded pages of previews that join into the whole transcript", async () => {
    const fx = await projectWithRoleCallers();
    const { projectId, runId, sampleId } = await seed(fx);
    // 6 turns x (raw text + 3 sub-agent outputs) at the cap: ~6 Mi characters stored.
    const turns = Array.from({ length: 6 }, (_, t) =>
      turn(
        t,
        huge(`turn${t}`),
        [0, 1, 2].map((c) => call(c, { subAgentOutput: huge(`turn${t}-call${c}`), details: { response: `r${c}` } })),
      ),
    );
    expect(await evals.storeEpisode(runId, record(sampleId, turns))).toBe(true);
    const row = await db().episode.findFirstOrThrow({
      where: { runId },
      include: { turns: { orderBy: { index: "asc" }, include: { toolCalls: { orderBy: { index: "asc" } } } } },
    });
    const stored = row.turns[2]!.rawText;
    // Capped when stored (256 Ki characters, head and tail around the cap's marker).
    expect(stored.length).toBeLessThanOrEqual(256 * 1024);
    expect(stored.length).toBeGreaterThan(256 * 1024 - 50);
    expect(stored).toMatch(/characters omitted of \d+\]/);

    const all = await pages(fx, projectId, row.id);
    expect(all.length).toBeGreaterThan(1);
    for (const p of all) {
      expect(bytes(p)).toBeLessThan(ANSWER_BOUND);
      expect(p.turnCount).toBe(6);
    }
    expect(all[all.length - 1]!.nextCursor).toBeNull();
    const e = mergeEpisodePages(all);
    expect(e.turns.map((t) => [t.index, t.toolCalls.map((c) => c.index)])).toEqual(
      [0, 1, 2, 3, 4, 5].map((t) => [t, [0, 1, 2]]),
    );
    for (const [i, t] of e.turns.entries()) {
      const full = row.turns[i]!;
      expect(t.clipped).toEqual({ rawText: full.rawText.length });
      expect(t.rawText.length).toBeLessThanOrEqual(EPISODE_PREVIEW_CHARS);
      expect(t.rawText.startsWith(`turn${i}-head é`)).toBe(true);
      expect(t.rawText.endsWith(`turn${i}-tail`)).toBe(true);
      for (const [j, c] of t.toolCalls.entries()) {
        expect(c.clipped).toEqual({ subAgentOutput: full.toolCalls[j]!.subAgentOutput!.length });
        expect(c.subAgentOutput!.endsWith(`turn${i}-call${j}-tail`)).toBe(true);
        expect(c.details).toEqual({ response: `r${j}` });
      }
    }

    // The final text was stored once, in the last turn, and comes back as the episode's.
    expect(row.finalText).toBeNull();
    expect(row.details).toMatchObject({ engine: "openai", finalTextFromTurn: 5 });
    expect(e.clipped).toEqual({ finalText: row.turns[5]!.rawText.length });
    expect(e.finalText).toBe(e.turns[5]!.rawText);

    // The full texts, exactly as stored (the storage cap's own marker included).
    const ref = { projectId, episodeId: row.id };
    const raw = await fullText(fx, { ...ref, field: "rawText", turn: 2 });
    expect(raw.pages.length).toBe(Math.ceil(stored.length / (64 * 1024)));
    expect(raw.text).toBe(stored);
    expect((await fullText(fx, { ...ref, field: "finalText" })).text).toBe(row.turns[5]!.rawText);
    expect((await fullText(fx, { ...ref, field: "subAgentOutput", turn: 4, call: 1 })).text).toBe(
      row.turns[4]!.toolCalls[1]!.subAgentOutput,
    );
    // A JSON field's text is its JSON.
    expect(JSON.parse((await fullText(fx, { ...ref, field: "details", turn: 1, call: 2 })).text)).toEqual({
      response: "r2",
    });

    // Exports keep the whole trajectory.
    const exported = (await fx.asViewer.ingest.episodes({ projectId, runId, limit: 1 })).items[0]!;
    expect(exported.turns[3]!.rawText).toBe(row.turns[3]!.rawText);
    expect(exported.finalText).toBe(row.turns[5]!.rawText);
    expect(exported).toMatchObject({ turnCount: 6, nextCursor: null });
    expect(exported.clipped).toBeUndefined();

    // The comparison page embeds a bounded first page of the episode.
    const compared = await fx.asViewer.evals.compare({ projectId, sampleId, runIds: [runId] });
    expect(bytes(compared)).toBeLessThan(ANSWER_BOUND / 2);
    expect(compared.columns[0]!.episode).toMatchObject({ id: row.id, turnCount: 6 });
  });

  it("splits a turn with thousands of tool calls across pages", async () => {
    const fx = await projectWithRoleCallers();
    const { projectId, runId, sampleId } = await seed(fx);
    // A model looping on one call: every call past max_parallel is stored as REJECTED.
    const calls = Array.from({ length: 1500 }, (_, i) =>
      call(i, {
        arguments: { start_time: i, end_time: i + 1, note: "n".repeat(300) },
        startS: null,
        endS: null,
        frameTimestamps: [],
        status: "REJECTED",
        error: `rejected: at most 5 calls are accepted per turn (SPEC §1.6); this is call ${i + 1}`,
      }),
    );
    await evals.storeEpisode(
      runId,
      record(sampleId, [turn(0, "<tool_call>…", calls), turn(1, "<answer>A</answer>", [])]),
    );
    const episodeId = (await db().episode.findFirstOrThrow({ where: { runId } })).id;

    const all = await pages(fx, projectId, episodeId);
    expect(all.length).toBeGreaterThan(2);
    for (const p of all) expect(bytes(p)).toBeLessThan(ANSWER_BOUND);
    // The second page goes on inside turn 0: the turn is repeated with its remaining calls.
    expect(all[0]!.nextCursor).toMatch(/^0\.\d+$/);
    expect(all[1]!.turns[0]!.index).toBe(0);
    const e = mergeEpisodePages(all);
    expect(e.turns.map((t) => t.index)).toEqual([0, 1]);
    expect(e.turns[0]!.toolCalls.map((c) => c.index)).toEqual(calls.map((c) => c.index));
    expect(e.finalText).toBe("<answer>A</answer>");
    expect(e.clipped).toBeUndefined();
  });

  it("never splits a surrogate pair across text pages, and refuses what names no stored text", async () => {
    const fx = await projectWithRoleCallers();
    const { projectId, runId, sampleId } = await seed(fx);
    const emoji = "a😀".repeat(20); // pairs at odd offsets
    const details = { response: `${"r".repeat(40_000)}-end`, frames: Array.from({ length: 5000 }, (_, i) => i / 2) };
    await evals.storeEpisode(runId, {
      ...record(sampleId, [turn(0, emoji, [call(0, { subAgentOutput: "seen", details })])]),
      finalText: "<answer>A</answer>",
    });
    const episodeId = (await db().episode.findFirstOrThrow({ where: { runId } })).id;
    const ref = { projectId, episodeId };

    // A long JSON field: a preview of the same shape, its JSON's length, and the JSON whole.
    const c = (await fx.asViewer.evals.episode(ref)).turns[0]!.toolCalls[0]!;
    expect(c.clipped).toEqual({ details: JSON.stringify(details).length });
    const preview = c.details as typeof details;
    expect(JSON.stringify(preview).length).toBeLessThanOrEqual(EPISODE_PREVIEW_CHARS + 100);
    expect(preview.response.startsWith("rrr")).toBe(true);
    expect(preview.response.endsWith("r-end")).toBe(true);
    expect(Array.isArray(preview.frames)).toBe(true);
    const whole = await fullText(fx, { ...ref, field: "details", turn: 0, call: 0 });
    expect(JSON.parse(whole.text)).toEqual(details);

    for (const limit of [1, 2, 3, 7]) {
      const { text, pages: parts } = await fullText(fx, { ...ref, field: "rawText", turn: 0, limit });
      expect(text).toBe(emoji);
      for (const part of parts) expect(part).not.toMatch(LONE_SURROGATE);
    }
    // Not the last turn's text: stored as it is.
    const row = await db().episode.findUniqueOrThrow({ where: { id: episodeId } });
    expect(row.finalText).toBe("<answer>A</answer>");
    expect((await fullText(fx, { ...ref, field: "finalText" })).text).toBe("<answer>A</answer>");

    const text = (input: Record<string, unknown>) =>
      fx.asViewer.evals.episodeText({ ...ref, ...input } as Parameters<Fx["asViewer"]["evals"]["episodeText"]>[0]);
    expect(await codeOf(text({ field: "rawText" }))).toBe("BAD_REQUEST"); // a turn's field needs its turn
    expect(await codeOf(text({ field: "finalText", turn: 0 }))).toBe("BAD_REQUEST");
    expect(await codeOf(text({ field: "subAgentOutput", call: 0 }))).toBe("BAD_REQUEST");
    expect(await codeOf(text({ field: "rawText", turn: 9 }))).toBe("NOT_FOUND");
    expect(await codeOf(text({ field: "subAgentOutput", turn: 0, call: 9 }))).toBe("NOT_FOUND");
    expect(await codeOf(text({ field: "error" }))).toBe("NOT_FOUND"); // NULL: no text stored
    expect(await codeOf(text({ field: "rawText", turn: 0, offset: emoji.length + 1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asViewer.evals.episode({ ...ref, cursor: "next" }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOutsider.evals.episodeText({ ...ref, field: "finalText" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOutsider.evals.episode(ref))).toBe("NOT_FOUND");
  });
});
