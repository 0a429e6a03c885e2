// Typed errors of the video package. Client-safe (no Node imports): the UI maps `code` to icons
// and shows `message` on the video row, so messages are written for users, not developers;
// technical detail (FFmpeg error strings, offsets) goes to `detail`.

export const VIDEO_ERROR_CODES = [
  "NOT_FOUND",
  "NOT_VIDEO",
  "TRUNCATED",
  "EMPTY",
  "AUDIO_ONLY",
  "UNSUPPORTED_CODEC",
  "DECODE_FAILED",
  "INVALID_WINDOW",
  "INVALID_ARGUMENT",
] as const;

export type VideoErrorCode = (typeof VIDEO_ERROR_CODES)[number];

export class VideoError extends Error {
  override readonly name = "VideoError";
  readonly code: VideoErrorCode;
  /** Technical detail for logs (FFmpeg messages, byte counts); never needed to understand `message`. */
  readonly detail: string | undefined;

  constructor(code: VideoErrorCode, message: string, options?: { detail?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
  }

  toJSON(): { code: VideoErrorCode; message: string; detail?: string } {
    return this.detail === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, detail: this.detail };
  }
}

export function isVideoError(value: unknown, code?: VideoErrorCode): value is VideoError {
  return value instanceof VideoError && (code === undefined || value.code === code);
}
