// Where an episode's frames come from: the K overview frames (SPEC §1.1) and crop_video windows
// (SPEC §1.4). The runner talks to this interface only and times it separately from the model.
// The default implementation decodes through @paravt/video (JPEG quality 85 inside the SPEC pixel
// bounds, optional disk FrameCache).
//
// Contract: a frame's `timestamp` is the time every consumer states for it — the `<t seconds>`
// text of the prompt (messages.ts), the trajectory's overviewTimestamps / frameTimestamps and the
// viewer's ticks — so the pixels must be the frame shown at that time. By default they are the
// exact frame (the first at or after it, less than one frame period later). A sampler that opts
// into keyframe approximations for speed rewrites `timestamp` to the frame's real presentation
// time (`sourceTime`), so what is stated is still what is seen.

import {
  cropWindow,
  overview,
  probe,
  referenceCrop,
  referenceOverview,
  type FrameCache,
  type SampledFrame,
  type VideoInfo,
} from "@paravt/video";

/** The video of an episode. */
export interface VideoRef {
  /** Path of the file on this machine. */
  file: string;
  /** Stable identity (e.g. the upload's content hash): frame-cache key and `FramePart.video`; default `file`. */
  key?: string;
}

export interface OverviewResult {
  /** Seconds (what the frame times are relative to). */
  duration: number;
  frames: SampledFrame[];
}

export interface CropFrames {
  /** The window actually sampled (`end` clamped to the duration, SPEC §1.4). */
  start: number;
  end: number;
  clamped: boolean;
  frames: SampledFrame[];
}

/**
 * Which frames: "workbench" (SPEC §1.1 overview at i·D/K, crops at 1 fps inside the SPEC pixel
 * bounds) or "reference" (the reference evaluator's qwen-vl-utils `fetch_video`: frames by index
 * from the first to the last, its video size for the overview, 784..50,176 pixels for crops;
 * @paravt/video reference-frames.ts). Each frame's `timestamp` is the time of the frame decoded.
 */
export type FrameSampling = "workbench" | "reference";

export interface SampleOptions {
  signal?: AbortSignal;
  /** Default "workbench". */
  sampling?: FrameSampling;
}

export interface FrameSampler {
  /** Seconds (the time base of every frame time), without decoding a frame. */
  duration(video: VideoRef): Promise<number>;
  overview(video: VideoRef, k: number, opts?: SampleOptions): Promise<OverviewResult>;
  /** Throws (VideoError INVALID_WINDOW / INVALID_ARGUMENT) for a window without frames; clamps end. */
  crop(video: VideoRef, start: number, end: number, opts?: SampleOptions): Promise<CropFrames>;
}

export interface VideoFrameSamplerOptions {
  cache?: FrameCache | null;
  /**
   * @paravt/video's accuracy/cost knob (its README "Accuracy vs cost"). Default 0: exact frames,
   * what the nano trainer decodes and what the reference decodes. `> 0` opts into speed: a
   * keyframe up to maxErrorS before a requested time is taken as is (a 64-frame overview of an
   * hour-long video decodes 64 frames instead of ~3,500), and each frame's `timestamp` becomes its
   * real time, so the overview ticks are no longer evenly spaced.
   */
  maxErrorS?: number;
}

/** In speed mode the time stated for a frame is the time it was really shown. */
function stateRealTime(frame: SampledFrame): SampledFrame {
  return { ...frame, timestamp: frame.sourceTime };
}

/** The FrameSampler over @paravt/video; probes each file once per sampler (files must not change under a run). */
export function videoFrameSampler(opts: VideoFrameSamplerOptions = {}): FrameSampler {
  const infos = new Map<string, Promise<VideoInfo>>();
  const info = (file: string): Promise<VideoInfo> => {
    let p = infos.get(file);
    if (!p) {
      p = probe(file);
      p.catch(() => infos.delete(file)); // a failed probe is retried next time
      infos.set(file, p);
      // One sampler serves a whole eval: keep the map bounded.
      if (infos.size > 1024) infos.delete(infos.keys().next().value!);
    }
    return p;
  };
  const approximate = (opts.maxErrorS ?? 0) > 0;
  const stated = (frames: SampledFrame[]) => (approximate ? frames.map(stateRealTime) : frames);
  const frameOpts = async (video: VideoRef, signal?: AbortSignal) => {
    const i = await info(video.file);
    return {
      info: i,
      ...(opts.cache ? { cache: opts.cache } : {}),
      ...(video.key ? { videoKey: video.key } : {}),
      ...(opts.maxErrorS !== undefined ? { maxErrorS: opts.maxErrorS } : {}),
      ...(signal ? { signal } : {}),
    };
  };
  return {
    async duration(video) {
      return (await info(video.file)).duration;
    },
    async overview(video, k, o = {}) {
      const fo = await frameOpts(video, o.signal);
      const frames =
        o.sampling === "reference" ? await referenceOverview(video.file, k, fo) : await overview(video.file, k, fo);
      return { duration: fo.info.duration, frames: stated(frames) };
    },
    async crop(video, start, end, o = {}) {
      const fo = await frameOpts(video, o.signal);
      const crop =
        o.sampling === "reference"
          ? await referenceCrop(video.file, start, end, fo)
          : await cropWindow(video.file, start, end, fo);
      return { ...crop, frames: stated(crop.frames) };
    },
  };
}
