// Resolving a row's video reference to an absolute file under the video directory. References stay
// inside that directory (lexically: `..` and foreign absolute paths are refused) so a benchmark file
// cannot point the importer at arbitrary files; the importer still checks real paths against
// MEDIA_ROOTS when it registers the videos. Existence is cached per path because benchmarks ask
// several questions per video (VideoMME 3, LVBench ~15).

import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export type VideoRef =
  { ok: true; path: string } | { ok: false; reason: "missing_video" | "bad_video_path"; detail: string };

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export class VideoResolver {
  private readonly exists = new Map<string, Promise<boolean>>();

  constructor(readonly videoDir: string) {}

  private isFile(abs: string): Promise<boolean> {
    let p = this.exists.get(abs);
    if (!p) {
      p = stat(abs).then(
        (s) => s.isFile(),
        () => false,
      );
      this.exists.set(abs, p);
    }
    return p;
  }

  /** Absolute path for one reference, or why it is refused. */
  private place(ref: string): { abs: string } | { detail: string } {
    let p = ref.trim();
    if (/^file:\/\//i.test(p)) {
      try {
        p = fileURLToPath(p);
      } catch {
        return { detail: `"${ref}" is not a valid file:// URI` };
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) {
      return { detail: `"${ref}" is a URL, expected a path under the video directory` };
    }
    const abs = isAbsolute(p) ? resolve(p) : resolve(this.videoDir, p.replace(/\\/g, "/"));
    if (!inside(this.videoDir, abs)) return { detail: `"${ref}" is outside the video directory ${this.videoDir}` };
    return { abs };
  }

  /** The first candidate that is an existing file. Candidates are alternatives for one video (extensions, folders). */
  async resolve(candidates: readonly string[]): Promise<VideoRef> {
    let firstPlaced: string | null = null;
    let refusal: string | null = null;
    for (const ref of candidates) {
      const placed = this.place(ref);
      if ("detail" in placed) {
        refusal ??= placed.detail;
        continue;
      }
      firstPlaced ??= placed.abs;
      if (await this.isFile(placed.abs)) return { ok: true, path: placed.abs };
    }
    if (firstPlaced === null) return { ok: false, reason: "bad_video_path", detail: refusal ?? "no video reference" };
    const shown = relative(this.videoDir, firstPlaced);
    const more = candidates.length > 1 ? ` (also tried ${candidates.length - 1} other name(s))` : "";
    return { ok: false, reason: "missing_video", detail: `no file ${shown} in ${this.videoDir}${more}` };
  }
}

/** Common container extensions tried when a benchmark names a video by id only. */
export const VIDEO_EXTENSIONS = [".mp4", ".mkv", ".webm", ".mov", ".avi"] as const;

export function withExtensions(stem: string): string[] {
  return VIDEO_EXTENSIONS.map((ext) => `${stem}${ext}`);
}
