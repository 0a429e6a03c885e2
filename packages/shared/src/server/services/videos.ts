import fs from "node:fs/promises";
import path from "node:path";
import type { Video } from "@paravt/db";
import { videoAssetsSchema, type VideoAssets, type VideoOutput } from "../../contracts/videos";
import { ConflictError, NotFoundError, UnauthorizedError } from "../../errors";
import { db } from "../db";
import { serverEnv } from "../env";
import { confineToMediaRoots } from "../media-paths";
import { assertTokenScope, projectAccess, type Principal, type ProjectAccess } from "./access";
import { launchRun, launchSystemRun } from "./runs";

export function videoAssets(v: Pick<Video, "assets">): VideoAssets {
  const parsed = videoAssetsSchema.safeParse(v.assets ?? {});
  return parsed.success ? parsed.data : {};
}

function toOutput(v: Video): VideoOutput {
  const assets = videoAssets(v);
  return {
    id: v.id,
    name: v.name,
    source: v.source,
    status: v.status,
    error: v.error,
    durationS: v.durationS,
    width: v.width,
    height: v.height,
    fps: v.fps,
    codec: v.codec,
    sizeBytes: v.sizeBytes === null ? null : Number(v.sizeBytes),
    hasThumbnail: Boolean(assets.thumbnail),
    hasFilmstrip: Boolean(assets.filmstrip),
    createdAt: v.createdAt,
  };
}

export async function listVideos(access: ProjectAccess, input: { query?: string } = {}): Promise<VideoOutput[]> {
  const rows = await db().video.findMany({
    where: {
      projectId: access.projectId,
      ...(input.query ? { name: { contains: input.query, mode: "insensitive" as const } } : {}),
    },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(toOutput);
}

export async function getVideo(access: ProjectAccess, videoId: string): Promise<VideoOutput> {
  const v = await db().video.findFirst({ where: { id: videoId, projectId: access.projectId } });
  if (!v) throw new NotFoundError("Video");
  return toOutput(v);
}

/**
 * The video row behind a file/asset request, after checking that the caller may read its
 * project. An unknown id and a video of another project both read as not found.
 */
export async function videoForReading(principal: Principal | null, videoId: string): Promise<Video> {
  if (!principal) throw new UnauthorizedError();
  // A token without READ learns that (403) rather than a misleading "not found".
  assertTokenScope(principal, "READ");
  const v = await db().video.findUnique({ where: { id: videoId } });
  if (!v) throw new NotFoundError("Video");
  await projectAccess(principal, v.projectId, "READ").catch(() => {
    throw new NotFoundError("Video");
  });
  return v;
}

export function projectVideoDir(projectId: string, kind: "generated" | "uploads"): string {
  return path.join(serverEnv().DATA_DIR, "projects", projectId, kind);
}

/** Derived assets (thumbnail, filmstrip) of one video. */
export function videoAssetDir(videoId: string): string {
  return path.join(serverEnv().DATA_DIR, "assets", videoId);
}

async function createAndProbe(
  access: ProjectAccess,
  data: { name: string; source: Video["source"]; path: string; sizeBytes?: number },
): Promise<{ video: VideoOutput; runId: string }> {
  const existing = await db().video.findUnique({
    where: { projectId_path: { projectId: access.projectId, path: data.path } },
  });
  if (existing) throw new ConflictError(`This file is already in the project as "${existing.name}"`);
  const video = await db().video.create({
    data: { projectId: access.projectId, ...data, sizeBytes: data.sizeBytes ?? null },
  });
  const run = await launchRun(access, {
    jobName: "video.probe",
    name: `Probe ${data.name}`,
    payload: { videoId: video.id },
  });
  return { video: toOutput(video), runId: run.id };
}

/** Registers a file that already lives on the server, inside the configured media roots. */
export async function registerVideoPath(
  access: ProjectAccess,
  input: { path: string; name?: string },
): Promise<{ video: VideoOutput; runId: string }> {
  const real = await confineToMediaRoots(input.path, serverEnv().MEDIA_ROOTS);
  const stat = await fs.stat(real);
  return createAndProbe(access, {
    name: input.name ?? path.basename(real),
    source: "PATH",
    path: real,
    sizeBytes: stat.size,
  });
}

/** Records a finished upload (already stored under DATA_DIR) and probes it. */
export async function registerUpload(
  access: ProjectAccess,
  input: { name: string; storedPath: string; sizeBytes: number },
): Promise<{ video: VideoOutput; runId: string }> {
  return createAndProbe(access, {
    name: input.name,
    source: "UPLOAD",
    path: input.storedPath,
    sizeBytes: input.sizeBytes,
  });
}

/** Registers a synthetic video and launches the job that renders and probes it. */
export async function createDemoVideo(
  access: ProjectAccess,
  input: { name?: string; durationS: number },
): Promise<{ video: VideoOutput; runId: string }> {
  const name = input.name ?? `demo-${input.durationS}s-${Date.now().toString(36)}.mp4`;
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_");
  const video = await db().video.create({
    data: {
      projectId: access.projectId,
      name,
      source: "GENERATED",
      path: path.join(projectVideoDir(access.projectId, "generated"), `${Date.now().toString(36)}-${safe}`),
      probe: { requestedDurationS: input.durationS },
    },
  });
  const run = await launchRun(access, {
    jobName: "video.generate",
    name: `Generate ${name}`,
    payload: { videoId: video.id },
    config: { videoId: video.id, durationS: input.durationS },
  });
  return { video: toOutput(video), runId: run.id };
}

/** After a successful probe: derive thumbnails and filmstrip (the row shows PROCESSING). */
export async function launchAssets(video: Pick<Video, "id" | "projectId" | "name">): Promise<string> {
  await db().video.update({ where: { id: video.id }, data: { status: "PROCESSING" } });
  const run = await launchSystemRun(video.projectId, {
    jobName: "video.assets",
    name: `Thumbnails and filmstrip for ${video.name}`,
    payload: { videoId: video.id },
  });
  return run.id;
}
