// Idempotent demo data for `npm start`: a demo user, a demo project and a few generated videos
// (rendered by the workers through the queue, so the jobs page shows them live).
import path from "node:path";
import { auth } from "@paravt/auth";
import {
  closeEventBus,
  closeQueues,
  datasets,
  db,
  projectAccess,
  projects,
  redis,
  videos,
} from "@paravt/shared/server";

export const DEMO_USER = { email: "demo@paravt.local", password: "paravt-demo", name: "Demo Researcher" };
const DEMO_PROJECT = "Demo: needle in a long video";
const DEMO_VIDEOS = [20, 45, 90];
// A small needle suite: 3 videos of 1-2 minutes, 9 questions, rendered by the workers.
// The committed default checkpoint (packages/nano/checkpoints/default, trained by `paravt nano train`).
const DEFAULT_MODEL = {
  name: "nano-default (tiny, SFT 1500 steps)",
  checkpoint: path.resolve(import.meta.dirname, "..", "packages", "nano", "checkpoints", "default"),
};
const DEMO_SUITE = { name: "Demo needle suite (seed 1)", seed: 1, count: 3, minMinutes: 1, maxMinutes: 2 };

async function main(): Promise<void> {
  let user = await db().user.findUnique({ where: { email: DEMO_USER.email } });
  if (!user) {
    await auth().api.signUpEmail({ body: DEMO_USER });
    user = await db().user.findUniqueOrThrow({ where: { email: DEMO_USER.email } });
    console.log(`seed: created user ${DEMO_USER.email}`);
  }
  let project = await db().project.findFirst({
    where: { name: DEMO_PROJECT, memberships: { some: { userId: user.id, role: "OWNER" } } },
  });
  if (!project) {
    const created = await projects.createProject(user.id, {
      name: DEMO_PROJECT,
      description: "Synthetic long videos for trying the workbench end to end on the embedded nano model.",
    });
    project = await db().project.findUniqueOrThrow({ where: { id: created.id } });
    console.log(`seed: created project "${DEMO_PROJECT}"`);
  }
  const access = await projectAccess({ kind: "user", userId: user.id }, project.id);
  if ((await db().video.count({ where: { projectId: project.id } })) === 0) {
    for (const durationS of DEMO_VIDEOS) {
      await videos.createDemoVideo(access, { name: `demo-${durationS}s.mp4`, durationS });
    }
    console.log(`seed: queued ${DEMO_VIDEOS.length} demo videos`);
  }
  // Upserted: the checkpoint's absolute path follows the checkout that runs the demo.
  const modelConfig = { checkpoint: DEFAULT_MODEL.checkpoint, preset: "tiny" };
  await db().model.upsert({
    where: { projectId_name: { projectId: project.id, name: DEFAULT_MODEL.name } },
    create: { projectId: project.id, name: DEFAULT_MODEL.name, kind: "NANO_CHECKPOINT", config: modelConfig },
    update: { config: modelConfig },
  });
  if ((await db().dataset.count({ where: { projectId: project.id } })) === 0) {
    await datasets.generateSuite(access, DEMO_SUITE);
    console.log(`seed: queued the demo needle suite (${DEMO_SUITE.count} videos)`);
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
    console.error(`seed failed: ${err.message}`);
    process.exit(1);
  });
