// Byte-stream endpoints of the video library: upload, the file itself (Range), poster,
// filmstrip sprites and single sampled frames. Authorization is the same as the tRPC API's.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { assertCan, projectAccess, serverEnv, sniffVideoType, SNIFF_BYTES, videos } from "@paravt/shared/server";
import type { TokenScope } from "@paravt/db";
import { FrameCache, framesAt, isVideoError } from "@paravt/video";
import { z } from "zod";
import { HttpError, restRoute } from "./handler";
import { serveFile } from "./files";

const fileName = z
  .string()
  .trim()
  .min(1)
  .max(200, "The file name is too long")
  // Control characters and path separators never reach the disk or the UI.
  .transform((n) => [...n].map((c) => (c.charCodeAt(0) < 0x20 || c === "/" || c === "\\" ? "_" : c)).join(""));

/** The scope a token needs to upload (also the upload's line in the OpenAPI document). */
export const UPLOAD_TOKEN_SCOPE = "WRITE" satisfies TokenScope;

/**
 * POST the raw file as the body (not multipart: the bytes stream straight to disk), with the
 * original name in `X-File-Name` (URI-encoded). The type is sniffed from the bytes; the size
 * limit is enforced while streaming, so an oversized body is cut off without being stored.
 */
export const uploadVideo = restRoute<{ projectId: string }>(async (req, ctx, { projectId }) => {
  const access = await projectAccess(ctx.principal, projectId, UPLOAD_TOKEN_SCOPE);
  assertCan(access, "videos.upload");
  const limit = serverEnv().UPLOAD_MAX_BYTES;
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new HttpError(413, `The file is larger than the upload limit (${formatBytes(limit)})`);
  let rawName: string;
  try {
    rawName = decodeURIComponent(req.headers.get("x-file-name") ?? "upload");
  } catch {
    throw new HttpError(400, "X-File-Name is not valid URI encoding");
  }
  const parsedName = fileName.safeParse(rawName);
  if (!parsedName.success) throw new HttpError(400, z.prettifyError(parsedName.error));
  if (!req.body) throw new HttpError(400, "The request has no body: send the file's bytes");

  const dir = videos.projectVideoDir(projectId, "uploads");
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.upload-${crypto.randomUUID()}.part`);
  const out = fs.createWriteStream(tmp);
  let size = 0;
  let head = Buffer.alloc(0);
  try {
    const reader = req.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new HttpError(413, `The file is larger than the upload limit (${formatBytes(limit)})`);
      }
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, Buffer.from(value.subarray(0, SNIFF_BYTES))]);
      if (!out.write(value)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (size === 0) throw new HttpError(400, "The file is empty");
    const type = sniffVideoType(head);
    if (!type) {
      throw new HttpError(
        415,
        `${parsedName.data} is not a video file (its first bytes match no video container we accept: MP4/MOV, WebM/MKV, AVI, MPEG-TS, FLV, Ogg)`,
      );
    }
    const final = path.join(dir, `${crypto.randomUUID()}.${type.extension}`);
    await fs.promises.rename(tmp, final);
    const res = await videos.registerUpload(access, { name: parsedName.data, storedPath: final, sizeBytes: size });
    return Response.json(res, { status: 201 });
  } finally {
    out.destroy();
    await fs.promises.rm(tmp, { force: true });
  }
});

function formatBytes(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(n / 1024 ** 2)} MiB`;
}

const CONTENT_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".mov": "video/quicktime",
  ".webm": "video/webm",
  ".mkv": "video/x-matroska",
  ".ts": "video/mp2t",
  ".avi": "video/x-msvideo",
  ".ogv": "video/ogg",
};

export const videoFile = restRoute<{ videoId: string }>(async (req, ctx, { videoId }) => {
  const v = await videos.videoForReading(ctx.principal, videoId);
  const type = CONTENT_TYPES[path.extname(v.path).toLowerCase()] ?? "application/octet-stream";
  return serveFile(req, v.path, type);
});

const ASSET_CACHE = "private, max-age=86400";

export const videoThumbnail = restRoute<{ videoId: string }>(async (req, ctx, { videoId }) => {
  const v = await videos.videoForReading(ctx.principal, videoId);
  const name = videos.videoAssets(v).thumbnail;
  if (!name) throw new HttpError(404, "This video has no thumbnail yet");
  return serveFile(req, path.join(videos.videoAssetDir(v.id), name), "image/jpeg", { cacheControl: ASSET_CACHE });
});

export const videoFilmstripIndex = restRoute<{ videoId: string }>(async (req, ctx, { videoId }) => {
  const v = await videos.videoForReading(ctx.principal, videoId);
  const strip = videos.videoAssets(v).filmstrip;
  if (!strip) throw new HttpError(404, "This video has no filmstrip yet");
  return serveFile(req, path.join(videos.videoAssetDir(v.id), strip.index), "application/json", {
    cacheControl: ASSET_CACHE,
  });
});

export const videoFilmstripSheet = restRoute<{ videoId: string; sheet: string }>(async (req, ctx, params) => {
  const v = await videos.videoForReading(ctx.principal, params.videoId);
  const sheets = videos.videoAssets(v).filmstrip?.sheets ?? [];
  const n = Number(params.sheet);
  const name = Number.isInteger(n) ? sheets[n] : undefined;
  if (!name) throw new HttpError(404, `No filmstrip sheet ${params.sheet}`);
  return serveFile(req, path.join(videos.videoAssetDir(v.id), name), "image/jpeg", { cacheControl: ASSET_CACHE });
});

const holder = globalThis as unknown as { __paravtFrameCache?: FrameCache };
function frameCache(): FrameCache {
  holder.__paravtFrameCache ??= new FrameCache({
    dir: path.join(serverEnv().DATA_DIR, "frame-cache"),
    maxBytes: 512 * 1024 ** 2,
  });
  return holder.__paravtFrameCache;
}

const frameQuery = z.object({ t: z.coerce.number().min(0, "t must be >= 0").max(1e7) });

/** One frame at `?t=<seconds>` as the model sees it (SPEC §1 pixel bounds, JPEG q85), cached. */
export const videoFrame = restRoute<{ videoId: string }>(async (req, ctx, { videoId }) => {
  const v = await videos.videoForReading(ctx.principal, videoId);
  const q = frameQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw new HttpError(400, z.prettifyError(q.error));
  if (v.durationS !== null && q.data.t > v.durationS) {
    throw new HttpError(400, `t=${q.data.t} is past the end of the video (${v.durationS.toFixed(2)} s)`);
  }
  try {
    const [frame] = await framesAt(v.path, [q.data.t], { cache: frameCache(), maxErrorS: 0 });
    return new Response(new Uint8Array(frame!.jpeg), {
      headers: {
        "content-type": "image/jpeg",
        "cache-control": ASSET_CACHE,
        "x-frame-source-time": String(frame!.sourceTime),
      },
    });
  } catch (err) {
    if (isVideoError(err)) throw new HttpError(422, err.message);
    throw err;
  }
});
