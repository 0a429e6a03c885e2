// What the teacher-forced probes (copy-probe, answer-copy-probe) share: a checkpoint on the core,
// its frame source over a suite, and the suite's oracle rows whose question passes `keep`.
import { readSuite, type SuiteQuestion } from "@paravt/suite";
import { createCoreModel, loadCheckpoint, videoFrameSource } from "@paravt/nano";

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

/** How many of the asked places each probe key got right; printed as "key: right/asked = share". */
export class Tally {
  private readonly counts = new Map<string, [number, number]>();

  count(key: string, right: boolean): void {
    const t = this.counts.get(key) ?? [0, 0];
    t[0] += right ? 1 : 0;
    t[1]++;
    this.counts.set(key, t);
  }

  /** One line per key, in the order first counted (or sorted by key). */
  lines(opts: { sorted?: boolean } = {}): string[] {
    const entries = [...this.counts];
    if (opts.sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.map(([key, [right, asked]]) => `  ${key}: ${right}/${asked} = ${(right / asked).toFixed(3)}`);
  }
}
