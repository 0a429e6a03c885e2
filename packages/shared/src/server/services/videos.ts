import path from "node:path";
import type { VideoOutput } from "../../contracts/videos";
import { db } from "../db";
import { serverEnv } from "../env";
import type { ProjectAccess } from "./access";
import { launchRun } from "./runs";

const videoSelect = {
  id: true,
  name: true,
  source: true,
  status: true,
  error: true,
  durationS: true,
  width: true,
  height: true,
  fps: true,
  codec: true,
  createdAt: true,
} as const;

export async function listVideos(access: ProjectAccess): Promise<VideoOutput[]> {
  return db().video.findMany({
    where: { projectId: access.projectId },
    select: videoSelect,
    orderBy: { createdAt: "desc" },
  });
}

export function generatedVideoDir(projectId: string): string {
  return path.join(serverEnv().DATA_DIR, "projects", projectId, "generated");
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
      path: path.join(generatedVideoDir(access.projectId), `${Date.now().toString(36)}-${safe}`),
      probe: { requestedDurationS: input.durationS },
    },
    select: videoSelect,
  });
  const run = await launchRun(access, {
    jobName: "video.generate",
    name: `Generate ${name}`,
    payload: { videoId: video.id },
    config: { videoId: video.id, durationS: input.durationS },
  });
  return { video, runId: run.id };
}
