// Opens a video file in-process with node-av (FFmpeg 8 through N-API) and turns every way a file
// can fail to be a usable video into a typed VideoError. Shared by probe() and the frame reader,
// so an upload that probes fine never fails later with a different message.

import { open as openFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import {
  Codec,
  CodecContext,
  Dictionary,
  FFmpegError,
  FormatContext,
  Log,
  avGetPixFmtName,
  type Stream,
} from "node-av/lib";
import {
  AVDISCARD_ALL,
  AVERROR_INVALIDDATA,
  AVMEDIA_TYPE_AUDIO,
  AVMEDIA_TYPE_VIDEO,
  AV_DISPOSITION_ATTACHED_PIC,
  AV_LOG_INFO,
  AV_LOG_QUIET,
  AV_NOPTS_VALUE,
  AV_PKT_DATA_DISPLAYMATRIX,
  FF_THREAD_FRAME,
  FF_THREAD_SLICE,
  type AVPixelFormat,
  type AVThreadType,
} from "node-av/constants";
import { VideoError } from "./errors";

let logsSilenced = false;

/**
 * FFmpeg logs every damaged packet to stderr (hundreds of lines for one corrupt upload). We report
 * failures through VideoError instead. Only silenced when nobody changed the level from FFmpeg's
 * default, so an engineer who raised it on purpose keeps the output.
 */
function silenceFfmpegLogs(): void {
  if (logsSilenced) return;
  logsSilenced = true;
  if (Log.getLevel() === AV_LOG_INFO) Log.setLevel(AV_LOG_QUIET);
}

export interface Rational {
  num: number;
  den: number;
}

export interface OpenedVideo {
  path: string;
  sizeBytes: number;
  mtimeMs: number;
  fc: FormatContext;
  stream: Stream;
  streamIndex: number;
  codec: Codec;
  timeBase: Rational;
  /** Stream start in stream ticks; timestamps we expose are relative to it. */
  startPts: bigint;
  /** Seconds, from the container; refined by probe() when it disagrees with the data. */
  duration: number;
  /** True when `duration` is the video stream's own (exact) duration, not the whole file's estimate. */
  exactDuration: boolean;
  fps: number;
  codedWidth: number;
  codedHeight: number;
  pixelFormat: string | null;
  /** Clockwise rotation to apply for display (from the container's display matrix). */
  rotation: 0 | 90 | 180 | 270;
  /** Display size: coded size corrected for non-square pixels, then rotated. */
  width: number;
  height: number;
  container: string;
  bitRate: number | null;
  frameCount: number | null;
  hasAudio: boolean;
}

function label(path: string): string {
  return `"${basename(path)}"`;
}

function isImageFormat(name: string): boolean {
  return name === "image2" || name.endsWith("_pipe") || name === "webp" || name === "apng";
}

async function looksLikeMp4(path: string): Promise<boolean> {
  const fh = await openFile(path, "r");
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(12), 0, 12, 0);
    if (bytesRead < 8) return false;
    const type = buffer.toString("latin1", 4, 8);
    return ["ftyp", "moov", "mdat", "free", "wide", "skip", "pnot"].includes(type);
  } finally {
    await fh.close();
  }
}

/** Clockwise display rotation from a 3x3 16.16 fixed-point display matrix (as FFmpeg's autorotate reads it). */
export function rotationFromDisplayMatrix(matrix: Buffer | null): 0 | 90 | 180 | 270 {
  if (!matrix || matrix.length < 36) return 0;
  const m = (i: number) => matrix.readInt32LE(i * 4) / 65536;
  const s0 = Math.hypot(m(0), m(3));
  const s1 = Math.hypot(m(1), m(4));
  if (s0 === 0 || s1 === 0) return 0;
  const degrees = (Math.atan2(m(1) / s1, m(0) / s0) * 180) / Math.PI;
  const quarter = ((Math.round(degrees / 90) % 4) + 4) % 4;
  return (quarter * 90) as 0 | 90 | 180 | 270;
}

function ratio(r: Rational | undefined): number {
  return r && r.num > 0 && r.den > 0 ? r.num / r.den : 0;
}

// FFmpeg's stream analysis reads 7 s of an MPEG-TS (5 s of other formats) to learn each stream's
// parameters. A transport stream interleaves by time, so a video track that starts later than
// that after the audio (a recording whose picture begins late, `-itsoffset`, a cut) has not a
// single packet in the analysed part and its size stays unknown, although ffmpeg decodes every
// frame. Such a file is analysed again with these limits; the analysis stops as soon as every
// stream is known, so it costs only the reading up to the video's first keyframe (a truly
// broken file reads up to the probe size, once).
const LATE_STREAM_ANALYSIS = { analyzeduration: 600_000_000, probesize: 256 * 1024 * 1024 } as const;

/** Opens `path`, picks its main video stream, and classifies failures. The caller closes `fc`. */
export async function openVideo(path: string): Promise<OpenedVideo> {
  try {
    return await openVideoWith(path, null);
  } catch (err) {
    if (!(err instanceof UnknownVideoSize)) throw err;
    const options = Dictionary.fromObject(LATE_STREAM_ANALYSIS);
    try {
      return await openVideoWith(path, options);
    } finally {
      options.free();
    }
  }
}

/** The first analysis left the video's size unknown: worth one deeper analysis (LATE_STREAM_ANALYSIS). */
class UnknownVideoSize extends VideoError {}

async function openVideoWith(path: string, options: Dictionary | null): Promise<OpenedVideo> {
  silenceFfmpegLogs();
  let st;
  try {
    st = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new VideoError("NOT_FOUND", `Video file ${label(path)} was not found.`, { detail: path, cause: err });
    }
    throw new VideoError("NOT_FOUND", `Video file ${label(path)} cannot be read (${code ?? "error"}).`, {
      detail: path,
      cause: err,
    });
  }
  if (!st.isFile()) throw new VideoError("NOT_VIDEO", `${label(path)} is not a file.`, { detail: path });
  if (st.size === 0) throw new VideoError("EMPTY", `The file ${label(path)} is empty (0 bytes).`, { detail: path });

  const fc = new FormatContext();
  let ok = false;
  try {
    const ret = await fc.openInput(path, null, options);
    if (ret < 0) {
      const why = FFmpegError.strerror(ret);
      if (ret === AVERROR_INVALIDDATA && (await looksLikeMp4(path))) {
        throw new VideoError(
          "TRUNCATED",
          `The file ${label(path)} is an incomplete MP4: its index is missing, so it was probably cut off during upload or recording.`,
          { detail: `${path}: ${why}` },
        );
      }
      throw new VideoError("NOT_VIDEO", `The file ${label(path)} is not a video we can read.`, {
        detail: `${path}: ${why}`,
      });
    }
    const info = await fc.findStreamInfo();
    if (info < 0) {
      throw new VideoError("DECODE_FAILED", `The file ${label(path)} is damaged: its streams cannot be read.`, {
        detail: `${path}: ${FFmpegError.strerror(info)}`,
      });
    }
    const container = fc.iformat?.name ?? "unknown";
    const streams = fc.streams;
    const isRealVideo = (s: Stream) =>
      s.codecpar.codecType === AVMEDIA_TYPE_VIDEO && !s.hasDisposition(AV_DISPOSITION_ATTACHED_PIC);
    const hasAudio = streams.some((s) => s.codecpar.codecType === AVMEDIA_TYPE_AUDIO);
    if (isImageFormat(container)) {
      throw new VideoError("NOT_VIDEO", `The file ${label(path)} is an image, not a video.`, {
        detail: `${path}: ${container}`,
      });
    }
    const best = fc.findBestStream(AVMEDIA_TYPE_VIDEO);
    const stream = streams.find((s) => s.index === best && isRealVideo(s)) ?? streams.find(isRealVideo);
    if (!stream) {
      if (hasAudio) {
        throw new VideoError("AUDIO_ONLY", `The file ${label(path)} contains only audio, no video track.`, {
          detail: `${path}: ${container}`,
        });
      }
      throw new VideoError("NOT_VIDEO", `The file ${label(path)} has no video track.`, {
        detail: `${path}: ${container}`,
      });
    }
    const par = stream.codecpar;
    const codec = Codec.findDecoder(par.codecId);
    if (!codec) {
      const tag = par.codecTagString ?? `codec id ${par.codecId}`;
      throw new VideoError("UNSUPPORTED_CODEC", `The video codec of ${label(path)} (${tag.trim()}) is not supported.`, {
        detail: `${path}: no decoder for ${tag}`,
      });
    }
    if (!(par.width > 0 && par.height > 0)) {
      const damaged = [
        "DECODE_FAILED",
        `The file ${label(path)} is damaged: its video size is unknown.`,
        { detail: options ? `${path}: size unknown after a deep analysis` : path },
      ] as const;
      throw options ? new VideoError(...damaged) : new UnknownVideoSize(...damaged);
    }
    // Only the chosen stream is read: the demuxer then skips audio/subtitle samples without copying them.
    for (const s of streams) if (s.index !== stream.index) s.discard = AVDISCARD_ALL;

    const tb = stream.timeBase;
    const timeBase = { num: tb.num, den: tb.den };
    const startPts = stream.startTime === AV_NOPTS_VALUE ? 0n : stream.startTime;
    let duration = 0;
    let exactDuration = false;
    if (stream.duration !== AV_NOPTS_VALUE && stream.duration > 0n) {
      duration = (Number(stream.duration) * timeBase.num) / timeBase.den;
      exactDuration = true;
    } else if (fc.duration !== AV_NOPTS_VALUE && fc.duration > 0n) duration = Number(fc.duration) / 1e6;
    const fps = ratio(stream.avgFrameRate) || ratio(stream.rFrameRate) || ratio(par.frameRate);
    const rotation = rotationFromDisplayMatrix(par.getCodedSideData(AV_PKT_DATA_DISPLAYMATRIX));
    const sar = ratio(par.sampleAspectRatio) || ratio(stream.sampleAspectRatio) || 1;
    const displayW = Math.max(1, Math.round(par.width * sar));
    const swap = rotation === 90 || rotation === 270;
    const frameCount = stream.nbFrames > 0n ? Number(stream.nbFrames) : null;
    const bitRate = fc.bitRate > 0n ? Number(fc.bitRate) : par.bitRate > 0n ? Number(par.bitRate) : null;
    ok = true;
    return {
      path,
      sizeBytes: st.size,
      mtimeMs: st.mtimeMs,
      fc,
      stream,
      streamIndex: stream.index,
      codec,
      timeBase,
      startPts,
      duration,
      exactDuration,
      fps,
      codedWidth: par.width,
      codedHeight: par.height,
      pixelFormat: avGetPixFmtName(par.format as AVPixelFormat),
      rotation,
      width: swap ? par.height : displayW,
      height: swap ? displayW : par.height,
      container,
      bitRate,
      frameCount,
      hasAudio,
    };
  } finally {
    if (!ok) await fc.closeInput();
  }
}

export interface DecoderOptions {
  /**
   * Decoder threads. Default 1: with seeks every few frames, frame threading mostly adds latency
   * (each thread holds a frame that a flush throws away), and a worker runs several jobs at once
   * anyway. Measured in bench/video/README.md.
   */
  threads?: number;
}

export async function openDecoder(video: OpenedVideo, opts: DecoderOptions = {}): Promise<CodecContext> {
  const cc = new CodecContext();
  cc.allocContext3(video.codec);
  const ret = cc.parametersToContext(video.stream.codecpar);
  if (ret < 0) {
    cc.freeContext();
    throw new VideoError("UNSUPPORTED_CODEC", `The video codec of ${label(video.path)} is not supported.`, {
      detail: FFmpegError.strerror(ret),
    });
  }
  cc.pktTimebase = video.stream.timeBase;
  const threads = opts.threads ?? 1;
  cc.threadCount = threads;
  if (threads !== 1) cc.threadType = (FF_THREAD_FRAME | FF_THREAD_SLICE) as AVThreadType;
  const opened = await cc.open2(video.codec, null);
  if (opened < 0) {
    cc.freeContext();
    throw new VideoError(
      "UNSUPPORTED_CODEC",
      `The video codec of ${label(video.path)} (${video.codec.name}) could not be opened.`,
      {
        detail: FFmpegError.strerror(opened),
      },
    );
  }
  return cc;
}

export function describeFile(path: string): string {
  return label(path);
}
