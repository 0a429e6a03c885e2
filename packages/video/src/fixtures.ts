// Broken and non-video inputs for tests: each kind maps to the VideoError code `probe` must give.
// Built from a small generated video so they need no checked-in binaries.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFfmpeg } from "./ffmpeg-cli";
import { generateTestVideo } from "./test-video";
import type { VideoErrorCode } from "./errors";

export type FixtureKind =
  "empty" | "text" | "image" | "audio-only" | "truncated" | "truncated-header" | "corrupt" | "unsupported-codec";

/** The error code `probe` reports for each fixture kind. */
export const FIXTURE_ERROR: Record<FixtureKind, VideoErrorCode> = {
  empty: "EMPTY",
  text: "NOT_VIDEO",
  image: "NOT_VIDEO",
  "audio-only": "AUDIO_ONLY",
  truncated: "TRUNCATED",
  "truncated-header": "TRUNCATED",
  corrupt: "DECODE_FAILED",
  "unsupported-codec": "UNSUPPORTED_CODEC",
};

interface Box {
  type: string;
  start: number;
  size: number;
}

/** Top-level ISO-BMFF boxes (ftyp, moov, mdat, …). */
function topLevelBoxes(buf: Buffer): Box[] {
  const boxes: Box[] = [];
  let off = 0;
  while (off + 8 <= buf.length) {
    let size = buf.readUInt32BE(off);
    const type = buf.toString("latin1", off + 4, off + 8);
    if (size === 1 && off + 16 <= buf.length) size = Number(buf.readBigUInt64BE(off + 8));
    else if (size === 0) size = buf.length - off;
    if (size < 8) break;
    boxes.push({ type, start: off, size });
    off += size;
  }
  return boxes;
}

/** Deterministic noise (xorshift32), so a "corrupt" fixture is the same bytes on every run. */
function noise(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.allocUnsafe(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Writes a fixture of `kind` to `out`. `source` (an H.264 MP4 with its index at the front, as
 * `generateTestVideo` makes) is used for the kinds derived from a real video; without it a
 * 4-second 160x120 video is generated in a temporary directory.
 */
export async function makeFixture(kind: FixtureKind, out: string, opts: { source?: string } = {}): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), "paravt-fixture-"));
  try {
    const source = async (faststart: boolean): Promise<string> => {
      if (opts.source && faststart) return opts.source;
      return generateTestVideo(join(scratch, "source.mp4"), {
        durationS: 4,
        width: 160,
        height: 120,
        fps: 25,
        keyframeIntervalS: 1,
        faststart,
      });
    };
    switch (kind) {
      case "empty":
        await writeFile(out, Buffer.alloc(0));
        break;
      case "text":
        await writeFile(out, "This is a text file, not a video.\nIt was uploaded by mistake.\n");
        break;
      case "image":
        await runFfmpeg([
          "-y",
          "-f",
          "lavfi",
          "-i",
          "testsrc2=size=160x120:rate=1:duration=1",
          "-frames:v",
          "1",
          "-f",
          "image2",
          "-c:v",
          "mjpeg",
          out,
        ]);
        break;
      case "audio-only":
        await runFfmpeg(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "aac", "-f", "mp4", out]);
        break;
      case "truncated": {
        // Index at the front, data cut: the file opens and claims the full duration, but the
        // samples near the end point past the end of the file (an interrupted upload).
        const buf = await readFile(await source(true));
        await writeFile(out, buf.subarray(0, Math.floor(buf.length * 0.6)));
        break;
      }
      case "truncated-header": {
        // Index at the end (no faststart), cut before it: the MP4 has no moov box at all.
        const buf = await readFile(await source(false));
        const moov = topLevelBoxes(buf).find((b) => b.type === "moov");
        await writeFile(out, buf.subarray(0, moov ? moov.start : Math.floor(buf.length / 2)));
        break;
      }
      case "corrupt": {
        // Valid container, garbage in every video sample: opens fine, nothing decodes.
        const buf = Buffer.from(await readFile(await source(true)));
        const mdat = topLevelBoxes(buf).find((b) => b.type === "mdat");
        if (!mdat) throw new Error("source video has no mdat box");
        noise(mdat.size - 8).copy(buf, mdat.start + 8);
        await writeFile(out, buf);
        break;
      }
      case "unsupported-codec": {
        // Rename the sample entry 'avc1' to an unknown fourcc: the container is fine but no
        // decoder exists for the stream.
        const buf = Buffer.from(await readFile(await source(true)));
        const stsd = buf.indexOf("stsd", 0, "latin1");
        const entry = stsd < 0 ? -1 : buf.indexOf("avc1", stsd, "latin1");
        if (entry < 0) throw new Error("source video has no avc1 sample entry");
        buf.write("zzzz", entry, "latin1");
        await writeFile(out, buf);
        break;
      }
      default: {
        const never: never = kind;
        throw new Error(`unknown fixture kind ${String(never)}`);
      }
    }
    return out;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
