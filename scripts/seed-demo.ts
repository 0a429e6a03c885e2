// Idempotent demo data for `npm start`: a demo user, a demo project and a few generated videos
// (rendered by the workers through the queue, so the jobs page shows them live).
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
import { DEMO_MODELS, DEMO_PROJECT, DEMO_SUITE, DEMO_USER, DEMO_VIDEOS } from "./demo-data";
import { renameFormerDemoModel } from "./demo-rename";

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
  for (const m of DEMO_MODELS) {
    const config = { checkpoint: m.checkpoint, preset: m.preset };
    const former = await renameFormerDemoModel(project.id, m.name);
    if (former !== null) console.log(`seed: renamed model "${former}" to "${m.name}"`);
    await db().model.upsert({
      where: { projectId_name: { projectId: project.id, name: m.name } },
      create: { projectId: project.id, name: m.name, kind: "NANO_CHECKPOINT", config },
      update: { config },
    });
  }
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
