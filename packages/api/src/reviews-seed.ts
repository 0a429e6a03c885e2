// Test seed for the review tests: a run of wrong answers (one per sample, keys q01, q02, ...)
// in a project, so a "wrong" queue lists them all in key order.
import { db } from "@paravt/shared/server";

export async function seedWrongAnswers(projectId: string, name: string, count: number) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const dataset = await db().dataset.create({ data: { projectId, name: `${name}-ds-${stamp}` } });
  const run = await db().run.create({
    data: { projectId, kind: "eval", jobName: "eval.run", name, status: "SUCCEEDED", config: {} },
  });
  const episodes = [];
  for (let i = 0; i < count; i++) {
    const sample = await db().sample.create({
      data: {
        datasetId: dataset.id,
        key: `q${String(i + 1).padStart(2, "0")}`,
        question: `Question ${i + 1}?`,
        options: ["yes", "no"],
        answer: "A",
        questionType: "mcq",
      },
    });
    episodes.push(
      await db().episode.create({
        data: {
          runId: run.id,
          sampleId: sample.id,
          k: 64,
          promptMode: "agentic_general",
          prediction: "B",
          correct: false,
          score: 0,
        },
      }),
    );
  }
  return { run, episodes };
}
