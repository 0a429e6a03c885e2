// Real encode/decode: writes small suites with the npm ffmpeg and reads them back through
// @paravt/video (node-av) and sharp. Videos are 64 s at 192x108, 4 fps (a few seconds of work).

import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { framesAt, overview, probe } from "@paravt/video";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHAPE_COLORS, SHAPE_RGB, type ShapeColor } from "./palette";
import { readSuite, SuiteReadError } from "./read-suite";
import { cellGeometry, renderFrame } from "./render";
import type { SuiteEvent, VideoAnnotation } from "./schemas";
import { writeSuite, type WriteSuiteResult } from "./write-suite";

const config = { minMinutes: 1, maxMinutes: 1 };
let root: string;
let a: WriteSuiteResult;
let b: WriteSuiteResult;
let c: WriteSuiteResult;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "paravt-suite-"));
  a = await writeSuite({ seed: 21, count: 2, out: join(root, "a"), config });
  b = await writeSuite({ seed: 21, count: 2, out: join(root, "b"), config });
  c = await writeSuite({ seed: 22, count: 2, out: join(root, "c"), config });
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const FILES = ["manifest.json", "questions.jsonl", "oracle.jsonl", "rl.jsonl"];
const read = (r: WriteSuiteResult, f: string) => readFile(join(r.dir, f));

async function rgbFrames(path: string, times: number[]) {
  const frames = await framesAt(path, times, { maxErrorS: 0 });
  return Promise.all(frames.map((f) => sharp(f.jpeg).raw().toBuffer({ resolveWithObject: true })));
}

/** The shape color a decoded pixel shows, or null for background (codec error tolerated). */
function classify(data: Buffer, i: number): ShapeColor | null {
  let best: ShapeColor | null = null;
  let bestD = 70;
  for (const name of SHAPE_COLORS) {
    const rgb = SHAPE_RGB[name];
    const d = Math.hypot(data[i]! - rgb[0], data[i + 1]! - rgb[1], data[i + 2]! - rgb[2]);
    if (d < bestD) [best, bestD] = [name, d];
  }
  return best;
}

/** Counts of classified pixels inside the event's grid cell. */
function cellColors(data: Buffer, width: number, v: VideoAnnotation, e: SuiteEvent): Map<ShapeColor | null, number> {
  const { cell } = cellGeometry(v, e.position);
  const out = new Map<ShapeColor | null, number>();
  for (let y = cell.y0; y < cell.y1; y++) {
    for (let x = cell.x0; x < cell.x1; x++) {
      const k = classify(data, (y * width + x) * 3);
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return out;
}

describe("writeSuite + real video", () => {
  it("is deterministic: same seed, same bytes and frames; another seed, different ones", async () => {
    for (const f of FILES) expect((await read(a, f)).equals(await read(b, f)), f).toBe(true);
    for (const v of a.plan.videos) {
      const ann = `annotations/${v.id}.json`;
      expect((await read(a, ann)).equals(await read(b, ann))).toBe(true);
      expect((await read(a, v.file)).equals(await read(b, v.file))).toBe(true);
      expect((await read(a, ann)).equals(await read(c, ann))).toBe(false);
      const times = [1, 20.5, 47.25];
      const fa = await framesAt(join(a.dir, v.file), times, { maxErrorS: 0 });
      const fb = await framesAt(join(b.dir, v.file), times, { maxErrorS: 0 });
      const fc = await framesAt(join(c.dir, v.file), times, { maxErrorS: 0 });
      fa.forEach((f, i) => expect(f.jpeg.equals(fb[i]!.jpeg)).toBe(true));
      expect(fa.some((f, i) => !f.jpeg.equals(fc[i]!.jpeg))).toBe(true);
    }
    expect(a.manifest.videos.map((v) => v.sha256)).toEqual(b.manifest.videos.map((v) => v.sha256));
  });

  it("encodes browser-playable H.264 yuv420p MP4 with +faststart and keyframes on the overview grid", async () => {
    for (const v of a.plan.videos) {
      const path = join(a.dir, v.file);
      const info = await probe(path);
      expect(info.codec).toBe("h264");
      expect(info.pixelFormat).toBe("yuv420p");
      expect(info.container).toContain("mp4");
      expect([info.width, info.height]).toEqual([v.width, v.height]);
      expect(info.fps).toBeCloseTo(v.fps, 6);
      expect(info.duration).toBeCloseTo(v.durationS, 2);
      expect(info.keyframeInterval).toBeCloseTo(v.durationS / 64, 6);
      const bytes = await readFile(path);
      expect(bytes.indexOf("moov")).toBeGreaterThan(0);
      expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
      // The default (keyframe-seek) overview returns the exact frames the annotations describe.
      const frames = await overview(path, 16);
      for (const f of frames) expect(f.sourceTime).toBeCloseTo(f.timestamp, 6);
    }
  });

  it("shows every sampled event in its cell and color while it lasts, and not after it ends", async () => {
    let checked = 0;
    for (const v of a.plan.videos) {
      const path = join(a.dir, v.file);
      const events = v.events.filter((_, i) => i % 2 === 0).slice(0, 5);
      const mids = events.map((e) => (e.start + e.end) / 2);
      const afters = events.map((e) => Math.min(e.end + 0.5, v.durationS - 0.25));
      const [during, after] = [await rgbFrames(path, mids), await rgbFrames(path, afters)];
      events.forEach((e, i) => {
        const frame = during[i]!;
        const colors = cellColors(frame.data, frame.info.width, v, e);
        const { cell } = cellGeometry(v, e.position);
        const area = (cell.x1 - cell.x0) * (cell.y1 - cell.y0);
        // Shape pixels in the reference render (exact color) vs. in the decoded frame.
        const ref = renderFrame(v, mids[i]!);
        let expected = 0;
        for (let y = cell.y0; y < cell.y1; y++)
          for (let x = cell.x0; x < cell.x1; x++) {
            const j = (y * v.width + x) * 3;
            const rgb = SHAPE_RGB[e.color];
            if (ref[j] === rgb[0] && ref[j + 1] === rgb[1] && ref[j + 2] === rgb[2]) expected++;
          }
        expect(expected).toBeGreaterThan(0.1 * area);
        const got = colors.get(e.color) ?? 0;
        expect(got, `${v.id} ${e.id} ${e.color} ${e.shape}`).toBeGreaterThan(0.7 * expected);
        expect(got).toBeLessThan(1.3 * expected);
        for (const other of SHAPE_COLORS.filter((x) => x !== e.color)) {
          expect(colors.get(other) ?? 0, `${e.id}: ${other} in the cell`).toBeLessThan(0.03 * area);
        }
        const gone = after[i]!;
        const next = v.events.find((x) => afters[i]! >= x.start && afters[i]! < x.end);
        if (!next || next.position !== e.position) {
          expect(cellColors(gone.data, gone.info.width, v, e).get(e.color) ?? 0).toBeLessThan(0.01 * area);
        }
        checked++;
      });
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});

describe("readSuite", () => {
  it("reads a written suite back, hashes included", async () => {
    const s = await readSuite(a.dir, { verifyHashes: true });
    expect(s.manifest).toEqual(a.manifest);
    expect(s.videos.map((v) => v.annotation)).toEqual(a.plan.videos);
    expect(s.questions).toEqual(a.plan.questions);
    expect(s.oracle).toEqual(a.plan.oracle);
    expect(s.rl).toEqual(a.plan.rl);
    expect(s.videos[0]!.path).toBe(join(a.dir, "videos/v0001.mp4"));
  });

  it("reads a manifest written before oracleStyle (its knobs flat in config) as the same manifest", async () => {
    const dir = join(root, "legacy-manifest");
    await cp(a.dir, dir, { recursive: true });
    // The config as commit 367b6d8 wrote it: the knobs in place of oracleStyle, with the two removed ones.
    const m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { config: Record<string, unknown> };
    const { oracleStyle, ...rest } = m.config as { oracleStyle: Record<string, string> };
    const flat = { ...oracleStyle, describeOverview: false, mcqAnswer: "letter" };
    m.config = Object.fromEntries(
      Object.entries({ ...rest, oracleStyle: null }).flatMap(([k, v]): [string, unknown][] =>
        k === "oracleStyle" ? Object.entries(flat) : [[k, v]],
      ),
    );
    await writeFile(join(dir, "manifest.json"), JSON.stringify(m, null, 2) + "\n");
    const s = await readSuite(dir, { verifyHashes: true });
    expect(s.manifest).toEqual(a.manifest);
    expect(s.oracle).toEqual(a.plan.oracle);
  });

  async function broken(name: string, edit: (dir: string) => Promise<void>): Promise<string> {
    const dir = join(root, `broken-${name}`);
    await cp(a.dir, dir, { recursive: true });
    await edit(dir);
    return dir;
  }

  const lines = async (dir: string, f: string) => (await readFile(join(dir, f), "utf8")).split("\n");

  it.each([
    [
      "bad-json",
      async (dir: string) => {
        const l = await lines(dir, "questions.jsonl");
        l[1] = "{oops";
        await writeFile(join(dir, "questions.jsonl"), l.join("\n"));
      },
      /^questions\.jsonl:2: not valid JSON/,
    ],
    [
      "wrong-answer",
      async (dir: string) => {
        const l = await lines(dir, "questions.jsonl");
        const q = JSON.parse(l[0]!) as { type: string; answer: string; answerText: string };
        if (q.type === "mcq") q.answer = q.answer === "A" ? "B" : "A";
        else q.answer = q.answerText = q.type === "tvg" ? "[0, 1]" : "white circle";
        l[0] = JSON.stringify(q);
        await writeFile(join(dir, "questions.jsonl"), l.join("\n"));
      },
      /^questions\.jsonl:1: answer of v0001-q1 disagrees with annotation v0001/,
    ],
    [
      "schema",
      async (dir: string) => {
        const l = await lines(dir, "rl.jsonl");
        const r = JSON.parse(l[0]!) as { extra_info: { question_type: string } };
        r.extra_info.question_type = "essay";
        l[0] = JSON.stringify(r);
        await writeFile(join(dir, "rl.jsonl"), l.join("\n"));
      },
      /^rl\.jsonl:1: extra_info\.question_type: /,
    ],
    ["missing-video", (dir: string) => rm(join(dir, "videos/v0002.mp4")), /^videos\/v0002\.mp4: missing/],
    [
      "truncated-video",
      async (dir: string) => {
        const p = join(dir, "videos/v0001.mp4");
        const bytes = await readFile(p);
        await writeFile(p, bytes.subarray(0, 1000));
      },
      /^videos\/v0001\.mp4: has 1000 bytes, manifest\.json says \d+/,
    ],
    [
      "version",
      async (dir: string) => {
        const m = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { generatorVersion: number };
        m.generatorVersion = 99;
        await writeFile(join(dir, "manifest.json"), JSON.stringify(m));
      },
      /^manifest\.json: generatorVersion 99 is not supported/,
    ],
    [
      "overlapping-events",
      async (dir: string) => {
        const p = join(dir, "annotations/v0001.json");
        const v = JSON.parse(await readFile(p, "utf8")) as VideoAnnotation;
        v.events[1]!.start = v.events[0]!.start;
        await writeFile(p, JSON.stringify(v));
      },
      /^annotations\/v0001\.json: events\.1: events must be sorted and must not overlap/,
    ],
    [
      "count",
      async (dir: string) => {
        const l = await lines(dir, "oracle.jsonl");
        await writeFile(join(dir, "oracle.jsonl"), l.slice(1).join("\n"));
      },
      /^oracle\.jsonl: has \d+ rows, manifest\.json says \d+/,
    ],
    ["no-manifest", (dir: string) => rm(join(dir, "manifest.json")), /^manifest\.json: missing/],
  ])("names the file, line and problem: %s", async (name, edit, message) => {
    const dir = await broken(name, edit);
    const err = await readSuite(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SuiteReadError);
    expect((err as Error).message).toMatch(message);
  });

  it("detects a changed video of the same size when asked to verify hashes", async () => {
    const dir = await broken("same-size", async (d) => {
      const p = join(d, "videos/v0001.mp4");
      const bytes = await readFile(p);
      bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
      await writeFile(p, bytes);
    });
    await expect(readSuite(dir)).resolves.toBeDefined();
    await expect(readSuite(dir, { verifyHashes: true })).rejects.toThrow(
      /videos\/v0001\.mp4: sha256 [0-9a-f]{64} differs/,
    );
  });
});
