import { db, videos } from "@paravt/shared/server";
import { isVideoError, probe } from "@paravt/video";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

/** Probes a registered video and records its metadata (or the reason it is unusable) on its row. */
export const handleVideoProbe: JobHandler<"video.probe"> = async ({ videoId }, ctx) => {
  const video = await db().video.findUnique({ where: { id: videoId } });
  if (!video) throw new SkipJobError(`video ${videoId} no longer exists`);
  await db().video.update({ where: { id: videoId }, data: { status: "PROBING", error: null } });
  await ctx.progress(0.1, `Probing ${video.name}`);
  return probeInto(videoId, video.path);
};

/** Probes the file into the video row, then queues its assets. */
export async function probeInto(videoId: string, path: string): Promise<string> {
  try {
    const meta = await probe(path);
    await db().video.update({
      where: { id: videoId },
      data: {
        error: null,
        durationS: meta.duration,
        fps: meta.fps,
        width: meta.width,
        height: meta.height,
        codec: meta.codec,
        rotation: meta.rotation,
        sizeBytes: meta.sizeBytes,
        probe: JSON.parse(JSON.stringify(meta)),
      },
    });
  } catch (err: unknown) {
    const reason = isVideoError(err) ? err.message : `Probe failed: ${(err as Error).message}`;
    await db().video.update({ where: { id: videoId }, data: { status: "FAILED", error: reason } });
    // A corrupt or unsupported file does not get better on retry.
    if (isVideoError(err)) throw new PermanentJobError(reason);
    throw err;
  }
  // Playable now; thumbnails and the filmstrip follow in their own job (status PROCESSING).
  const video = await db().video.findUniqueOrThrow({ where: { id: videoId } });
  await videos.launchAssets(video);
  return `${video.width}x${video.height} ${video.codec}, ${video.durationS?.toFixed(1)} s`;
}
