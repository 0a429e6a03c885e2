// Cross-site request forgery (issue 37, item 12) through the real route handlers: a real
// better-auth session cookie, a real upload, real Postgres. A mutation with the cookie from another
// site is refused (403, nothing stored); the same call from our own pages, a script without
// Origin, and any bearer-token call keep working.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { db, projectAccess, queue, serverEnv, tokens, videos } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "../app/api/auth/[...all]/route";
import { POST as uploadPost } from "../app/api/projects/[projectId]/videos/upload/route";
import { POST as trpcPost } from "../app/api/trpc/[trpc]/route";
import { POST as restPost } from "../app/api/v1/[...path]/route";

process.env.REDIS_PREFIX = `paravt-test-origin-${process.pid}`;
const EVIL = "https://evil.example";
let app: string;
let video: Buffer;
const tmp = path.join(os.tmpdir(), `paravt-origin-${process.pid}`);

beforeAll(async () => {
  app = new URL(serverEnv().APP_URL).origin;
  await fs.mkdir(tmp, { recursive: true });
  await generateTestVideo(path.join(tmp, "a.mp4"), { durationS: 1, width: 64, height: 36, fps: 5 });
  video = await fs.readFile(path.join(tmp, "a.mp4"));
});

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Signs a new user up through better-auth and returns the session cookie header. */
async function signUp(): Promise<{ cookie: string; userId: string }> {
  const email = `origin-${crypto.randomUUID()}@example.test`;
  const res = await authPost(
    new Request(`${app}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app },
      body: JSON.stringify({ email, password: "origin-check-password", name: "Origin" }),
    }),
  );
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  expect(cookie).toMatch(/session_token=/);
  const user = await db().user.findUniqueOrThrow({ where: { email } });
  return { cookie, userId: user.id };
}

function createProject(headers: Record<string, string>, name: string) {
  return trpcPost(
    new Request(`${app}/api/trpc/projects.create`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ json: { name } }),
    }),
  );
}

function upload(projectId: string, headers: Record<string, string>) {
  return uploadPost(
    new Request(`${app}/api/projects/${projectId}/videos/upload`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", ...headers },
      body: new Uint8Array(video),
    }),
    { params: Promise.resolve({ projectId }) },
  );
}

async function refused(res: Response) {
  expect(res.status).toBe(403);
  expect(((await res.json()) as { error: string }).error).toMatch(/^Cross-site request refused/);
}

describe("cookie-authenticated mutations and Origin", () => {
  it("tRPC: a cross-site POST with the cookie is refused; our pages and scripts without Origin work", async () => {
    const { cookie, userId } = await signUp();
    const count = () => db().membership.count({ where: { userId } });

    await refused(await createProject({ cookie, origin: EVIL }, "forged"));
    // "null" comes from sandboxed frames; a fetch without Origin but marked cross-site by the browser.
    await refused(await createProject({ cookie, origin: "null" }, "forged"));
    await refused(await createProject({ cookie, "sec-fetch-site": "cross-site" }, "forged"));
    // A sibling subdomain is another origin too.
    await refused(
      await createProject({ cookie, origin: `${new URL(app).protocol}//x.${new URL(app).host}` }, "forged"),
    );
    expect(await count()).toBe(0);

    expect((await createProject({ cookie, origin: app, "sec-fetch-site": "same-origin" }, "ours")).status).toBe(200);
    // Behind a reverse proxy the browser's origin is the forwarded host.
    expect(
      (
        await createProject(
          { cookie, origin: "https://paravt.example.org", "x-forwarded-host": "paravt.example.org" },
          "proxied",
        )
      ).status,
    ).toBe(200);
    // Not a browser page (curl, Playwright's request API): nothing a foreign page can forge.
    expect((await createProject({ cookie }, "script")).status).toBe(200);
    expect(await count()).toBe(3);
  });

  it("upload: a cross-site POST with the cookie stores nothing; same-origin and token uploads work", async () => {
    const { cookie, userId } = await signUp();
    const created = await createProject({ cookie, origin: app }, "uploads");
    const projectId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
    const stored = () => db().video.count({ where: { projectId } });

    await refused(await upload(projectId, { cookie, origin: EVIL }));
    expect(await stored()).toBe(0);
    await expect(fs.readdir(videos.projectVideoDir(projectId, "uploads"))).rejects.toThrow(/ENOENT/);

    expect((await upload(projectId, { cookie, origin: app })).status).toBe(201);
    const access = await projectAccess({ kind: "user", userId }, projectId);
    const { secret } = await tokens.createToken(access, { name: "w", scopes: ["WRITE"], expiresInDays: 1 });
    // A token call is not forgeable (a page cannot set Authorization cross-site without a preflight).
    expect((await upload(projectId, { authorization: `Bearer ${secret}`, origin: EVIL, cookie })).status).toBe(201);
    expect(await stored()).toBe(2);
  });

  it("REST: a cross-site POST with the cookie is refused before the API sees it", async () => {
    const { cookie } = await signUp();
    const created = await createProject({ cookie, origin: app }, "rest");
    const projectId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
    const post = (headers: Record<string, string>) =>
      restPost(
        new Request(`${app}/api/v1/projects/${projectId}/datasets/import-suite`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({}),
        }),
      );
    await refused(await post({ cookie, origin: EVIL }));
    // From our own page the API answers itself (here: the empty body is invalid input).
    expect((await post({ cookie, origin: app })).status).toBe(422);
  });
});
