import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseLine, readCompleteLines } from "./remote/ingest-file";

const dir = path.join(os.tmpdir(), `paravt-ingest-file-${process.pid}`);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const p = path.join(dir, name);
  await fs.writeFile(p, text);
  return p;
}

describe("readCompleteLines", () => {
  it("returns complete lines with byte offsets, CRLF stripped, the unfinished last line as tail", async () => {
    const p = await file("a.jsonl", 'é1\r\n{"b":2}\n{"c":');
    const r = await readCompleteLines(p, 0);
    expect(r.lines).toEqual([
      { text: "é1", end: 5 },
      { text: '{"b":2}', end: 13 },
    ]);
    expect(r).toMatchObject({ tail: '{"c":', more: false, size: 18 });
    // Resuming at an offset starts exactly after that line.
    expect((await readCompleteLines(p, 5)).lines.map((l) => l.text)).toEqual(['{"b":2}']);
  });

  it("reads a chunk at a time, and a line longer than the chunk whole", async () => {
    const long = "x".repeat(50);
    const p = await file("b.jsonl", `aa\nbb\n${long}\ncc\n`);
    const first = await readCompleteLines(p, 0, 4);
    expect(first.lines.map((l) => l.text)).toEqual(["aa"]);
    expect(first.more).toBe(true);
    const second = await readCompleteLines(p, first.lines[0]!.end, 4);
    expect(second.lines.map((l) => l.text)).toEqual(["bb"]);
    // The long line needs a bigger read (doubling from 4 bytes), which also reaches the end.
    const third = await readCompleteLines(p, second.lines[0]!.end, 4);
    expect(third.lines.map((l) => l.text)).toEqual([long, "cc"]);
    expect(third).toMatchObject({ more: false, tail: "" });
  });

  it("refuses a saved offset past the end (a replaced file)", async () => {
    const p = await file("c.jsonl", "a\n");
    await expect(readCompleteLines(p, 10)).rejects.toThrow(/shorter than the saved position/);
  });
});

describe("parseLine", () => {
  it("validates each line with the API's item schemas and says why not", () => {
    expect(parseLine("  ").kind).toBe("blank");
    expect(parseLine('{"type":"metrics","id":"a","step":1,"values":{"kl":0.1}}')).toMatchObject({
      kind: "metrics",
      value: { id: "a", step: 1 },
    });
    expect(parseLine('{"type":"metrics","id":"a","step":-1,"values":{}}')).toMatchObject({ kind: "bad" });
    expect(parseLine('{"type":"nope"}')).toEqual({
      kind: "bad",
      reason: 'unknown type "nope" (run, metrics, rollout or status)',
    });
    expect(parseLine("{oops")).toMatchObject({ kind: "bad", reason: expect.stringMatching(/^not JSON/) });
    expect(parseLine('{"type":"status","status":"SUCCEEDED"}')).toMatchObject({ kind: "status" });
  });
});
