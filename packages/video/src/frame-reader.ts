// Reads frames at many timestamps of ONE open file (node-av, in-process).
//
// Strategy (numbers in bench/video/README.md): the file is opened once; each target is reached
// either by continuing to decode forward from where the decoder is, or by seeking to the keyframe
// at or before it. For a request {t, notBefore} the frame returned is
//   - the keyframe found by the seek, when it is at or after notBefore: only that one packet is
//     decoded (the decoder is drained instead of fed more), which is what makes a 64-frame
//     overview of a 1-hour file cost ~64 frame decodes instead of ~64 half-GOPs;
//   - otherwise the exact frame: the first frame at or after t. While decoding towards it, frames
//     displayed before t that no other frame references (most B-frames) are not decoded at all
//     (skip_frame=noref, set per packet from the packet's own timestamp).
// So notBefore <= sourceTime <= (time of the first frame at or after t) always holds, except past
// the last frame of the file, where the last frame is returned. notBefore = t gives exact frames.
//
// Every FFmpeg call here is an async N-API worker on the libuv pool, so a long decode never blocks
// the event loop for more than one JS step (tested in frames.int.test.ts).

import { Frame, Packet, type CodecContext } from "node-av/lib";
import { Scaler } from "node-av/api";
import { AVERROR_EAGAIN, AVERROR_EOF, AVSEEK_FLAG_BACKWARD, AV_NOPTS_VALUE, SWS_AREA } from "node-av/constants";
import { VideoError } from "./errors";
import { describeFile, type OpenedVideo } from "./open-video";
import type { Size } from "./sampling";

export interface FrameRequest {
  /** Requested time in seconds from the start of the video. */
  t: number;
  /** Earliest acceptable time for the keyframe shortcut (seconds); see the file comment. */
  notBefore: number;
}

/** Process-wide counters: observable proof that a cache hit decoded nothing, and cheap metrics. */
export const decodeStats = {
  opens: 0,
  seeks: 0,
  packetsRead: 0,
  packetsSent: 0,
  framesDecoded: 0,
  keyframeShortcuts: 0,
};

export function resetDecodeStats(): void {
  for (const key of Object.keys(decodeStats) as (keyof typeof decodeStats)[]) decodeStats[key] = 0;
}

export interface ReadFramesOptions {
  /** Output size before rotation (the decoder's orientation). */
  size: Size;
  /** Keyframe interval estimate (seconds) for the seek-or-continue decision. */
  gopS: number;
  signal?: AbortSignal;
}

export interface RawFrame {
  /** Tightly packed RGB24, `size.width * size.height * 3` bytes. */
  rgb: Buffer;
  sourceTime: number;
}

// Give up on a file whose packets keep failing to decode (a corrupt file) instead of walking
// through all of it: this many failed packets in a row with no frame out means it is damaged.
const MAX_FAILED_PACKETS = 300;
// Requested times are computed in floating point (i * duration / K); a frame this close below
// one counts as at it.
const EPSILON_S = 1e-6;

class FrameWalker {
  private readonly pkt = new Packet();
  private readonly frame = new Frame();
  /** Reference to the most recently decoded frame, kept for "past the end" requests. */
  private readonly last = new Frame();
  private hasLast = false;
  private lastFrameTime = 0;
  private readonly scaler = new Scaler({ flags: SWS_AREA });
  private needInput = true;
  private demuxEof = false;
  private flushSent = false;
  private pendingPacket = false;
  private skipping = false;
  private failedInARow = 0;
  /** Decoder state continues from a seek; false after a drain or before the first seek. */
  valid = false;
  /** Display time of the last frame received from the decoder since the last seek. */
  lastTime = -Infinity;

  constructor(
    private readonly video: OpenedVideo,
    private readonly cc: CodecContext,
  ) {
    this.pkt.alloc();
    this.frame.alloc();
    this.last.alloc();
  }

  private seconds(ts: bigint): number {
    const { num, den } = this.video.timeBase;
    return (Number(ts - this.video.startPts) * num) / den;
  }

  private ticks(seconds: number): bigint {
    const { num, den } = this.video.timeBase;
    return this.video.startPts + BigInt(Math.floor((seconds * den) / num));
  }

  get atEnd(): boolean {
    return this.demuxEof && this.flushSent && this.needInput;
  }

  async seek(t: number): Promise<void> {
    decodeStats.seeks++;
    const fc = this.video.fc;
    let ret = await fc.seekFrame(this.video.streamIndex, this.ticks(t), AVSEEK_FLAG_BACKWARD);
    // A target before the first keyframe's timestamp can fail the backward search: start over.
    if (ret < 0) ret = await fc.seekFrame(this.video.streamIndex, this.video.startPts, AVSEEK_FLAG_BACKWARD);
    if (ret < 0) ret = await fc.seekFrame(-1, 0n, AVSEEK_FLAG_BACKWARD);
    this.cc.flushBuffers();
    this.needInput = true;
    this.demuxEof = false;
    this.flushSent = false;
    this.pendingPacket = false;
    this.failedInARow = 0;
    this.valid = true;
    this.lastTime = -Infinity;
  }

  /** Reads the next packet of our stream into `pkt`; false at end of file (or on a read error, e.g. truncation). */
  private async readPacket(): Promise<boolean> {
    if (this.pendingPacket) {
      this.pendingPacket = false;
      return true;
    }
    for (;;) {
      const ret = await this.video.fc.readFrame(this.pkt);
      if (ret < 0) {
        this.demuxEof = true;
        return false;
      }
      if (this.pkt.streamIndex === this.video.streamIndex) {
        decodeStats.packetsRead++;
        return true;
      }
      this.pkt.unref();
    }
  }

  private packetTime(): number | null {
    const ts = this.pkt.pts !== AV_NOPTS_VALUE ? this.pkt.pts : this.pkt.dts;
    return ts === AV_NOPTS_VALUE ? null : this.seconds(ts);
  }

  private frameTime(): number {
    const ts = this.frame.bestEffortTimestamp !== AV_NOPTS_VALUE ? this.frame.bestEffortTimestamp : this.frame.pts;
    if (ts !== AV_NOPTS_VALUE) return this.seconds(ts);
    return Number.isFinite(this.lastTime) ? this.lastTime + 1 / (this.video.fps || 25) : 0;
  }

  private setSkipNonRef(skip: boolean): void {
    if (skip === this.skipping) return;
    this.skipping = skip;
    this.cc.setOption("skip_frame", skip ? "noref" : "default");
  }

  private async send(flush: boolean): Promise<void> {
    const ret = await this.cc.sendPacket(flush ? null : this.pkt);
    if (!flush) {
      decodeStats.packetsSent++;
      this.pkt.unref();
    }
    this.needInput = false;
    if (ret < 0 && ret !== AVERROR_EOF && ret !== AVERROR_EAGAIN) {
      this.failedInARow++;
      if (this.failedInARow >= MAX_FAILED_PACKETS) this.fail(`${this.failedInARow} packets in a row failed to decode`);
    }
  }

  private fail(detail: string): never {
    throw new VideoError(
      "DECODE_FAILED",
      `The video ${describeFile(this.video.path)} is damaged: its frames cannot be decoded.`,
      {
        detail: `${this.video.path}: ${detail}`,
      },
    );
  }

  /** Receives the next frame (display order) into `frame`; returns its time, or null at end of stream. */
  async next(target: number, signal?: AbortSignal): Promise<number | null> {
    for (;;) {
      signal?.throwIfAborted();
      if (!this.needInput) {
        const ret = await this.cc.receiveFrame(this.frame);
        if (ret >= 0) {
          decodeStats.framesDecoded++;
          this.failedInARow = 0;
          const time = this.frameTime();
          this.lastTime = time;
          this.last.unref();
          this.last.ref(this.frame);
          this.hasLast = true;
          this.lastFrameTime = time;
          return time;
        }
        if (ret === AVERROR_EOF) {
          this.needInput = true;
          return null;
        }
        // EAGAIN (wants input) or a decode error reported late: feed more.
        this.needInput = true;
      }
      if (this.demuxEof) {
        if (this.flushSent) return null;
        this.flushSent = true;
        await this.send(true);
        continue;
      }
      if (!(await this.readPacket())) continue;
      const pt = this.packetTime();
      // A frame displayed before the target can never be the answer; if nothing references it the
      // decoder may drop it unseen. (Monotone: requests are handled in time order.)
      this.setSkipNonRef(pt !== null && pt < target - EPSILON_S);
      await this.send(false);
    }
  }

  /**
   * Right after a seek: if the first packet is a keyframe at or after notBefore, decode that one
   * packet (drain, then flush) and return its time. Otherwise leave the packet for next().
   */
  async keyframeShortcut(notBefore: number): Promise<number | null> {
    if (!(await this.readPacket())) return null;
    const pt = this.packetTime();
    if (!this.pkt.isKeyframe || pt === null || pt < notBefore) {
      this.pendingPacket = true;
      return null;
    }
    this.setSkipNonRef(false);
    await this.send(false);
    await this.send(true);
    const time = await this.next(notBefore);
    this.cc.flushBuffers();
    this.valid = false;
    if (time !== null) decodeStats.keyframeShortcuts++;
    return time;
  }

  async scaleCurrent(size: Size): Promise<Buffer> {
    return this.scaler.toBuffer(this.frame, { resize: size, format: "rgb" });
  }

  async scaleLast(size: Size): Promise<RawFrame | null> {
    if (!this.hasLast) return null;
    return {
      rgb: await this.scaler.toBuffer(this.last, { resize: size, format: "rgb" }),
      sourceTime: this.lastFrameTime,
    };
  }

  close(): void {
    this.setSkipNonRef(false);
    this.scaler.close();
    this.pkt.free();
    this.frame.free();
    this.last.free();
  }
}

/**
 * Decodes one frame per request from an open video. Calls `onFrame(requestIndex, frame)` once per
 * request, in ascending time order (requests are sorted internally; duplicates decode once).
 * `onFrame` may start async work (JPEG encoding) without awaiting it: the RGB buffer is not reused.
 */
export async function readFrames(
  video: OpenedVideo,
  cc: CodecContext,
  requests: readonly FrameRequest[],
  opts: ReadFramesOptions,
  onFrame: (requestIndex: number, frame: RawFrame) => void,
): Promise<void> {
  const order = requests.map((_, i) => i).sort((a, b) => requests[a]!.t - requests[b]!.t || a - b);
  const walker = new FrameWalker(video, cc);
  let previous: RawFrame | null = null;
  try {
    for (const i of order) {
      opts.signal?.throwIfAborted();
      const req = requests[i]!;
      const notBefore = Math.min(req.notBefore, req.t);
      // The last answer is already at or after t (sampling denser than the frames), or the file
      // ended: it is the exact answer again. (Merely ">= notBefore" is not enough: with a large
      // tolerance every later request would get the first frame.)
      if (previous && (previous.sourceTime >= req.t - EPSILON_S || (walker.atEnd && previous.sourceTime <= req.t))) {
        onFrame(i, previous);
        continue;
      }
      let time: number | null = null;
      const target = req.t - EPSILON_S;
      const gap = req.t - walker.lastTime;
      const tolerance = req.t - notBefore;
      const gop = opts.gopS;
      // Expected video time decoded after a seek: the keyframe k lands uniformly in the GOP before
      // t; it is taken at once when within tolerance (probability tol/gop), else we decode from k
      // to t (mean (gop+tol)/2). Continuing forward costs `gap`. Pick the cheaper.
      const oneFrame = 1 / (video.fps || 25);
      const seekCost = oneFrame + (tolerance >= gop ? 0 : (gop * gop - tolerance * tolerance) / (2 * gop));
      const forward = walker.valid && !walker.atEnd && gap > 0 && gap <= seekCost;
      if (!forward) {
        await walker.seek(req.t);
        time = await walker.keyframeShortcut(notBefore);
      }
      if (time === null) {
        // No shortcut: decode forward to the exact frame.
        while (!walker.atEnd) {
          time = await walker.next(req.t, opts.signal);
          if (time === null || time >= target) break;
        }
      }
      let frame: RawFrame;
      if (time !== null) {
        frame = { rgb: await walker.scaleCurrent(opts.size), sourceTime: time };
      } else {
        // Past the last frame (or the rest of the file is unreadable): the last frame decoded.
        const last = await walker.scaleLast(opts.size);
        if (last) frame = last;
        else if (previous) frame = previous;
        else {
          throw new VideoError(
            "DECODE_FAILED",
            `The video ${describeFile(video.path)} is damaged: no frame could be decoded.`,
            {
              detail: `${video.path}: no frame decoded near ${req.t.toFixed(3)} s`,
            },
          );
        }
      }
      previous = frame;
      onFrame(i, frame);
    }
  } finally {
    walker.close();
  }
}
