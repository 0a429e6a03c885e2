// Turns a suite directory (packages/suite format) into database rows: one Video per suite
// video (probed, then thumbnails/filmstrip, by the usual jobs) and one Sample per question.
// Idempotent: a retried or repeated import finds its rows by their unique keys
// (video: project + path, sample: dataset + question id) and never duplicates them.
// The dataset's source records the suite's tokens per generated turn (`turnTokens`).
import { Prisma, type VideoSource } from "@paravt/db";
import { turnTokenStats } from "@paravt/nano";
import { db, runs } from "@paravt/shared/server";
import { readSuite, SuiteReadError } from "@paravt/suite";
import { PermanentJobError, type RunContext } from "./job-context";

export async function importSuiteInto(
  datasetId: string,
  dir: string,
  source: VideoSource,
  ctx: RunContext,
  progress: { from: number; to: number },
): Promise<string> {
  const dataset = await db().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  let suite;
  try {
    suite = await readSuite(dir);
  } catch (err) {
    // A broken suite will not get better on retry; the message names file and line.
    if (err instanceof SuiteReadError) throw new PermanentJobError(`Cannot import ${dir}: ${err.message}`);
    throw err;
  }
  const span = progress.to - progress.from;
  const videoIds = new Map<string, string>();
  let newVideos = 0;
  for (const [i, v] of suite.videos.entries()) {
    const where = { projectId_path: { projectId: dataset.projectId, path: v.path } };
    let video = await db().video.findUnique({ where });
    if (!video) {
      video = await db().video.create({
        data: {
          projectId: dataset.projectId,
          name: `${dataset.name} / ${v.id}.mp4`,
          source,
          path: v.path,
          sizeBytes: v.bytes,
          probe: { suite: { datasetId, videoId: v.id } },
        },
      });
      newVideos++;
      await runs.launchSystemRun(dataset.projectId, {
        jobName: "video.probe",
        name: `Probe ${video.name}`,
        payload: { videoId: video.id },
      });
    }
    videoIds.set(v.id, video.id);
    await ctx.progress(
      progress.from + (span * 0.5 * (i + 1)) / suite.videos.length,
      `Registered ${i + 1}/${suite.videos.length} videos`,
    );
  }
  for (const [i, q] of suite.questions.entries()) {
    const data = {
      videoId: videoIds.get(q.videoId) ?? null,
      question: q.question,
      options: q.options ?? Prisma.DbNull,
      answer: q.answer,
      questionType: q.type,
      metadata: {
        template: q.template,
        answerText: q.answerText,
        visibleAtK: q.visibleAtK,
        evidence: q.evidence,
        suiteVideo: q.video,
      },
    };
    await db().sample.upsert({
      where: { datasetId_key: { datasetId, key: q.id } },
      create: { datasetId, key: q.id, ...data },
      update: data,
    });
    if (i % 20 === 0 || i === suite.questions.length - 1) {
      await ctx.progress(progress.from + span * (0.5 + (0.5 * (i + 1)) / suite.questions.length), "Creating samples");
    }
  }
  const previous = (dataset.source ?? {}) as Record<string, unknown>;
  await db().dataset.update({
    where: { id: datasetId },
    data: {
      source: {
        ...previous,
        kind: "needle-suite",
        dir: suite.dir,
        seed: suite.manifest.seed,
        count: suite.videos.length,
        visibility: JSON.parse(JSON.stringify(suite.manifest.visibility)),
        // Tokens per generated turn of its oracle trajectories: the RL form's default
        // maxNewTokens (@paravt/shared measuredMaxNewTokens, issue 41 item 1).
        turnTokens: turnTokenStats(suite),
      },
    },
  });
  return `${suite.videos.length} videos (${newVideos} new), ${suite.questions.length} samples`;
}
