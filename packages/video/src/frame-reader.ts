// Reads frames at many timestamps of ONE open file (node-av, in-process).
//
// The frame for a time t is the EXACT frame: the first frame whose presentation time is >= t (a
// frame a hair below t, within float noise, counts as at it). That is the frame of index
// ceil(t * fps) in a constant-frame-rate video, so a time computed from a frame index (i / fps, how
// qwen-vl-utils' fetch_video picks frames) gets that very frame. Past the last frame: the last frame.
//
// How it stays cheap (numbers in bench/video/README.md): the file is opened once and the targets
// are visited in time order. Each target is reached either by continuing to decode forward from
// where the decoder is (a gap of at most ~1 s, e.g. the frames of one crop window), or by a seek of
// the demuxer to the keyframe at or before t. The seek never makes the decoder start over on
// frames it already decoded: when that keyframe is at or before the last packet the decoder was
// fed (the target lies in the GOP being decoded), the decoder is left running and the demuxer only
// re-reads (without decoding) up to where it was; otherwise the decoder is flushed and starts at
// the keyframe, skipping everything in between. So several targets inside one GOP share one
// forward decode, and no frame is decoded twice. While decoding towards t, frames displayed before
// t that no other frame references (most B-frames) are not decoded at all (skip_frame=noref, set
// per packet from the packet's own timestamp).
//
// Opt-in speed (`notBefore < t`): right after a fresh seek, when the keyframe is at or after
// notBefore, that one packet is decoded (the decoder is drained instead of fed more) and returned:
// one decode per frame on long videos, but the frame is up to one GOP early; its real time is
// `sourceTime`. So notBefore <= sourceTime <= (time of the first frame at or after t) always holds,
// except past the last frame. notBefore = t (the default of frames.ts) gives exact frames.
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
  /** Earliest acceptable time for the keyframe shortcut (seconds); `t` = the exact frame. See the file comment. */
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
  /** Seeks that found the target in the GOP being decoded and kept the decoder running. */
  seeksJoined: 0,
  /** Packets read again (not decoded again) after such a seek. */
  packetsReread: 0,
  /** Packets before the first keyframe after a seek, read past undecoded. */
  packetsSkipped: 0,
  /** Seeks that landed after the target (a demuxer without an index) and were redone earlier. */
  seekRetries: 0,
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
// Targets at most this far ahead of the decoder are reached by decoding forward without a seek:
// the frames of a crop window (1 s apart) share one forward pass. Beyond it, a seek is cheap
// either way (it never decodes anything twice, see the file comment) and skips whole GOPs.
const FORWARD_MAX_S = 1;
// A seek that lands after its target is redone this many times, each one GOP earlier.
const MAX_SEEK_RETRIES = 8;
// After a seek, at most this many packets are read past while looking for a keyframe; beyond it
// decoding starts where the demuxer landed (the decoder itself waits for a decodable frame).
const MAX_SKIPPED_PACKETS = 4096;

/** Where a packet sits in decode order: its DTS, else its byte position; null when unknown. */
interface PacketPlace {
  dts: bigint | null;
  pos: bigint | null;
}

/** a before-or-at b in decode order; null when the two cannot be compared. */
function atOrBefore(a: PacketPlace, b: PacketPlace): boolean | null {
  if (a.dts !== null && b.dts !== null) return a.dts <= b.dts;
  if (a.pos !== null && b.pos !== null) return a.pos <= b.pos;
  return null;
}

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
  /** The last packet fed to the decoder since it was last flushed (null: none). */
  private sent: PacketPlace | null = null;
  /** Decoder state continues from a seek; false after a drain or before the first seek. */
  valid = false;
  /** Display time of the last frame received from the decoder since the last flush. */
  lastTime = -Infinity;
  /** Frames received since the decoder was last flushed. */
  framesSinceFlush = 0;

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

  private place(): PacketPlace {
    return {
      dts: this.pkt.dts === AV_NOPTS_VALUE ? null : this.pkt.dts,
      pos: this.pkt.pos >= 0n ? this.pkt.pos : null,
    };
  }

  /**
   * Moves the demuxer to the keyframe at or before `t` (a negative `t`: before the first packet)
   * and reads that first packet. When it is at or before the last packet the running decoder was
   * fed, the decoder keeps going: the packets up to that one are read past (not decoded again) and
   * "joined" is returned (unless it is a keyframe in [notBefore, t], which the caller may take as
   * is). Otherwise the demuxer stops at the first keyframe from there, where `restart()` makes the
   * decoder start: "keyframe", or "late" when that keyframe is after `t` or there is none (the
   * demuxer seeked too far: the caller seeks again, earlier). The decoder is untouched until
   * `restart()`, so a later seek can still join it.
   */
  async seek(t: number, notBefore: number): Promise<"joined" | "keyframe" | "late"> {
    decodeStats.seeks++;
    const fc = this.video.fc;
    let ret = await fc.seekFrame(this.video.streamIndex, this.ticks(t), AVSEEK_FLAG_BACKWARD);
    // A target before the first keyframe's timestamp can fail the backward search: start over.
    if (ret < 0) ret = await fc.seekFrame(this.video.streamIndex, this.video.startPts, AVSEEK_FLAG_BACKWARD);
    if (ret < 0) ret = await fc.seekFrame(-1, 0n, AVSEEK_FLAG_BACKWARD);
    this.demuxEof = false;
    this.pendingPacket = false;
    const canJoin = this.valid && !this.flushSent && this.sent !== null;
    let got = await this.readPacket();
    const landedTime = got ? this.packetTime() : null;
    const shortcut =
      got && this.pkt.isKeyframe && landedTime !== null && landedTime >= notBefore && landedTime <= t + EPSILON_S;
    if (got && canJoin && !shortcut && atOrBefore(this.place(), this.sent!) === true) {
      decodeStats.seeksJoined++;
      // Read past what the decoder already has; the next packet is the first new one.
      for (;;) {
        decodeStats.packetsReread++;
        this.pkt.unref();
        if (!(await this.readPacket())) break;
        if (atOrBefore(this.place(), this.sent!) !== true) {
          this.pendingPacket = true;
          break;
        }
      }
      return "joined";
    }
    // Decoding starts at a keyframe: a demuxer without an index (MPEG-TS) lands on any packet.
    for (let skipped = 0; got && !this.pkt.isKeyframe && skipped < MAX_SKIPPED_PACKETS; skipped++) {
      decodeStats.packetsSkipped++;
      this.pkt.unref();
      got = await this.readPacket();
    }
    this.pendingPacket = got;
    // The end of the file before any keyframe: the keyframe before t is behind us.
    if (!got) return "late";
    const keyTime = this.pkt.isKeyframe ? this.packetTime() : null;
    return keyTime !== null && keyTime > t + EPSILON_S ? "late" : "keyframe";
  }

  /** Makes the decoder start over at the packet where the last seek stopped. */
  restart(): void {
    this.cc.flushBuffers();
    this.needInput = true;
    this.flushSent = false;
    this.failedInARow = 0;
    this.valid = true;
    this.sent = null;
    this.lastTime = -Infinity;
    this.framesSinceFlush = 0;
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
    if (!flush) this.sent = this.place();
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
          this.framesSinceFlush++;
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
   * Right after a fresh seek: if the first packet is a keyframe in [notBefore, t], decode that one
   * packet (drain, then flush) and return its time. Otherwise leave the packet for next().
   */
  async keyframeShortcut(notBefore: number, t: number): Promise<number | null> {
    if (!(await this.readPacket())) return null;
    const pt = this.packetTime();
    if (!this.pkt.isKeyframe || pt === null || pt < notBefore || pt > t + EPSILON_S) {
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
  const oneFrame = 1 / (video.fps || 25);
  const gop = Math.max(opts.gopS, oneFrame);
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
      const target = req.t - EPSILON_S;
      const tolerance = req.t - notBefore;
      // With a tolerance, a seek usually ends in the one-packet keyframe shortcut (probability
      // tol/gop); decoding forward then only pays off for gaps below the expected decode after a
      // seek, (gop² − tol²) / 2·gop. Exact: forward for gaps up to FORWARD_MAX_S.
      const seekCost = oneFrame + (tolerance >= gop ? 0 : (gop * gop - tolerance * tolerance) / (2 * gop));
      const gap = req.t - walker.lastTime;
      const forward = walker.valid && !walker.atEnd && gap > 0 && gap <= Math.min(FORWARD_MAX_S, seekCost);
      let time: number | null = null;
      let shortcut = false;
      let seekAt = forward ? null : req.t;
      for (let retries = 0; seekAt !== null; retries++) {
        const seekedAt = seekAt;
        seekAt = null;
        const landed = await walker.seek(seekedAt, notBefore);
        if (landed === "joined") break;
        // Landed after t: frames in [t, there) hang off an earlier keyframe. Seek one GOP earlier,
        // down to once before the first packet.
        const canRetry = seekedAt >= 0 && retries < MAX_SEEK_RETRIES;
        const retry = () => {
          decodeStats.seekRetries++;
          seekAt = Math.max(seekedAt - gop, -gop);
        };
        if (landed === "late" && canRetry) {
          retry();
          continue;
        }
        walker.restart();
        if (tolerance > 0) time = await walker.keyframeShortcut(notBefore, req.t);
        if (time !== null) {
          shortcut = true;
          break;
        }
        // The first frame out must not be after t either (a keyframe packet without a time).
        time = await walker.next(req.t, opts.signal);
        if (time !== null && time > req.t + EPSILON_S && walker.framesSinceFlush === 1 && canRetry) {
          retry();
          time = null;
        }
      }
      if (!shortcut && (time === null || time < target)) {
        // Decode forward to the exact frame.
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
