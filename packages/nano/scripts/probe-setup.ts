// What the teacher-forced probes (copy-probe, answer-copy-probe) share: a checkpoint on the core,
// its frame source over a suite, and the suite's oracle rows whose question passes `keep`.
import { readSuite, type SuiteQuestion } from "@paravt/suite";
import { createCoreModel, loadCheckpoint, videoFrameSource } from "../src/index";

export async function loadProbe(opts: {
  checkpoint: string;
  suite: string;
  k: number;
  limit: number;
  keep: (q: SuiteQuestion) => boolean;
}) {
  const ckpt = await loadCheckpoint(opts.checkpoint);
  const model = createCoreModel(ckpt.config, ckpt.params);
  const frames = videoFrameSource(opts.suite, ckpt.config.thumbnail);
  const suite = await readSuite(opts.suite);
  const byId = new Map(suite.questions.map((q) => [q.id, q]));
  const rows = suite.oracle
    .filter((r) => {
      const q = byId.get(r.questionId);
      return r.k === opts.k && q !== undefined && opts.keep(q);
    })
    .slice(0, opts.limit);
  return { ckpt, model, frames, byId, rows };
}
