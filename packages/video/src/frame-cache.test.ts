import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FrameCache, type CachedFrame } from "./frame-cache";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, "../../..");

function frame(seed: number, bytes = 4000): CachedFrame {
  const jpeg = Buffer.alloc(bytes, seed % 251);
  return { jpeg, width: 100 + (seed % 7), height: 50, sourceTime: seed / 10 };
}

function keyParts(t: number, video = "file:/videos/a.mp4:123:456") {
  return { video, t, notBefore: t - 0.5, width: 298, height: 168, quality: 85 };
}

async function listFrames(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const shard of await readdir(dir)) {
    if (shard.length !== 2) continue;
    for (const name of await readdir(join(dir, shard))) out.push(join(dir, shard, name));
  }
  return out;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paravt-frame-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("FrameCache", () => {
  it("returns what was put, and counts hits and misses", async () => {
    const cache = new FrameCache({ dir, maxBytes: 1e6 });
    const key = cache.key(keyParts(12));
    expect(await cache.get(key)).toBeNull();
    await cache.put(key, frame(3));
    const got = await cache.get(key);
    expect(got).toEqual(frame(3));
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1, writes: 1 });
  });

  it("keys differ by every part that changes the frame, and are stable", () => {
    const cache = new FrameCache({ dir, maxBytes: 1e6 });
    const base = keyParts(12);
    const k = cache.key(base);
    expect(cache.key({ ...base })).toBe(k);
    expect(new FrameCache({ dir: "/elsewhere", maxBytes: 1 }).key(base)).toBe(k);
    const variants = [
      { ...base, video: "file:/videos/a.mp4:124:456" },
      { ...base, t: 12.000001 },
      { ...base, notBefore: 12 },
      { ...base, width: 297 },
      { ...base, height: 167 },
      { ...base, quality: 80 },
    ];
    const keys = new Set(variants.map((v) => cache.key(v)));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(k)).toBe(false);
  });

  it("uses path, size and mtime as the default video identity", () => {
    const a = FrameCache.videoIdentity("/v/a.mp4", 100, 1000);
    expect(FrameCache.videoIdentity("/v/a.mp4", 100, 1000)).toBe(a);
    expect(FrameCache.videoIdentity("/v/a.mp4", 101, 1000)).not.toBe(a);
    expect(FrameCache.videoIdentity("/v/a.mp4", 100, 2000)).not.toBe(a);
    expect(FrameCache.videoIdentity("/v/b.mp4", 100, 1000)).not.toBe(a);
  });

  it("treats a damaged entry as a miss and removes it", async () => {
    const cache = new FrameCache({ dir, maxBytes: 1e6 });
    const key = cache.key(keyParts(1));
    await cache.put(key, frame(1));
    const [file] = await listFrames(dir);
    await writeFile(file!, "garbage");
    expect(await cache.get(key)).toBeNull();
    expect(await listFrames(dir)).toHaveLength(0);
  });

  it("stays under maxBytes, evicting the least recently used frames", async () => {
    const maxBytes = 50_000;
    const cache = new FrameCache({ dir, maxBytes });
    const keys = Array.from({ length: 40 }, (_, i) => cache.key(keyParts(i)));
    // Oldest first: give each entry a distinct, old mtime so LRU order is unambiguous.
    for (let i = 0; i < 8; i++) await cache.put(keys[i]!, frame(i));
    const files = await listFrames(dir);
    for (const f of files) {
      const i = keys.findIndex((k) => f.endsWith(`${k}.frame`));
      const old = Date.now() / 1000 - 3600 + i;
      await utimes(f, old, old);
    }
    // Reading entry 0 makes it the most recently used despite being written first.
    expect(await cache.get(keys[0]!)).not.toBeNull();
    // 13 entries of ~4 KB exceed 50 KB: the prune drops the two least recently used (1 and 2).
    for (let i = 8; i < 13; i++) await cache.put(keys[i]!, frame(i));
    expect(cache.stats.evictions).toBe(2);
    expect(await cache.get(keys[0]!)).not.toBeNull();
    expect(await cache.get(keys[1]!)).toBeNull();
    expect(await cache.get(keys[2]!)).toBeNull();
    expect(await cache.get(keys[3]!)).not.toBeNull();

    for (let i = 13; i < 40; i++) await cache.put(keys[i]!, frame(i));
    expect(await cache.totalBytes()).toBeLessThanOrEqual(maxBytes);
    expect(await cache.get(keys[39]!)).not.toBeNull();
  });

  it("is safe when two processes write and read the same keys at once", async () => {
    const maxBytes = 120_000;
    const child = join(dir, "child.mjs");
    await writeFile(
      child,
      `const { FrameCache } = await import(${JSON.stringify(join(here, "frame-cache.ts"))});
const [cacheDir, maxBytes] = process.argv.slice(2);
const cache = new FrameCache({ dir: cacheDir, maxBytes: Number(maxBytes) });
let bad = 0;
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < 60; i++) {
    const key = cache.key({ video: "v", t: i, notBefore: i, width: 1, height: 1, quality: 85 });
    const got = await cache.get(key);
    if (got && (got.jpeg.length !== 3000 || got.jpeg[0] !== i || got.sourceTime !== i)) bad++;
    if (!got) await cache.put(key, { jpeg: Buffer.alloc(3000, i), width: 1, height: 1, sourceTime: i });
  }
}
process.stdout.write(JSON.stringify({ bad, ...cache.stats }));
`,
    );
    const run = () =>
      new Promise<{ bad: number; writes: number }>((ok, fail) => {
        const p = spawn(process.execPath, ["--import", "tsx", child, join(dir, "cache"), String(maxBytes)], {
          cwd: repoRoot,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        p.stdout.on("data", (d: Buffer) => (out += d.toString()));
        p.stderr.on("data", (d: Buffer) => (err += d.toString()));
        p.on("close", (code) => (code === 0 ? ok(JSON.parse(out)) : fail(new Error(`child exited ${code}: ${err}`))));
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.bad + b.bad).toBe(0);
    expect(a.writes + b.writes).toBeGreaterThan(60);
    const cache = new FrameCache({ dir: join(dir, "cache"), maxBytes });
    // Each process rescans after writing maxBytes/8, so together they overshoot by at most ~2/8.
    expect(await cache.totalBytes()).toBeLessThanOrEqual(maxBytes * 1.25);
    for (const f of await listFrames(join(dir, "cache"))) expect(f.endsWith(".frame")).toBe(true);
    expect(await readdir(join(dir, "cache", "tmp"))).toHaveLength(0);
  }, 30_000);
});
