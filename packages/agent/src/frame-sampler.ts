// Where an episode's frames come from: the K overview frames (SPEC §1.1) and crop_video windows
// (SPEC §1.4). The runner talks to this interface only and times it separately from the model.
// The default implementation decodes through @paravt/video (JPEG quality 85 inside the SPEC pixel
// bounds, optional disk FrameCache).

import { cropWindow, overview, probe, type FrameCache, type SampledFrame, type VideoInfo } from "@paravt/video";

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

export interface FrameSampler {
  overview(video: VideoRef, k: number, opts?: { signal?: AbortSignal }): Promise<OverviewResult>;
  /** Throws (VideoError INVALID_WINDOW) for start >= end or start >= duration; clamps end. */
  crop(video: VideoRef, start: number, end: number, opts?: { signal?: AbortSignal }): Promise<CropFrames>;
}

export interface VideoFrameSamplerOptions {
  cache?: FrameCache | null;
  /**
   * @paravt/video's accuracy/cost knob (see its README "Accuracy vs cost"): default = half the
   * spacing of the requested times; 0 = exact frames everywhere (what the nano trainer decodes
   * and what reproducing the reference's exact frames needs), ~20x the cost on hour-long videos.
   */
  maxErrorS?: number;
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
    async overview(video, k, o = {}) {
      const fo = await frameOpts(video, o.signal);
      const frames = await overview(video.file, k, fo);
      return { duration: fo.info.duration, frames };
    },
    async crop(video, start, end, o = {}) {
      const fo = await frameOpts(video, o.signal);
      return cropWindow(video.file, start, end, fo);
    },
  };
}
