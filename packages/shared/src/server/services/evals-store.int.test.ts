// storeEpisode against the real Postgres (issue 37 items 1 and 13): outputs Postgres cannot hold
// as produced (NUL, lone surrogates, a value out of range) and outputs too large to serve.
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { STORED_TEXT_MAX_CHARS } from "../storable-text";
import { storeEpisode, type EpisodeRecord } from "./evals-store";

async function runWithSample() {
  const fx = await createProjectWithRoles(db());
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "store" } });
  const sample = await db().sample.create({
    data: { datasetId: dataset.id, key: "q1", question: "Which?", answer: "A", questionType: "mcq" },
  });
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind: "eval", jobName: "eval.run", name: "store", status: "RUNNING" },
  });
  return { runId: run.id, sampleId: sample.id };
}

function record(sampleId: string, over: Partial<EpisodeRecord> = {}): EpisodeRecord {
  return {
    sampleId,
    rolloutIndex: 0,
    modelId: null,
    k: 4,
    promptMode: "agentic_general",
    status: "OK",
    error: null,
    finalText: "<answer>A</answer>",
    prediction: "A",
    score: 1,
    correct: true,
    overviewTimestamps: [0, 1],
    timings: { totalMs: 5 },
    tokenCounts: null,
    details: { engine: "openai" },
    turns: [],
    ...over,
  };
}

const stored = (runId: string) =>
  db().episode.findFirstOrThrow({
    where: { runId },
    include: { turns: { include: { toolCalls: true }, orderBy: { index: "asc" } } },
  });

describe("storeEpisode", () => {
  it("stores NUL bytes and lone surrogates (texts, JSON values and keys) as literal escapes, and says so", async () => {
    const { runId, sampleId } = await runWithSample();
    const nasty = "a\u0000b\ud800c\udc00d\ud83d\ude00e"; // the last pair is a real emoji: kept
    const ok = await storeEpisode(
      runId,
      record(sampleId, {
        finalText: nasty,
        details: { engine: "openai", note: "x\u0000" },
        turns: [
          {
            index: 0,
            // Not the final text (that one would be stored once, in the turn).
            rawText: `think ${nasty}`,
            forcedPrefix: null,
            forcedFinal: false,
            parsedCalls: [{ name: "crop_video", arguments: { "k\u0000": "v\udfff" } }],
            parseIssues: [],
            promptTokens: 1,
            completionTokens: 1,
            timings: null,
            toolCalls: [
              {
                index: 0,
                name: "crop\u0000",
                arguments: { q: "\u0000" },
                startS: 0,
                endS: 1,
                clamped: false,
                frameTimestamps: [0],
                subAgentOutput: "saw\u0000",
                status: "OK",
                error: null,
                durationMs: 3,
                details: { response: "r\ud800" },
              },
            ],
          },
        ],
      }),
    );
    expect(ok).toBe(true);
    const e = await stored(runId);
    const escaped = "a\\u0000b\\ud800c\\udc00d\ud83d\ude00e";
    expect(e.status).toBe("OK");
    expect(e.finalText).toBe(escaped);
    expect(e.turns[0]!.rawText).toBe(`think ${escaped}`);
    expect(e.turns[0]!.parsedCalls).toEqual([{ name: "crop_video", arguments: { "k\\u0000": "v\\udfff" } }]);
    const call = e.turns[0]!.toolCalls[0]!;
    expect(call).toMatchObject({ name: "crop\\u0000", subAgentOutput: "saw\\u0000", arguments: { q: "\\u0000" } });
    expect(call.details).toEqual({ response: "r\\ud800" });
    const details = e.details as { engine: string; note: string; sanitized: Record<string, unknown> };
    expect(details.engine).toBe("openai");
    expect(details.note).toBe("x\\u0000");
    expect(details.sanitized).toMatchObject({ escapedCount: 9, truncatedCount: 0, truncated: [] });
    expect(details.sanitized.escaped).toEqual(
      expect.arrayContaining([
        "finalText",
        "turns[0].rawText",
        "turns[0].parsedCalls[0].arguments{key}",
        "turns[0].toolCalls[0].name",
        "details.note",
      ]),
    );
  });

  it("caps a 20 MB output and stores it once: head and tail kept, the original size recorded", async () => {
    const { runId, sampleId } = await runWithSample();
    const huge = `HEAD-${"x".repeat(20 * 1024 * 1024)}-TAIL`;
    await storeEpisode(
      runId,
      record(sampleId, {
        finalText: huge,
        turns: [
          {
            index: 0,
            rawText: huge,
            forcedPrefix: null,
            forcedFinal: false,
            parsedCalls: [],
            parseIssues: [],
            promptTokens: 1,
            completionTokens: 1,
            timings: null,
            toolCalls: [],
          },
        ],
      }),
    );
    const e = await stored(runId);
    const text = e.turns[0]!.rawText;
    expect(text.length).toBeLessThanOrEqual(STORED_TEXT_MAX_CHARS);
    expect(text.length).toBeGreaterThan(STORED_TEXT_MAX_CHARS - 100);
    expect(text.startsWith("HEAD-xxx")).toBe(true);
    expect(text.endsWith("xxx-TAIL")).toBe(true);
    expect(text).toMatch(new RegExp(`characters omitted of ${huge.length}\\]`));
    // The final text is the last turn's text (as the episode runner makes it): not stored again.
    expect(e.finalText).toBeNull();
    const details = e.details as {
      finalTextFromTurn: number;
      sanitized: { truncated: unknown[]; truncatedCount: number };
    };
    expect(details.finalTextFromTurn).toBe(0);
    expect(details.sanitized.truncatedCount).toBe(1);
    expect(details.sanitized.truncated).toEqual([
      { field: "turns[0].rawText", originalChars: huge.length, keptChars: text.length },
    ]);
  });

  it("stores a sample whose values Postgres still refuses as an ERROR episode with the reason", async () => {
    const { runId, sampleId } = await runWithSample();
    // tool_calls.duration_ms is an int4: a runner that measured 10^12 ms cannot be stored as is.
    const ok = await storeEpisode(
      runId,
      record(sampleId, {
        turns: [
          {
            index: 0,
            rawText: "<answer>A</answer>",
            forcedPrefix: null,
            forcedFinal: false,
            parsedCalls: [],
            parseIssues: [],
            promptTokens: 1,
            completionTokens: 1,
            timings: null,
            toolCalls: [
              {
                index: 0,
                name: "crop_video",
                arguments: {},
                startS: 0,
                endS: 1,
                clamped: false,
                frameTimestamps: [],
                subAgentOutput: null,
                status: "OK",
                error: null,
                durationMs: 1e12,
                details: null,
              },
            ],
          },
        ],
      }),
    );
    expect(ok).toBe(true);
    const e = await stored(runId);
    expect(e).toMatchObject({ status: "ERROR", correct: null, prediction: null, finalText: null, turns: [] });
    expect(e.error).toMatch(/^The episode could not be stored: the database refused one of its values/);
    expect(e.error).not.toMatch(/out of range|integer|duration/i); // no driver message
    // Stored once: a second store of the same sample is the usual duplicate.
    expect(await storeEpisode(runId, record(sampleId))).toBe(false);
  });
});
