// Fixtures of the evaluation integration tests: a project with a dataset of multiple-choice
// samples over one real (generated) video, and model rows for a given endpoint or checkpoint.
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, projectAccess, type ProjectAccess } from "@paravt/shared/server";
import { generateTestVideo, probe } from "@paravt/video";

/** One small real video per test process (ffmpeg testsrc2), shared by every sample. */
let videoFile: Promise<{ file: string; durationS: number }> | undefined;
export function testVideo(dir: string) {
  videoFile ??= (async () => {
    const file = await generateTestVideo(path.join(dir, "eval-fixture.mp4"), {
      durationS: 8,
      width: 160,
      height: 90,
      fps: 10,
    });
    return { file, durationS: (await probe(file)).duration };
  })();
  return videoFile;
}

export interface EvalFixture {
  access: ProjectAccess;
  datasetId: string;
  sampleIds: string[];
}

/** `n` MCQ samples "Question i?" (answer A) whose video is the shared test video. */
export async function evalFixture(dir: string, n: number): Promise<EvalFixture> {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.editor.id }, fx.project.id);
  const { file, durationS } = await testVideo(dir);
  const video = await db().video.create({
    data: {
      projectId: fx.project.id,
      name: "eval-fixture.mp4",
      source: "PATH",
      path: file,
      status: "READY",
      durationS,
      width: 160,
      height: 90,
    },
  });
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "fixture" } });
  const sampleIds: string[] = [];
  for (let i = 1; i <= n; i++) {
    const s = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: video.id,
        key: `q${String(i).padStart(2, "0")}`,
        question: `Question ${i}? What is shown?\nA. a test pattern\nB. a cat`,
        options: ["a test pattern", "a cat"],
        answer: "A",
        questionType: "mcq",
        metadata: { duration: i % 2 ? "short" : "long" },
      },
    });
    sampleIds.push(s.id);
  }
  return { access, datasetId: dataset.id, sampleIds };
}

export async function endpointModel(projectId: string, baseUrl: string, name = "endpoint") {
  return db().model.create({
    data: { projectId, name, kind: "OPENAI_COMPATIBLE", config: { baseUrl, servedModel: "test-vlm" } },
  });
}

/** The question number a request is about ("Question 7?" -> 7), or null. */
export function questionNumber(text: string): number | null {
  const m = /Question (\d+)\?/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Launch knobs of the worker eval tests: the workbench request, greedy, 3 turns; `over` changes some. */
export function testKnobs(over: Record<string, unknown> = {}) {
  return {
    temperature: 0,
    maxTokens: 256,
    maxTurns: 3,
    maxParallel: 5,
    thinkPrefix: false,
    dispatch: "evaluator" as const,
    requestStyle: "workbench" as const,
    videoChannel: "image_url" as const,
    subtitles: false,
    ...over,
  };
}
