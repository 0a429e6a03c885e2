// Disk cache of encoded frames, so repeated episodes on one video (GRPO groups, re-runs,
// comparisons) do not decode again.
//
// Key: sha256 of (video identity, timestamp, earliest accepted frame time, output size, quality, format
// version). Video identity defaults to (absolute path, size, mtime): hashing the content of a
// multi-GB video would cost a full read (seconds to minutes) on every lookup, which is what the
// cache exists to avoid; size+mtime changes whenever a file is replaced or re-encoded in place.
// A caller with a stronger identity (an upload's content hash stored in the database) passes
// `videoKey` instead, which also survives moving the file.
//
// One file per frame, written to tmp/ and renamed into place: rename is atomic on POSIX, so a
// reader in another process sees the whole frame or none, and two processes computing the same
// frame just both rename (last one wins, both are valid). Eviction is LRU: a hit sets the file's
// mtime to now (atime is unreliable under noatime/relatime mounts), and a prune deletes the
// oldest files until the total is under 90% of `maxBytes`. Each process rescans the directory
// after writing an eighth of `maxBytes`, so N processes overshoot the bound by at most about
// N/8 of it between scans.

import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export interface CachedFrame {
  jpeg: Buffer;
  width: number;
  height: number;
  /** Time of the decoded frame (seconds), see SampledFrame.sourceTime. */
  sourceTime: number;
}

export interface FrameKeyParts {
  video: string;
  t: number;
  /** Earliest acceptable frame time: with t, it fixes which frame the key stands for. */
  notBefore: number;
  width: number;
  height: number;
  quality: number;
}

export interface FrameCacheOptions {
  dir: string;
  /** Upper bound on the total size of cached files. */
  maxBytes: number;
}

const MAGIC = Buffer.from("PVF1");
// Bump when the frame pipeline changes what a key produces (scaler, colour handling, format).
const FORMAT_VERSION = 1;
// A hit refreshes the LRU time at most this often, to avoid a metadata write per read.
const TOUCH_AFTER_MS = 10_000;
const STALE_TMP_MS = 3_600_000;

function encodeEntry(frame: CachedFrame): Buffer {
  const header = Buffer.from(JSON.stringify({ w: frame.width, h: frame.height, s: frame.sourceTime }));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.length);
  return Buffer.concat([MAGIC, len, header, frame.jpeg]);
}

function decodeEntry(buf: Buffer): CachedFrame | null {
  if (buf.length < 8 || !buf.subarray(0, 4).equals(MAGIC)) return null;
  const len = buf.readUInt32BE(4);
  if (8 + len > buf.length) return null;
  try {
    const h = JSON.parse(buf.toString("utf8", 8, 8 + len)) as { w: number; h: number; s: number };
    return { width: h.w, height: h.h, sourceTime: h.s, jpeg: buf.subarray(8 + len) };
  } catch {
    return null;
  }
}

export class FrameCache {
  readonly dir: string;
  readonly maxBytes: number;
  readonly stats = { hits: 0, misses: 0, writes: 0, evictions: 0, prunes: 0 };
  /** Estimated bytes on disk: last scan + own writes since; null before the first scan. */
  private approxBytes: number | null = null;
  /** Bytes this instance has written, ever, and the value of that counter when the last scan began. */
  private written = 0;
  private writtenAtScan = 0;
  private pruning: Promise<void> | null = null;
  private pruneAgain = false;

  constructor(opts: FrameCacheOptions) {
    if (!(opts.maxBytes > 0)) throw new RangeError(`FrameCache maxBytes must be positive (got ${opts.maxBytes})`);
    this.dir = resolve(opts.dir);
    this.maxBytes = opts.maxBytes;
  }

  /** Default video identity: absolute path + size + mtime (see the file comment for why not a content hash). */
  static videoIdentity(path: string, sizeBytes: number, mtimeMs: number): string {
    return `file:${resolve(path)}:${sizeBytes}:${Math.round(mtimeMs)}`;
  }

  key(parts: FrameKeyParts): string {
    const h = createHash("sha256");
    h.update(
      JSON.stringify([
        FORMAT_VERSION,
        parts.video,
        parts.t.toFixed(6),
        parts.notBefore.toFixed(6),
        parts.width,
        parts.height,
        parts.quality,
      ]),
    );
    return h.digest("hex");
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.frame`);
  }

  async get(key: string): Promise<CachedFrame | null> {
    const file = this.pathOf(key);
    let buf: Buffer;
    try {
      buf = await readFile(file);
    } catch {
      this.stats.misses++;
      return null;
    }
    const entry = decodeEntry(buf);
    if (!entry) {
      this.stats.misses++;
      await rm(file, { force: true });
      return null;
    }
    this.stats.hits++;
    try {
      const st = await stat(file);
      const now = Date.now();
      if (now - st.mtimeMs > TOUCH_AFTER_MS) await utimes(file, now / 1000, now / 1000);
    } catch {
      // Evicted by another process between read and touch: the frame we read is still good.
    }
    return entry;
  }

  async put(key: string, frame: CachedFrame): Promise<void> {
    const data = encodeEntry(frame);
    const file = this.pathOf(key);
    const tmpDir = join(this.dir, "tmp");
    await mkdir(tmpDir, { recursive: true });
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const tmp = join(tmpDir, `${key}.${process.pid}.${randomBytes(4).toString("hex")}`);
    await writeFile(tmp, data);
    await rename(tmp, file);
    this.stats.writes++;
    this.written += data.length;
    if (this.approxBytes !== null) this.approxBytes += data.length;
    if (
      this.approxBytes === null ||
      this.approxBytes > this.maxBytes ||
      this.written - this.writtenAtScan > this.maxBytes / 8
    ) {
      await this.prune();
    }
  }

  /** Total bytes of cached frames on disk (a full scan). */
  async totalBytes(): Promise<number> {
    return (await this.scan()).reduce((sum, e) => sum + e.size, 0);
  }

  private async scan(): Promise<{ file: string; size: number; mtimeMs: number }[]> {
    const entries: { file: string; size: number; mtimeMs: number }[] = [];
    let shards: string[];
    try {
      shards = await readdir(this.dir);
    } catch {
      return entries;
    }
    for (const shard of shards) {
      if (shard.length !== 2) continue;
      let names: string[];
      try {
        names = await readdir(join(this.dir, shard));
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(this.dir, shard, name);
        try {
          const st = await stat(file);
          entries.push({ file, size: st.size, mtimeMs: st.mtimeMs });
        } catch {
          // Removed by a concurrent prune.
        }
      }
    }
    return entries;
  }

  /** Evicts least recently used frames until the cache is under 90% of maxBytes. Serialized per instance. */
  async prune(): Promise<void> {
    if (this.pruning) {
      // Writes that land while a scan runs may be missed by it: scan once more afterwards.
      this.pruneAgain = true;
      return this.pruning;
    }
    this.pruning = (async () => {
      try {
        do {
          this.pruneAgain = false;
          await this.doPrune();
        } while (this.pruneAgain);
      } finally {
        this.pruning = null;
      }
    })();
    return this.pruning;
  }

  private async doPrune(): Promise<void> {
    this.stats.prunes++;
    const writtenBefore = this.written;
    const entries = await this.scan();
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    if (total > this.maxBytes) {
      const target = this.maxBytes * 0.9;
      entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
      for (const e of entries) {
        if (total <= target) break;
        try {
          await unlink(e.file);
          this.stats.evictions++;
        } catch {
          // Already evicted by another process; its bytes are gone either way.
        }
        total -= e.size;
      }
    }
    // Writes during the scan may or may not be in `total`: count them again (overestimate, safe side).
    this.approxBytes = total + (this.written - writtenBefore);
    this.writtenAtScan = writtenBefore;
    await this.removeStaleTemp();
  }

  /** Temp files of writers that crashed before their rename. */
  private async removeStaleTemp(): Promise<void> {
    const tmpDir = join(this.dir, "tmp");
    let names: string[];
    try {
      names = await readdir(tmpDir);
    } catch {
      return;
    }
    const now = Date.now();
    for (const name of names) {
      const file = join(tmpDir, name);
      try {
        if (now - (await stat(file)).mtimeMs > STALE_TMP_MS) await unlink(file);
      } catch {
        // Renamed or removed meanwhile.
      }
    }
  }
}
