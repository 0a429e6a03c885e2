// REST text answers (issue 41 item 10): GET …/runs/{runId}/metrics/export?format=csv answers the
// CSV itself as text/csv (it came back as a JSON string in `content`), pages named in headers;
// format=json keeps the JSON object, and tRPC keeps its JSON answer for both.
import { db, tokens } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { handleRestRequest } from "../openapi";
import { projectWithRoleCallers } from "../test-helpers";

process.env.REDIS_PREFIX = `paravt-test-text-answers-${process.pid}`;
afterAll(() => tokens.settleTokenUses());

async function world() {
  const fx = await projectWithRoleCallers();
  const projectId = fx.project.id;
  const { secret } = await fx.asOwner.tokens.create({ projectId, name: "export", scopes: ["READ"] });
  const run = await db().run.create({
    data: { projectId, kind: "sft", jobName: "train.sft", name: "sft", status: "SUCCEEDED" },
  });
  const t0 = Date.UTC(2026, 0, 1);
  await db().metric.createMany({
    data: [0, 1, 2].flatMap((step) => [
      { runId: run.id, step, name: "loss", value: 2 - step / 2, wallTime: new Date(t0 + step * 1000) },
      { runId: run.id, step, name: "lr", value: 0.001, wallTime: new Date(t0 + step * 1000) },
    ]),
  });
  const get = (query: string) =>
    handleRestRequest(
      new Request(`http://localhost/api/v1/projects/${projectId}/runs/${run.id}/metrics/export?${query}`, {
        headers: { authorization: `Bearer ${secret}` },
      }),
    );
  return { fx, projectId, runId: run.id, get };
}

describe("REST metrics export", () => {
  it("format=csv answers text/csv whose first line is the header, pages in X-Next-After-Step", async () => {
    const { get } = await world();
    const res = await get("names=loss&names=lr&format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await res.text();
    expect(text.split("\n")[0]).toBe("step,time_s,loss,lr");
    expect(text).toBe("step,time_s,loss,lr\n0,0,2,0.001\n1,1,1.5,0.001\n2,2,1,0.001\n");
    expect(res.headers.get("x-rows")).toBe("3");
    expect(res.headers.get("x-next-after-step")).toBeNull();

    const first = await get("names=loss&format=csv&limitSteps=2");
    expect(await first.text()).toBe("step,time_s,loss\n0,0,2\n1,1,1.5\n");
    expect(first.headers.get("x-next-after-step")).toBe("1");
    const second = await get("names=loss&format=csv&limitSteps=2&afterStep=1");
    expect(await second.text()).toBe("2,2,1\n"); // no header: the pages concatenate into one file
    expect(second.headers.get("x-next-after-step")).toBeNull();
  });

  it("format=json keeps the JSON object; an error stays JSON; tRPC answers JSON for both", async () => {
    const { fx, projectId, runId, get } = await world();
    const res = await get("names=loss&format=json");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { format: string; content: string; rows: number; nextAfterStep: null };
    expect(body).toMatchObject({ format: "json", rows: 3, nextAfterStep: null });
    expect(JSON.parse(body.content)).toEqual([
      { step: 0, time_s: 0, loss: 2 },
      { step: 1, time_s: 1, loss: 1.5 },
      { step: 2, time_s: 2, loss: 1 },
    ]);
    const refused = await get("names=loss&format=xml");
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    const trpc = await fx.asOwner.runs.metricsExport({ projectId, runId, names: ["loss"], format: "csv" });
    expect(trpc).toMatchObject({ format: "csv", rows: 3, content: "step,time_s,loss\n0,0,2\n1,1,1.5\n2,2,1\n" });
  });
});
