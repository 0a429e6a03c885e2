// The demo evaluation of `npm start`: once the workers have rendered and imported the demo needle
// suite (seed-demo.ts queues it), evaluate the committed nano checkpoint on it with and without
// tools, so a new user finds a results table and per-sample episodes. Idempotent: it does nothing
// when the demo project already has an evaluation. Runs in the background of `npm start`; when the
// runs finish it builds a demo review queue of wrong answers (issue 10).
import { setTimeout as sleep } from "node:timers/promises";
import { evalLaunchInput } from "@paravt/shared";
import {
  closeEventBus,
  closeQueues,
  db,
  evals,
  projectAccess,
  redis,
  reviewQueues,
  type ProjectAccess,
} from "@paravt/shared/server";
import { DEMO_MODELS, DEMO_PROJECT, DEMO_USER } from "./demo-data";

const WAIT_MS = 10 * 60_000;

async function main(): Promise<void> {
  const user = await db().user.findUniqueOrThrow({ where: { email: DEMO_USER.email } });
  const project = await db().project.findFirstOrThrow({
    where: { name: DEMO_PROJECT, memberships: { some: { userId: user.id } } },
  });
  if ((await db().run.count({ where: { projectId: project.id, kind: "eval" } })) > 0) return;
  const models = await db().model.findMany({
    where: { projectId: project.id, name: { in: DEMO_MODELS.map((m) => m.name) } },
  });
  const deadline = Date.now() + WAIT_MS;
  let dataset = null;
  // The demo suite (or, in an older demo database, whichever dataset the seed made first) is ready
  // when it has samples and no job is still rendering or importing it.
  while (Date.now() < deadline) {
    const [first, busy, failed] = await Promise.all([
      db().dataset.findFirst({ where: { projectId: project.id }, orderBy: { createdAt: "asc" } }),
      db().run.count({
        where: {
          projectId: project.id,
          jobName: { in: ["suite.generate", "dataset.import"] },
          status: { in: ["QUEUED", "RUNNING"] },
        },
      }),
      db().run.findFirst({
        where: { projectId: project.id, jobName: "suite.generate", status: "FAILED" },
        orderBy: { createdAt: "desc" },
      }),
    ]);
    if (first && busy === 0 && (await db().sample.count({ where: { datasetId: first.id } })) > 0) {
      dataset = first;
      break;
    }
    if (failed && busy === 0) throw new Error(`the demo suite job failed: ${failed.error ?? failed.message ?? ""}`);
    await sleep(2000);
  }
  if (!dataset) throw new Error("the demo suite was not ready within 10 minutes");
  const access = await projectAccess({ kind: "user", userId: user.id }, project.id);
  const { projectId: _, ...input } = evalLaunchInput.parse({
    projectId: project.id,
    name: "Demo: nano models with and without tools",
    modelIds: models.map((m) => m.id),
    datasetIds: [dataset.id],
    modes: ["direct", "agentic_general"],
    ks: [8],
    // ParaVT-nano is trained on the sub-agent dispatch with the constrained think prefix (SPEC §1.4, §1.7).
    knobs: { dispatch: "subagent", thinkPrefix: true },
    shardSize: 5,
  });
  const { runs } = await evals.launchEval(access, input);
  console.log(`seed: launched the demo evaluation (${runs.length} runs)`);
  await demoReviewQueue(
    access,
    runs.map((r) => r.id),
    models[0]?.id ?? null,
  );
}

/**
 * A review queue of the default model's wrong answers with tools, so the Reviews page has
 * something to triage on first start. Waits for the demo runs; a run with no wrong answer (or a
 * slow machine) just means no demo queue.
 */
async function demoReviewQueue(access: ProjectAccess, runIds: string[], modelId: string | null): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const open = await db().run.count({ where: { id: { in: runIds }, status: { in: ["QUEUED", "RUNNING"] } } });
    if (open === 0) break;
    await sleep(2000);
  }
  const run = await db().run.findFirst({
    where: {
      id: { in: runIds },
      status: "SUCCEEDED",
      ...(modelId ? { modelId } : {}),
      config: { path: ["mode"], equals: "agentic_general" },
    },
  });
  if (!run) return;
  try {
    await reviewQueues.createQueue(access, {
      runId: run.id,
      name: "Demo: wrong answers of the default nano with tools",
      filter: { kind: "wrong" },
    });
    console.log("seed: built the demo review queue");
  } catch (err) {
    console.log(`seed: no demo review queue (${(err as Error).message})`);
  }
}

main()
  .then(async () => {
    await closeQueues();
    await closeEventBus();
    await redis().quit();
    await db().$disconnect();
  })
  .catch((err: Error) => {
    console.error(`demo evaluation not launched: ${err.message}`);
    process.exit(0); // the workbench keeps running; the user can launch one from the UI
  });
