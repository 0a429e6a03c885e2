import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VideoError } from "./errors";
import { runFfmpeg } from "./ffmpeg-cli";
import { FIXTURE_ERROR, makeFixture, type FixtureKind } from "./fixtures";
import { framesAt } from "./frames";
import { probe } from "./probe";
import { MAIN_VIDEO, sharedTestVideo } from "./test-support";

let dir: string;
let main: string;
let rotated: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "paravt-probe-"));
  [main, rotated] = await Promise.all([
    sharedTestVideo(MAIN_VIDEO),
    sharedTestVideo({ durationS: 3, width: 320, height: 180, fps: 30, rotation: 90, audio: true }),
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function probeError(path: string): Promise<VideoError> {
  try {
    await probe(path);
  } catch (err) {
    if (err instanceof VideoError) return err;
    throw err;
  }
  throw new Error(`probe(${path}) did not fail`);
}

describe("probe", () => {
  it("reports duration, fps, size, codec, keyframe interval and container facts", async () => {
    const info = await probe(main);
    expect(info).toMatchObject({
      path: main,
      codec: "h264",
      pixelFormat: "yuv420p",
      duration: 120,
      fps: 25,
      width: 320,
      height: 180,
      codedWidth: 320,
      codedHeight: 180,
      rotation: 0,
      keyframeInterval: 2,
      frameCount: 3000,
      hasAudio: false,
    });
    expect(info.container).toContain("mp4");
    expect(info.bitRate).toBeGreaterThan(0);
    expect(info.sizeBytes).toBeGreaterThan(0);
  });

  it("applies the display rotation to width and height and sees the audio track", async () => {
    const info = await probe(rotated);
    expect(info).toMatchObject({
      rotation: 90,
      width: 180,
      height: 320,
      codedWidth: 320,
      codedHeight: 180,
      hasAudio: true,
    });
    expect(info.fps).toBe(30);
    expect(info.duration).toBeCloseTo(3, 1);
  });

  it("gives NOT_FOUND for a missing file and NOT_VIDEO for a directory", async () => {
    expect((await probeError(join(dir, "nope.mp4"))).code).toBe("NOT_FOUND");
    expect((await probeError(dir)).code).toBe("NOT_VIDEO");
  });

  const kinds = Object.keys(FIXTURE_ERROR) as FixtureKind[];
  it.each(kinds)("classifies a %s file", async (kind) => {
    const file = join(dir, `${kind}.mp4`);
    await makeFixture(kind, file, { source: main });
    const err = await probeError(file);
    expect(err.code).toBe(FIXTURE_ERROR[kind]);
    // Shown to users: names the file, never the server's directories.
    expect(err.message).toContain(`${kind}.mp4`);
    expect(err.message).not.toContain(dir);
  });

  it("detects truncation of a short file whose data ends before its stated duration", async () => {
    // Without a source the fixture is a 4-second video cut at 60%: the end is reached while
    // scanning the start, a different path from the long video above.
    const file = join(dir, "short-truncated.mp4");
    await makeFixture("truncated", file);
    expect((await probeError(file)).code).toBe("TRUNCATED");
  });

  // Issue 37 item 9. In MPEG-TS the streams are interleaved by time: a video track that starts
  // 8 s after the audio (a broadcast or screen recording, `-itsoffset`, a cut whose audio begins
  // first) has no packet in FFmpeg's default 7 s of stream analysis, so its size stayed unknown
  // and the file was called damaged, although ffmpeg decodes every one of its frames.
  it.each([
    ["mpegts", []],
    ["mpegts with -mpegts_copyts", ["-copyts", "-mpegts_copyts", "1"]],
  ])("reads an H.264 %s whose video starts 8 s after its audio", async (label, extra) => {
    const file = join(dir, `late-video-${extra.length}.ts`);
    // prettier-ignore
    await runFfmpeg([
      "-y", "-itsoffset", "8", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=6",
      "-f", "lavfi", "-i", "sine=frequency=440:duration=14",
      "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", ...extra, "-f", "mpegts", file,
    ]);
    const info = await probe(file);
    expect(info, label).toMatchObject({
      container: "mpegts",
      codec: "h264",
      width: 320,
      height: 180,
      fps: 25,
      hasAudio: true,
    });
    // Timestamps are the video's own (from its first frame), and its 6 s are all there.
    expect(info.duration).toBeCloseTo(6, 1);
    const [last] = await framesAt(file, [5.9], { info });
    expect(last!.sourceTime).toBeCloseTo(5.92, 2);
  });
});
