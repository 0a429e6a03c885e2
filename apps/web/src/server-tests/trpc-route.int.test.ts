// The real tRPC route handler of the web app: HTTP status mapping and live run events over SSE.
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, projectAccess, runs, tokens } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { GET, POST } from "../app/api/trpc/[trpc]/route";

const BASE = "http://localhost/api/trpc";

async function fixture() {
  const fx = await createProjectWithRoles(db());
  const ownerAccess = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const { secret } = await tokens.createToken(ownerAccess, { name: "sse", scopes: ["READ"], expiresInDays: 1 });
  return { ...fx, ownerAccess, secret };
}

const input = (value: unknown) => encodeURIComponent(JSON.stringify({ json: value }));

describe("tRPC route", () => {
  it("answers 401 without credentials, 403 for a token's foreign project or a forbidden action, 400 for bad input", async () => {
    const fx = await fixture();
    const other = await createProjectWithRoles(db());
    const auth = { authorization: `Bearer ${fx.secret}` };

    expect((await GET(new Request(`${BASE}/projects.list`))).status).toBe(401);
    const foreign = await GET(
      new Request(`${BASE}/projects.byId?input=${input({ projectId: other.project.id })}`, { headers: auth }),
    );
    // A token names its own project: any other project is forbidden (a non-member user gets 404).
    expect(foreign.status).toBe(403);
    const own = await GET(
      new Request(`${BASE}/projects.byId?input=${input({ projectId: fx.project.id })}`, { headers: auth }),
    );
    expect(own.status).toBe(200);

    const launch = await POST(
      new Request(`${BASE}/videos.createDemo`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ json: { projectId: fx.project.id, durationS: 3 } }),
      }),
    );
    expect(launch.status).toBe(403);

    // Creating a project is for signed-in people (scope PEOPLE): a token is refused outright.
    const create = await POST(
      new Request(`${BASE}/projects.create`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ json: { name: "by a token" } }),
      }),
    );
    expect(create.status).toBe(403);

    const bad = await GET(new Request(`${BASE}/projects.byId?input=${input({ projectId: 42 })}`, { headers: auth }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/expected string/i);
  });

  it("streams the project's run events as Server-Sent Events", async () => {
    const fx = await fixture();
    const abort = new AbortController();
    const res = await GET(
      new Request(`${BASE}/runs.events?input=${input({ projectId: fx.project.id })}`, {
        headers: { authorization: `Bearer ${fx.secret}`, accept: "text/event-stream" },
        signal: abort.signal,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);

    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}; got: ${text}`);
        text += decoder.decode(value);
      }
    };
    // Events published after `subscribed` are guaranteed to arrive.
    await readUntil("subscribed");
    // A real launch: the QUEUED event is published before the job is enqueued.
    const run = await runs.launchRun(fx.ownerAccess, {
      jobName: "video.probe",
      name: "probe",
      payload: { videoId: "none" },
    });
    await readUntil(run.id);
    expect(text).toMatch(/"status":"QUEUED"/);
    await runs.cancelRun(fx.ownerAccess, run.id);
    await readUntil("CANCELLED");
    abort.abort();
    await reader.cancel().catch(() => undefined);
  });
});
