// The follower's loop on an in-memory API (fixtures/memory-api.ts answers like the server):
// a growing source read twice, a restart, a crash between the spool and the saved position,
// a follow that stops by itself at the source's end.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { arealConverter } from "./areal";
import { MemoryApi } from "./fixtures/memory-api";
import { follow } from "./follow";
import { rolloutDefaultsSchema } from "./options";
import { Spool, spoolDirOf } from "./spool";
import { verlConverter } from "./verl";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const tmp = path.join(os.tmpdir(), `paravt-follow-loop-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));
const defaults = rolloutDefaultsSchema.parse({ settleMs: 0 });

describe("follow", () => {
  it("uploads a growing verl run once, across reads and restarts", async () => {
    const src = path.join(tmp, "verl", "rollouts");
    const root = path.join(tmp, "state-verl");
    await fs.mkdir(src, { recursive: true });
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "1.jsonl"), path.join(src, "1.jsonl"));
    const api = new MemoryApi();
    const log: string[] = [];
    const run = () =>
      follow({
        converter: verlConverter({ ...defaults, source: src, log: () => {} }),
        api,
        once: true,
        root,
        log: (m) => log.push(m),
      });

    const first = await run();
    expect(first.upload.counts).toMatchObject({ stored: 4, duplicate: 0 });
    expect([...api.runs.values()]).toEqual([
      { runId: "run-1", name: "verl rollouts", config: { verl: { rolloutDataDir: path.resolve(src) } } },
    ]);
    // Nothing new: nothing sent.
    const callsBefore = api.calls;
    expect((await run()).upload.counts).toMatchObject({ stored: 4, duplicate: 0 });
    expect(api.calls).toBe(callsBefore);

    // The trainer writes step 2; a restarted follower picks up from there.
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "2.jsonl"), path.join(src, "2.jsonl"));
    const third = await run();
    expect(third.upload.counts).toMatchObject({ stored: 6, duplicate: 0 });
    expect(third.upload.runId).toBe("run-1");
    expect(api.storedRollouts.size).toBe(6);
    expect(api.runs.size).toBe(1);
  });

  it("derives the same lines again after a crash before its position was saved: duplicates, nothing twice", async () => {
    const src = path.join(tmp, "verl2", "rollouts");
    const root = path.join(tmp, "state-verl2");
    await fs.mkdir(src, { recursive: true });
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "1.jsonl"), path.join(src, "1.jsonl"));
    const api = new MemoryApi();
    const converter = () => verlConverter({ ...defaults, source: src, log: () => {} });
    await follow({ converter: converter(), api, once: true, root, log: () => {} });
    const spool = new Spool(spoolDirOf(root, "verl", path.resolve(src)));
    const saved = (await spool.load())!;
    // The crash: the source position goes back to before step 1, and half a line is left in the spool.
    await spool.save({ ...saved, state: { lastStep: -1, metrics: null } });
    await fs.appendFile(spool.file, '{"type":"rollout","id":"verl/1/0","st');
    const again = await follow({ converter: converter(), api, once: true, root, log: () => {} });
    expect(again.upload.counts).toMatchObject({ stored: 4, duplicate: 4, skipped: 0 });
    expect(api.storedRollouts.size).toBe(4);
    // The cut line was removed, not glued to the next one.
    const text = await fs.readFile(spool.file, "utf8");
    expect(
      text
        .split("\n")
        .filter(Boolean)
        .every((l) => JSON.parse(l) !== null),
    ).toBe(true);
  });

  it("follows until the source says the run is over, then sends the final status", async () => {
    const src = path.join(tmp, "areal");
    await fs.cp(path.join(FIXTURES, "areal"), src, { recursive: true });
    const api = new MemoryApi();
    const result = await follow({
      converter: arealConverter({ ...defaults, source: src, log: () => {} }),
      api,
      root: path.join(tmp, "state-areal"),
      pollMs: 10,
      name: "ParaVT 8B PARA-GRPO",
      log: () => {},
    });
    expect(result.finished).toBe(true);
    expect(result.upload.finished).toBe(true);
    expect(api.statuses).toEqual(["SUCCEEDED"]);
    expect([...api.runs.values()][0]!.name).toBe("ParaVT 8B PARA-GRPO");
    expect(api.storedRollouts.size).toBe(4);
    expect(new Set([...api.storedMetrics.keys()].map((k) => k.split("/")[0]))).toEqual(new Set(["1", "2", "3"]));
  });

  it("uploads into a named run without a run line, and refuses a state that belongs to another source", async () => {
    const src = path.join(tmp, "verl3", "rollouts");
    const root = path.join(tmp, "state-verl3");
    await fs.mkdir(src, { recursive: true });
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "2.jsonl"), path.join(src, "2.jsonl"));
    const api = new MemoryApi();
    const r = await follow({
      converter: verlConverter({ ...defaults, source: src, log: () => {} }),
      api,
      runId: "existing-run",
      once: true,
      root,
      log: () => {},
    });
    expect(r.upload).toMatchObject({ runId: "existing-run", counts: { stored: 2 } });
    expect(api.runs.size).toBe(0);
    const spool = new Spool(spoolDirOf(root, "verl", path.resolve(src)));
    await spool.save({ ...(await spool.load())!, source: "/elsewhere" });
    await expect(
      follow({
        converter: verlConverter({ ...defaults, source: src, log: () => {} }),
        api,
        once: true,
        root,
        log: () => {},
      }),
    ).rejects.toThrow(/belongs to verl \/elsewhere/);
  });
});
