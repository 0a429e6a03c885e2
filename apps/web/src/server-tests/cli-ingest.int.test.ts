// The `paravt` CLI against the web app's real REST route (/api/v1) over HTTP, on the test
// database: login with a WRITE token, `ingest` of a growing JSON Lines log (resume from the saved
// position, a half-written last line, a retried batch after a 503, nothing stored twice),
// `metrics push` and `episodes export`.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { closeEventBus, db, projectAccess, tokens } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startRestRouteServer, type RestRouteServer } from "./rest-route-server";

let server: RestRouteServer;
let base = "";
/** Requests to fail with 503 before answering normally (the uploader must retry them). */
let failNext = 0;
const tmp = path.join(os.tmpdir(), `paravt-cli-ingest-${process.pid}`);
const cli = runCli;

beforeAll(async () => {
  await fs.mkdir(tmp, { recursive: true });
  process.env.PARAVT_CONFIG = path.join(tmp, "config.json");
  server = await startRestRouteServer((res) => {
    if (failNext <= 0) return false;
    failNext--;
    res.writeHead(503, { "content-type": "application/json", "retry-after": "0" });
    res.end(JSON.stringify({ message: "busy" }));
    return true;
  });
  base = server.base;
});

afterAll(async () => {
  await server.close();
  await closeEventBus();
  await fs.rm(tmp, { recursive: true, force: true });
  delete process.env.PARAVT_CONFIG;
});

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const metric = (step: number) => line({ type: "metrics", id: `m${step}`, step, values: { reward_mean: step / 10 } });
const rollout = (step: number, index: number) =>
  line({
    type: "rollout",
    id: `r${step}-${index}`,
    step,
    index,
    k: 8,
    sample: { key: `q${index}`, question: `Question ${index}?`, answer: "A", questionType: "mcq", options: ["x", "y"] },
    prediction: "A",
    correct: true,
    score: 1,
    rewardTerms: { reward: 2, accReward: 1, formatReward: 1, toolReward: 0 },
    turns: [
      {
        index: 0,
        rawText: "<think>\nlook\n</think>\n<tool_call>...</tool_call>",
        toolCalls: [{ index: 0, startS: 1, endS: 4, frameTimestamps: [1, 2, 3], subAgentOutput: "a red square" }],
      },
      { index: 1, rawText: "<think>\nseen\n</think>\n<answer>A</answer>" },
    ],
  });

describe("paravt CLI over the REST API", () => {
  let projectId: string;
  let secret: string;

  beforeAll(async () => {
    const fx = await createProjectWithRoles(db());
    projectId = fx.project.id;
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
    secret = (await tokens.createToken(access, { name: "trainer", scopes: ["READ", "WRITE"], expiresInDays: 1 }))
      .secret;
  });

  it("logs in with a token and says what it may do", async () => {
    const bad = await cli(["auth", "login", "--url", base, "--token", "pvt_not-a-real-token"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/401/);
    const ok = await cli(["auth", "login", "--url", base, "--token", secret]);
    expect(ok.err).toBe(
      `logged in to ${base}, project ${projectId}, scopes READ, WRITE (saved in ${process.env.PARAVT_CONFIG})\n`,
    );
    expect(ok.code).toBe(0);
    expect((await fs.stat(process.env.PARAVT_CONFIG!)).mode & 0o777).toBe(0o600);
    const status = JSON.parse((await cli(["auth", "status"])).out) as { token: string; scopes: string[] };
    expect(status.token).not.toContain(secret.slice(12, -4));
    expect(status.scopes).toEqual(["READ", "WRITE"]);
  });

  it("ingests a growing log once, resuming from its saved position", async () => {
    const file = path.join(tmp, "trainer.jsonl");
    await fs.writeFile(
      file,
      line({ type: "run", clientId: "cli-run-1", name: "8B PARA-GRPO", config: { lr: 2e-6 } }) +
        metric(1) +
        metric(2) +
        rollout(1, 0) +
        "this is not json\n" +
        rollout(1, 1) +
        // Still being written: no newline yet.
        metric(3).trimEnd().slice(0, 20),
    );
    failNext = 1; // the first request (creating the run) gets a 503 and is retried
    const first = await cli(["ingest", file]);
    expect(first.code).toBe(3); // done, but a line was rejected
    expect(first.err).toMatch(/create run: busy \(HTTP 503\); retrying/);
    expect(first.err).toMatch(/line 5: skipped, not JSON/);
    expect(first.err).toMatch(/the last line has no newline and is not complete JSON yet; left for the next run/);
    const summary = JSON.parse(first.out) as { runId: string; stored: number; skipped: number; lines: number };
    expect(summary).toMatchObject({ stored: 4, duplicate: 0, skipped: 1, lines: 6 });
    const runId = summary.runId;

    // The rest of the half line, more data and the final status; --follow stops at the status.
    await fs.appendFile(
      file,
      metric(3).trimEnd().slice(20) +
        "\n" +
        rollout(2, 0) +
        line({ type: "status", status: "SUCCEEDED", message: "done" }),
    );
    const second = await cli(["ingest", file, "--follow", "--poll-ms", "50"]);
    expect(JSON.parse(second.out)).toMatchObject({ runId, stored: 6, lines: 9, finished: true });

    // Lost state (a crash before it was saved): everything comes back as duplicates, nothing doubles.
    await fs.rm(`${file}.paravt-state.json`);
    const again = JSON.parse((await cli(["ingest", file])).out) as { duplicate: number; stored: number };
    expect(again).toMatchObject({ stored: 0, duplicate: 6 });

    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "SUCCEEDED", message: "done", jobName: "external" });

    // The same path now holds another log (a restarted trainer rewrote it): refused, not resumed.
    await fs.writeFile(file, line({ type: "run", clientId: "cli-run-1b", name: "restarted" }) + metric(1).repeat(40));
    const replaced = await cli(["ingest", file]);
    expect(replaced.code).toBe(1);
    expect(replaced.err).toMatch(/is not the file .* was saved for/);
    expect(await db().metric.count({ where: { runId } })).toBe(3);
    expect(await db().episode.count({ where: { runId } })).toBe(3);
  });

  it("takes a complete last line without its newline (a final status) and stops", async () => {
    const file = path.join(tmp, "no-newline.jsonl");
    await fs.writeFile(
      file,
      line({ type: "run", clientId: "cli-run-nl", name: "no newline" }) +
        metric(1) +
        JSON.stringify({ type: "status", status: "SUCCEEDED" }),
    );
    const clean = await cli(["ingest", file, "--follow", "--poll-ms", "20"]);
    expect(clean.code).toBe(0); // nothing rejected
    expect(JSON.parse(clean.out)).toMatchObject({ finished: true, stored: 1, lines: 3 });
  });

  it("pushes metrics from stdin and exports episodes with their trajectories", async () => {
    const file = path.join(tmp, "run2.jsonl");
    await fs.writeFile(file, line({ type: "run", clientId: "cli-run-2", name: "second" }) + rollout(5, 0));
    const { runId } = JSON.parse((await cli(["ingest", file])).out) as { runId: string };
    const pushed = await cli(["metrics", "push", "--run", runId], metric(1) + metric(2) + "\n" + '{"id": "bad"}\n');
    expect(JSON.parse(pushed.out)).toMatchObject({ stored: 2, skipped: 1 });
    expect(pushed.code).toBe(3);
    expect(pushed.err).toMatch(/line 4: skipped, step/);

    const out = path.join(tmp, "episodes.jsonl");
    const exported = await cli(["episodes", "export", "--run", runId, "--out", out]);
    expect(exported.err).toBe(`exported 1 episodes to ${out}\n`);
    const [episode] = (await fs.readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { rolloutIndex: number; turns: { toolCalls: { subAgentOutput: string }[] }[] });
    expect(episode!.rolloutIndex).toBe(5000);
    expect(episode!.turns[0]!.toolCalls[0]!.subAgentOutput).toBe("a red square");
  });

  it("lists runs, exports a run's metrics in full, waits for a run", async () => {
    const file = path.join(tmp, "run3.jsonl");
    await fs.writeFile(
      file,
      line({ type: "run", clientId: "cli-run-3", name: "third" }) +
        [1, 2, 3, 4].map(metric).join("") +
        line({ type: "status", status: "SUCCEEDED", message: "4 steps" }),
    );
    const { runId } = JSON.parse((await cli(["ingest", file])).out) as { runId: string };

    const listed = (await cli(["runs", "list", "--status", "SUCCEEDED"])).out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string });
    expect(listed.map((r) => r.id)).toContain(runId);

    const csv = await cli(["runs", "export", "--run", runId]);
    expect(csv.code).toBe(0);
    const rows = csv.out.trim().split("\n");
    expect(rows[0]).toBe("step,time_s,reward_mean");
    expect(rows.slice(1).map((r) => r.split(",")[2])).toEqual(["0.1", "0.2", "0.3", "0.4"]);

    const waited = await cli(["runs", "wait", "--run", runId]);
    expect(waited.code).toBe(0);
    expect(waited.err).toMatch(/\[#+\] 100% 1\/1 runs done/);
    expect(JSON.parse(waited.out)).toMatchObject({ id: runId, status: "SUCCEEDED", message: "4 steps" });

    // A READ+WRITE token cannot launch (LAUNCH scope): a clear message, exit 1.
    const launch = await cli(["eval", "launch", "--name", "x", "--model", "m", "--dataset", "d"]);
    expect(launch.code).toBe(1);
    expect(launch.err).toMatch(/403/);
  });
});
