// The seeded project every contract fixture builds its requests against: one project with a row
// of each kind the REST API reads (a dataset of MCQ samples with a video, a needle-suite and a
// benchmark dataset, models of each kind, an imported eval run with episodes and a review queue,
// an RL run with metrics and rollouts), plus a directory inside MEDIA_ROOTS for the routes that
// register server paths. Fixtures that consume rows (delete, cancel) create their own.
import fs from "node:fs/promises";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import {
  db,
  evals,
  projectAccess,
  reviewQueues,
  reviewTaxonomy,
  serverEnv,
  type ProjectAccess,
} from "@paravt/shared/server";

export interface World {
  projectId: string;
  /** A project the tokens of `projectId` do not belong to (its own token is the "other" one). */
  otherProjectId: string;
  users: { owner: string; editor: string; viewer: string };
  /** The owner's access, for fixtures that create rows through the services. */
  ownerAccess: ProjectAccess;
  /** A directory inside MEDIA_ROOTS, with `suite/`, `bench/` and `clip.mp4`. */
  mediaRoot: string;
  /** The first bytes of an MP4 (enough for the upload's type sniffing). */
  mp4Bytes: Uint8Array;
  datasetId: string;
  sampleIds: string[];
  videoId: string;
  suiteDatasetId: string;
  benchmarkDatasetId: string;
  models: { endpoint: string; nano: string; external: string };
  evalGroupId: string;
  evalRunId: string;
  episodeIds: string[];
  rlRunId: string;
  tagIds: string[];
  queueId: string;
  /** A unique suffix for names (models and datasets are unique by name per project). */
  unique: (prefix: string) => string;
}

let counter = 0;

/** An ISO-BMFF `ftyp` box: what sniffVideoType recognizes as MP4; the probe job is not run here. */
function mp4Head(): Uint8Array {
  const box = Buffer.alloc(32);
  box.writeUInt32BE(32, 0);
  box.write("ftypisom", 4, "ascii");
  box.write("isomiso2avc1mp41", 16, "ascii");
  return new Uint8Array(box);
}

export async function createWorld(): Promise<World> {
  const fx = await createProjectWithRoles(db());
  const other = await createProjectWithRoles(db());
  const projectId = fx.project.id;
  const ownerAccess = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
  const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

  const mediaRoot = serverEnv().MEDIA_ROOTS[0];
  if (!mediaRoot) throw new Error("The contract test sets MEDIA_ROOTS before the first serverEnv() call");
  await fs.mkdir(path.join(mediaRoot, "suite"), { recursive: true });
  await fs.mkdir(path.join(mediaRoot, "bench"), { recursive: true });
  const mp4Bytes = mp4Head();
  await fs.writeFile(path.join(mediaRoot, "clip.mp4"), mp4Bytes);

  const video = await db().video.create({
    data: { projectId, name: "clip.mp4", source: "PATH", path: path.join(mediaRoot, "clip.mp4"), status: "READY" },
  });
  const dataset = await db().dataset.create({ data: { projectId, name: unique("mcq") } });
  const sampleIds: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const s = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: `q${i}`,
        question: `Question ${i}?\nA. yes\nB. no`,
        options: ["yes", "no"],
        answer: "A",
        questionType: "mcq",
        metadata: { duration: "short" },
      },
    });
    sampleIds.push(s.id);
  }
  const suite = await db().dataset.create({
    data: {
      projectId,
      name: unique("suite"),
      source: { kind: "needle-suite", dir: path.join(mediaRoot, "suite") },
    },
  });
  const benchmark = await db().dataset.create({
    data: {
      projectId,
      name: unique("bench"),
      source: { kind: "benchmark", benchmark: "mlvu", dir: path.join(mediaRoot, "bench"), subtitles: false },
    },
  });

  const endpoint = await db().model.create({
    data: {
      projectId,
      name: unique("endpoint"),
      kind: "OPENAI_COMPATIBLE",
      config: { baseUrl: "http://127.0.0.1:9/v1", servedModel: "qwen" },
    },
  });
  const nano = await db().model.create({
    data: { projectId, name: unique("nano"), kind: "NANO_CHECKPOINT", config: { checkpoint: "/nonexistent/ckpt" } },
  });
  const external = await db().model.create({
    data: { projectId, name: unique("paper"), kind: "EXTERNAL", config: {} },
  });

  // An imported reference run (SPEC §6): a group, a SUCCEEDED eval run and one episode per row.
  const imported = await evals.importReference(ownerAccess, {
    name: "reference",
    datasetId: dataset.id,
    modelId: external.id,
    mode: "agentic_general",
    k: 64,
    file: {
      summary: { accuracy: 0.5 },
      results: [
        {
          id: "q1",
          answer: "A",
          pred: "A",
          correct: true,
          tool_calls: 1,
          score: 1,
          full_response: "<answer>A</answer>",
        },
        {
          id: "q2",
          answer: "A",
          pred: "B",
          correct: false,
          tool_calls: 0,
          score: 0,
          full_response: "<answer>B</answer>",
        },
      ],
    },
  });
  const episodes = await db().episode.findMany({ where: { runId: imported.run.id }, orderBy: { sampleId: "asc" } });

  // An RL run with a loss series and the two rollouts of step 1 (rolloutIndex = step * 1000 + i).
  const rl = await db().run.create({
    data: { projectId, kind: "rl", jobName: "train.rl", name: "rl", status: "SUCCEEDED", config: {} },
  });
  await db().metric.createMany({
    data: Array.from({ length: 20 }, (_, i) => ({ runId: rl.id, name: "loss", step: i + 1, value: 1 / (i + 1) })),
  });
  for (const i of [0, 1]) {
    await db().episode.create({
      data: {
        runId: rl.id,
        sampleId: sampleIds[i]!,
        rolloutIndex: 1000 + i,
        k: 8,
        promptMode: "agentic_general",
        prediction: "A",
        correct: i === 0,
        score: i === 0 ? 1 : 0,
        rewardTerms: { reward: i === 0 ? 1 : 0 },
      },
    });
  }

  await reviewTaxonomy.seedFailureTags(projectId);
  const tags = await reviewTaxonomy.listFailureTags(ownerAccess);
  const queue = await reviewQueues.createQueue(ownerAccess, {
    runId: imported.run.id,
    filter: { kind: "wrong" },
  });

  return {
    projectId,
    otherProjectId: other.project.id,
    users: { owner: fx.owner.id, editor: fx.editor.id, viewer: fx.viewer.id },
    ownerAccess,
    mediaRoot,
    mp4Bytes,
    datasetId: dataset.id,
    sampleIds,
    videoId: video.id,
    suiteDatasetId: suite.id,
    benchmarkDatasetId: benchmark.id,
    models: { endpoint: endpoint.id, nano: nano.id, external: external.id },
    evalGroupId: imported.group.id,
    evalRunId: imported.run.id,
    episodeIds: episodes.map((e) => e.id),
    rlRunId: rl.id,
    tagIds: tags.map((t) => t.id),
    queueId: queue.queue.id,
    unique,
  };
}
