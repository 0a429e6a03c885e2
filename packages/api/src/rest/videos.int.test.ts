// The byte-stream routes against real files, Postgres and Redis: uploads (type sniffed from
// bytes, size limit while streaming), media-root confinement, Range requests, authorization.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, projectAccess, queue, tokens, videos } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadVideo, videoFile, videoFrame } from "./videos";
import { callerFor } from "../test-helpers";

const root = path.join(os.tmpdir(), `paravt-media-${process.pid}`);
const outside = path.join(os.tmpdir(), `paravt-outside-${process.pid}`);
process.env.MEDIA_ROOTS = root;
process.env.UPLOAD_MAX_BYTES = String(200_000);
process.env.REDIS_PREFIX = `paravt-test-rest-${process.pid}`;

let sample: Buffer;

beforeAll(async () => {
  await fs.mkdir(path.join(root, "lectures"), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await generateTestVideo(path.join(root, "lectures", "a.mp4"), { durationS: 3, width: 160, height: 90, fps: 10 });
  sample = await fs.readFile(path.join(root, "lectures", "a.mp4"));
  await fs.writeFile(path.join(outside, "secret.mp4"), sample);
  await fs.symlink(path.join(outside, "secret.mp4"), path.join(root, "lectures", "link.mp4"));
});

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

async function fixture() {
  const fx = await createProjectWithRoles(db());
  const ownerAccess = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const write = await tokens.createToken(ownerAccess, { name: "w", scopes: ["WRITE"], expiresInDays: 1 });
  const read = await tokens.createToken(ownerAccess, { name: "r", scopes: ["READ"], expiresInDays: 1 });
  return { ...fx, writeToken: write.secret, readToken: read.secret };
}

function upload(projectId: string, token: string, body: RequestInit["body"], name = "clip.mp4") {
  const req = new Request(`http://localhost/api/projects/${projectId}/videos/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "x-file-name": encodeURIComponent(name) },
    body,
  });
  return uploadVideo(req, { params: Promise.resolve({ projectId }) });
}

describe("upload", () => {
  it("stores a real video, registers it and queues its probe", async () => {
    const fx = await fixture();
    const res = await upload(fx.project.id, fx.writeToken, new Uint8Array(sample), "Lecture 1 — intro.mp4");
    expect(res.status).toBe(201);
    const body = (await res.json()) as { video: { id: string; name: string; source: string }; runId: string };
    expect(body.video).toMatchObject({ name: "Lecture 1 — intro.mp4", source: "UPLOAD" });
    const row = await db().video.findUniqueOrThrow({ where: { id: body.video.id } });
    expect(Number(row.sizeBytes)).toBe(sample.length);
    expect(path.extname(row.path)).toBe(".mp4");
    expect(await fs.readFile(row.path)).toEqual(sample);
    const run = await db().run.findUniqueOrThrow({ where: { id: body.runId } });
    expect(run).toMatchObject({ jobName: "video.probe", status: "QUEUED" });
  });

  it("refuses a non-video by its bytes (415) and keeps nothing", async () => {
    const fx = await fixture();
    const res = await upload(fx.project.id, fx.writeToken, "hello, I am text".repeat(100), "notes.mp4");
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: string }).error).toMatch(/notes\.mp4 is not a video file/);
    const dir = videos.projectVideoDir(fx.project.id, "uploads");
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await db().video.count({ where: { projectId: fx.project.id } })).toBe(0);
  });

  it("cuts off a body over the size limit (413) even without Content-Length", async () => {
    const fx = await fixture();
    const big = new Uint8Array(300_000);
    big.set(sample.subarray(0, 64));
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < big.length; i += 50_000) c.enqueue(big.subarray(i, i + 50_000));
        c.close();
      },
    });
    const res = await uploadVideo(
      new Request(`http://localhost/api/projects/${fx.project.id}/videos/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${fx.writeToken}` },
        body: stream,
        // Node's fetch needs duplex for a streamed request body (not yet in the DOM typings).
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ projectId: fx.project.id }) },
    );
    expect(res.status).toBe(413);
    expect(await fs.readdir(videos.projectVideoDir(fx.project.id, "uploads"))).toEqual([]);
  });

  it("refuses empty files, viewers, and strangers", async () => {
    const fx = await fixture();
    expect((await upload(fx.project.id, fx.writeToken, new Uint8Array(0))).status).toBe(400);
    expect((await upload(fx.project.id, fx.readToken, new Uint8Array(sample))).status).toBe(403);
    const other = await createProjectWithRoles(db());
    // A token of another project: forbidden (users who are not members still get 404).
    expect((await upload(other.project.id, fx.writeToken, new Uint8Array(sample))).status).toBe(403);
    expect((await upload(fx.project.id, "pvt_not-a-token", new Uint8Array(sample))).status).toBe(401);
  });
});

describe("register by path", () => {
  it("accepts files inside the media roots, as a path or a file:// URI, once", async () => {
    const fx = await fixture();
    const asOwner = callerFor({ kind: "user", userId: fx.owner.id });
    const file = path.join(root, "lectures", "a.mp4");
    const res = await asOwner.videos.register({ projectId: fx.project.id, path: file });
    expect(res.video).toMatchObject({ name: "a.mp4", source: "PATH", status: "PENDING" });
    const again = asOwner.videos.register({ projectId: fx.project.id, path: `file://${file}` });
    await expect(again).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses traversal, symlinks leaving the roots, other schemes, relative paths and directories", async () => {
    const fx = await fixture();
    const asOwner = callerFor({ kind: "user", userId: fx.owner.id });
    const attempt = (p: string) =>
      asOwner.videos.register({ projectId: fx.project.id, path: p }).then(
        () => "accepted",
        (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
      );
    expect(await attempt(`${root}/lectures/../../${path.basename(outside)}/secret.mp4`)).toMatch(
      /BAD_REQUEST: .*outside the media roots/,
    );
    expect(await attempt(path.join(root, "lectures", "link.mp4"))).toMatch(/BAD_REQUEST: .*symbolic link/);
    expect(await attempt("https://example.com/a.mp4")).toMatch(/BAD_REQUEST: Only server paths and file:\/\/ URIs/);
    expect(await attempt("lectures/a.mp4")).toMatch(/BAD_REQUEST: The path must be absolute/);
    expect(await attempt(path.join(root, "lectures"))).toMatch(/BAD_REQUEST: .*not a regular file/);
    expect(await attempt(path.join(root, "missing.mp4"))).toMatch(/BAD_REQUEST: No file at/);
    const asViewer = callerFor({ kind: "user", userId: fx.viewer.id });
    await expect(
      asViewer.videos.register({ projectId: fx.project.id, path: path.join(root, "lectures", "a.mp4") }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});

describe("video file streaming", () => {
  async function registered() {
    const fx = await fixture();
    const res = await callerFor({ kind: "user", userId: fx.owner.id }).videos.register({
      projectId: fx.project.id,
      path: path.join(root, "lectures", "a.mp4"),
    });
    const get = (headers: Record<string, string>, token = fx.readToken, method = "GET") =>
      videoFile(
        new Request(`http://localhost/api/videos/${res.video.id}/file`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...headers },
        }),
        { params: Promise.resolve({ videoId: res.video.id }) },
      );
    return { fx, videoId: res.video.id, get };
  }

  it("serves the whole file, byte ranges (206) and HEAD", async () => {
    const { get } = await registered();
    const full = await get({});
    expect(full.status).toBe(200);
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    expect(full.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await full.arrayBuffer())).toEqual(sample);

    const part = await get({ range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${sample.length}`);
    expect(part.headers.get("content-length")).toBe("100");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(sample.subarray(100, 200));

    const tail = await get({ range: "bytes=-10" });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(sample.subarray(sample.length - 10));

    const head = await get({}, undefined, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(sample.length));
  });

  it("answers 416 for unsatisfiable and multiple ranges", async () => {
    const { get } = await registered();
    const past = await get({ range: `bytes=${sample.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${sample.length}`);
    const multi = await get({ range: "bytes=0-10,20-30" });
    expect(multi.status).toBe(416);
    expect(((await multi.json()) as { error: string }).error).toMatch(/multiple ranges/);
  });

  it("serves one sampled frame as JPEG within the SPEC §1 pixel bounds, and rejects t past the end", async () => {
    const { fx, videoId } = await registered();
    await db().video.update({ where: { id: videoId }, data: { durationS: 3 } });
    const frame = (t: string) =>
      videoFrame(
        new Request(`http://localhost/api/videos/${videoId}/frame?t=${t}`, {
          headers: { authorization: `Bearer ${fx.readToken}` },
        }),
        { params: Promise.resolve({ videoId }) },
      );
    const ok = await frame("1.5");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/jpeg");
    expect(Number(ok.headers.get("x-frame-source-time"))).toBeCloseTo(1.5, 1);
    const jpeg = Buffer.from(await ok.arrayBuffer());
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await frame("9")).status).toBe(400);
    expect((await frame("abc")).status).toBe(400);
  });

  it("hides videos of other projects and refuses anonymous callers", async () => {
    const { get } = await registered();
    const stranger = await fixture();
    expect((await get({}, stranger.readToken)).status).toBe(404);
    expect((await get({}, "pvt_bogus")).status).toBe(401);
  });
});
