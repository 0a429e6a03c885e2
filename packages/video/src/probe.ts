// probe(): what a video is, and whether we can really use it. Runs in-process with node-av (no
// ffprobe subprocess): ~10-50 ms per file, see README. Beyond reading the header it decodes the
// first frame (catches corrupt data and codecs that open but fail) and reads the packets of the
// last second (catches truncated uploads whose index still claims the full duration), so a file
// that probes fine will not fail later in an episode with a different error.

import { Frame, Packet } from "node-av/lib";
import { AVERROR_EOF, AVSEEK_FLAG_BACKWARD, AV_NOPTS_VALUE } from "node-av/constants";
import { VideoError } from "./errors";
import { decodeStats } from "./frame-reader";
import { describeFile, openDecoder, openVideo, type OpenedVideo } from "./open-video";

export interface VideoInfo {
  path: string;
  sizeBytes: number;
  /** File modification time (ms since epoch); with path and size, the video's cache identity. */
  mtimeMs: number;
  /** FFmpeg demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm". */
  container: string;
  /** Decoder name, e.g. "h264", "hevc", "vp9", "av1". */
  codec: string;
  /** Seconds. All timestamps of this package are relative to the first frame. */
  duration: number;
  fps: number;
  /** Display size: after non-square-pixel correction and rotation. */
  width: number;
  height: number;
  /** Size of the encoded picture, before rotation. */
  codedWidth: number;
  codedHeight: number;
  /** Decoded pixel format, e.g. "yuv420p" (what browsers play); null when unknown. */
  pixelFormat: string | null;
  /** Clockwise rotation applied for display (phones store portrait video as rotated landscape). */
  rotation: 0 | 90 | 180 | 270;
  /** Mean distance between keyframes in the first ~30 s; null when fewer than two were seen there. */
  keyframeInterval: number | null;
  /** Overall bits per second from the container, when it says. */
  bitRate: number | null;
  /** Frame count from the container index (exact for MP4), when present. */
  frameCount: number | null;
  hasAudio: boolean;
}

// How much of the start is read (demux only, no decoding) to estimate the keyframe interval.
const KEYFRAME_SCAN_S = 30;
const KEYFRAME_SCAN_PACKETS = 4000;
const KEYFRAMES_WANTED = 4;
// A file whose packets stop this far before its stated duration is truncated. Strict when the
// duration is the video stream's own (MP4/MOV: it is the sum of the sample durations), lenient
// when it is a whole-file estimate that may include a longer audio track.
function truncationSlack(video: OpenedVideo, duration: number): number {
  return video.exactDuration ? Math.max(0.5, 3 / (video.fps || 25)) : Math.max(5, duration * 0.05);
}

function seconds(video: OpenedVideo, ts: bigint): number {
  return (Number(ts - video.startPts) * video.timeBase.num) / video.timeBase.den;
}

/** Decodes the first frame and notes keyframe times near the start. */
async function scanStart(
  video: OpenedVideo,
): Promise<{ keyframes: number[]; lastPacketEnd: number; reachedEof: boolean }> {
  const cc = await openDecoder(video);
  const pkt = new Packet();
  const frame = new Frame();
  pkt.alloc();
  frame.alloc();
  const keyframes: number[] = [];
  let decoded = false;
  let sent = 0;
  let lastPacketEnd = 0;
  let reachedEof = false;
  try {
    for (let n = 0; ;) {
      const ret = await video.fc.readFrame(pkt);
      if (ret < 0) {
        reachedEof = true;
        break;
      }
      if (pkt.streamIndex !== video.streamIndex) {
        pkt.unref();
        continue;
      }
      n++;
      decodeStats.packetsRead++;
      const ts = pkt.pts !== AV_NOPTS_VALUE ? pkt.pts : pkt.dts;
      const t = ts === AV_NOPTS_VALUE ? null : seconds(video, ts);
      if (t !== null)
        lastPacketEnd = Math.max(lastPacketEnd, t + (Number(pkt.duration) * video.timeBase.num) / video.timeBase.den);
      if (pkt.isKeyframe && t !== null) keyframes.push(t);
      if (!decoded) {
        await cc.sendPacket(pkt);
        sent++;
        decodeStats.packetsSent++;
        if ((await cc.receiveFrame(frame)) >= 0) {
          decoded = true;
          decodeStats.framesDecoded++;
        }
      }
      pkt.unref();
      const scanDone =
        keyframes.length >= KEYFRAMES_WANTED || (t !== null && t > KEYFRAME_SCAN_S) || n >= KEYFRAME_SCAN_PACKETS;
      if (decoded && scanDone) break;
      // A decoder that swallowed this many packets without a frame is not going to produce one.
      if (!decoded && sent >= 300) break;
    }
    if (!decoded) {
      // Drain: short files and decoders with delay hand out their first frame only now.
      await cc.sendPacket(null);
      for (;;) {
        const r = await cc.receiveFrame(frame);
        if (r >= 0) {
          decoded = true;
          decodeStats.framesDecoded++;
          break;
        }
        if (r === AVERROR_EOF || r < 0) break;
      }
    }
    if (!decoded) {
      throw new VideoError(
        "DECODE_FAILED",
        `The video ${describeFile(video.path)} is damaged: its frames cannot be decoded.`,
        {
          detail: `${video.path}: no frame decoded from the first ${sent} packets`,
        },
      );
    }
    return { keyframes, lastPacketEnd, reachedEof };
  } finally {
    pkt.free();
    frame.free();
    cc.freeContext();
  }
}

/** Time at which the packets really end, read from the last seconds of the file. Null when the file cannot seek. */
async function dataEnd(video: OpenedVideo, duration: number): Promise<{ end: number; packets: number } | null> {
  const from = Math.max(0, duration - 1);
  const target = video.startPts + BigInt(Math.floor((from * video.timeBase.den) / video.timeBase.num));
  const ret = await video.fc.seekFrame(video.streamIndex, target, AVSEEK_FLAG_BACKWARD);
  if (ret < 0) return null;
  const pkt = new Packet();
  pkt.alloc();
  let end = -Infinity;
  let packets = 0;
  try {
    // Bounded: one GOP of packets at most in practice; the cap only guards odd files.
    while (packets < 5000) {
      const r = await video.fc.readFrame(pkt);
      if (r < 0) break;
      if (pkt.streamIndex === video.streamIndex) {
        packets++;
        const ts = pkt.pts !== AV_NOPTS_VALUE ? pkt.pts : pkt.dts;
        if (ts !== AV_NOPTS_VALUE) end = Math.max(end, seconds(video, ts + pkt.duration));
      }
      pkt.unref();
    }
  } finally {
    pkt.free();
  }
  return { end, packets };
}

async function probeOpened(video: OpenedVideo): Promise<VideoInfo> {
  const start = await scanStart(video);
  let duration = video.duration;
  if (!(duration > 0)) {
    if (start.reachedEof) duration = start.lastPacketEnd;
    else {
      const tail = await dataEnd(video, Number.MAX_SAFE_INTEGER / 1e6);
      duration = tail && Number.isFinite(tail.end) ? tail.end : start.lastPacketEnd;
    }
  } else if (!start.reachedEof) {
    const tail = await dataEnd(video, duration);
    if (tail && (tail.packets === 0 || duration - tail.end > truncationSlack(video, duration))) {
      const got = tail.packets === 0 ? "its last second is missing" : `its data stops at ${tail.end.toFixed(1)} s`;
      throw new VideoError(
        "TRUNCATED",
        `The video ${describeFile(video.path)} is incomplete: it should last ${duration.toFixed(1)} s but ${got}. It was probably cut off during upload or copy.`,
        { detail: `${video.path}: size ${video.sizeBytes} bytes` },
      );
    }
  } else if (start.lastPacketEnd > 0 && duration - start.lastPacketEnd > truncationSlack(video, duration)) {
    throw new VideoError(
      "TRUNCATED",
      `The video ${describeFile(video.path)} is incomplete: it should last ${duration.toFixed(1)} s but its data stops at ${start.lastPacketEnd.toFixed(1)} s.`,
      { detail: `${video.path}: size ${video.sizeBytes} bytes` },
    );
  }
  if (!(duration > 0)) {
    throw new VideoError("DECODE_FAILED", `The video ${describeFile(video.path)} has no readable duration.`, {
      detail: video.path,
    });
  }
  const kf = start.keyframes;
  const keyframeInterval = kf.length >= 2 ? (kf[kf.length - 1]! - kf[0]!) / (kf.length - 1) : null;
  return {
    path: video.path,
    sizeBytes: video.sizeBytes,
    mtimeMs: video.mtimeMs,
    container: video.container,
    codec: video.codec.name ?? "unknown",
    duration,
    fps: video.fps,
    width: video.width,
    height: video.height,
    codedWidth: video.codedWidth,
    codedHeight: video.codedHeight,
    pixelFormat: video.pixelFormat,
    rotation: video.rotation,
    keyframeInterval,
    bitRate: video.bitRate,
    frameCount: video.frameCount,
    hasAudio: video.hasAudio,
  };
}

/**
 * Probes a video file. Throws VideoError with code NOT_FOUND, EMPTY, NOT_VIDEO, AUDIO_ONLY,
 * UNSUPPORTED_CODEC, TRUNCATED or DECODE_FAILED; `message` is fit to show the user.
 */
export async function probe(path: string): Promise<VideoInfo> {
  const video = await openVideo(path);
  decodeStats.opens++;
  try {
    return await probeOpened(video);
  } finally {
    await video.fc.closeInput();
  }
}

// Probing costs a few file reads and one frame decode; episodes call overview/crop on the same
// video many times, so results are remembered per (path, size, mtime).
const memo = new Map<string, VideoInfo>();
const MEMO_ENTRIES = 256;

export async function probeCached(path: string, identity: { sizeBytes: number; mtimeMs: number }): Promise<VideoInfo> {
  const key = `${path}\0${identity.sizeBytes}\0${identity.mtimeMs}`;
  const hit = memo.get(key);
  if (hit) {
    memo.delete(key);
    memo.set(key, hit);
    return hit;
  }
  const info = await probe(path);
  memo.set(key, info);
  if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  return info;
}
