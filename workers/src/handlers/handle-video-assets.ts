import fs from "node:fs/promises";
import path from "node:path";
import { db, videos } from "@paravt/shared/server";
import type { VideoAssets } from "@paravt/shared";
import { filmstrip, isVideoError, probe, thumbnail } from "@paravt/video";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

/** Scrubber tiles: one per ~2 s for short videos, at most 200 sprites for long ones. */
function filmstripFrames(durationS: number): number {
  return Math.max(10, Math.min(200, Math.round(durationS / 2)));
}

/** Writes the poster and the filmstrip sprites + index, then marks the video READY. */
export const handleVideoAssets: JobHandler<"video.assets"> = async ({ videoId }, ctx) => {
  const video = await db().video.findUnique({ where: { id: videoId } });
  if (!video) throw new SkipJobError(`video ${videoId} no longer exists`);
  const dir = videos.videoAssetDir(videoId);
  await fs.mkdir(dir, { recursive: true });
  try {
    const info = await probe(video.path);
    await ctx.progress(0.1, "Poster frame");
    const poster = await thumbnail(video.path, { info });
    await writeAtomically(path.join(dir, "thumbnail.jpg"), poster.jpeg);
    await ctx.progress(0.3, "Filmstrip");
    const strip = await filmstrip(video.path, { info, frames: filmstripFrames(info.duration) });
    const sheets = await Promise.all(
      strip.sheets.map(async (jpeg, i) => {
        const name = `filmstrip-${i}.jpg`;
        await writeAtomically(path.join(dir, name), jpeg);
        return name;
      }),
    );
    await writeAtomically(path.join(dir, "filmstrip.json"), Buffer.from(JSON.stringify(strip.index)));
    const assets: VideoAssets = { thumbnail: "thumbnail.jpg", filmstrip: { index: "filmstrip.json", sheets } };
    await db().video.update({ where: { id: videoId }, data: { assets, status: "READY", error: null } });
    return `poster + ${strip.index.frames.length} filmstrip tiles in ${sheets.length} sheet(s)`;
  } catch (err: unknown) {
    if (!isVideoError(err)) throw err;
    await db().video.update({ where: { id: videoId }, data: { status: "FAILED", error: err.message } });
    throw new PermanentJobError(err.message);
  }
};

/** Readers never see a half-written file: write a temp file, then rename over the target. */
async function writeAtomically(file: string, data: Buffer): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}
