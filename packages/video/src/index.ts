// @paravt/video: server-only video access (node-av + sharp + the npm ffmpeg binary).
// Client code imports `@paravt/video/sampling` instead (pure math and error types).

export { VIDEO_ERROR_CODES, VideoError, isVideoError, type VideoErrorCode } from "./errors";
export * from "./sampling";
export { probe, type VideoInfo } from "./probe";
export { overview, cropWindow, framesAt, type SampledFrame, type FrameOptions, type CropResult } from "./frames";
export { referenceOverview, referenceCrop, referenceFrameCount } from "./reference-frames";
export { FrameCache, type CachedFrame, type FrameCacheOptions } from "./frame-cache";
export { decodeStats, resetDecodeStats } from "./frame-reader";
export {
  thumbnail,
  filmstrip,
  type Thumbnail,
  type ThumbnailOptions,
  type Filmstrip,
  type FilmstripOptions,
} from "./thumbnails";
export {
  generateTestVideo,
  testVideoPasses,
  readFrameIndex,
  FRAME_INDEX_BITS,
  type TestVideoOptions,
  type TestPattern,
} from "./test-video";
export { makeFixture, FIXTURE_ERROR, type FixtureKind } from "./fixtures";
export { ffmpegBinary } from "./ffmpeg-cli";
