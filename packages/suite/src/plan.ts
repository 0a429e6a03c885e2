// The whole suite as data (no I/O): annotations, questions, oracle trajectories, RL rows and
// the visibility table. writeSuite renders and writes it; tests check it without any video.

import { OVERVIEW_KS, resolveConfig, type OverviewK, type SuiteConfig, type SuiteConfigInput } from "./config";
import { planVideo, type QuestionDraft } from "./layout";
import { mainPrompt, oracleTrajectory } from "./oracle";
import {
  QuestionSchema,
  type OracleRow,
  type RlRow,
  type SuiteQuestion,
  type VideoAnnotation,
  type VisibilityRow,
} from "./schemas";
import { groundTruth, LETTERS, questionText, TEMPLATE_TYPE } from "./templates";
import { evidenceVisibility, visibilityTable } from "./visibility";

export interface SuiteOptions {
  /** Non-negative 32-bit integer. */
  seed: number;
  /** Number of videos. */
  count: number;
  config?: SuiteConfigInput;
}

export interface SuitePlan {
  seed: number;
  count: number;
  config: SuiteConfig;
  videos: VideoAnnotation[];
  questions: SuiteQuestion[];
  oracle: OracleRow[];
  /** (question, K) pairs the oracle did not settle within its round budget. */
  unsettled: { questionId: string; k: OverviewK }[];
  /** Questions the generator planned but could not place. */
  dropped: number;
  rl: RlRow[];
  visibility: VisibilityRow[];
}

export const RL_DATA_SOURCE = "paravt-suite";

export function checkSuiteOptions(seed: number, count: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer in [0, 2^32) (got ${seed})`);
  }
  if (!Number.isInteger(count) || count < 1 || count > 10_000) {
    throw new RangeError(`count must be an integer in [1, 10000] (got ${count})`);
  }
}

function finalize(d: QuestionDraft, j: number, a: VideoAnnotation, config: SuiteConfig): SuiteQuestion {
  const gt = groundTruth(d.q, a);
  if (!gt) throw new Error(`internal: question ${j} of ${a.id} lost its ground truth`);
  const type = TEMPLATE_TYPE[d.q.template];
  const answer = d.options ? LETTERS[d.options.indexOf(gt.answerText)]! : gt.answerText;
  return QuestionSchema.parse({
    id: `${a.id}-q${j + 1}`,
    videoId: a.id,
    video: a.file,
    template: d.q.template,
    type,
    params: d.q.params,
    question: questionText(d.q, d.options, config.oracleStyle.optionStyle),
    options: d.options,
    answer,
    answerText: gt.answerText,
    evidence: gt.evidence.map((e) => e.id),
    visibleAtK: evidenceVisibility(gt.evidence, a.durationS),
  });
}

/** SPEC §6 ParaVT RL row of a question. */
export function rlRow(q: SuiteQuestion): RlRow {
  return {
    id: q.id,
    data_source: RL_DATA_SOURCE,
    prompt: [{ role: "user", content: mainPrompt(q) }],
    videos: [{ video: q.video }],
    extra_info: { answer: q.answer, question_type: q.type },
  };
}

/** Plans a whole suite: deterministic in (seed, count, config); video i depends only on (seed, i, config). */
export function planSuite(opts: SuiteOptions): SuitePlan {
  checkSuiteOptions(opts.seed, opts.count);
  const config = resolveConfig(opts.config);
  const videos: VideoAnnotation[] = [];
  const questions: SuiteQuestion[] = [];
  let dropped = 0;
  for (let i = 0; i < opts.count; i++) {
    const plan = planVideo(opts.seed, i, config);
    videos.push(plan.annotation);
    dropped += plan.dropped.length;
    plan.questions.forEach((d, j) => questions.push(finalize(d, j, plan.annotation, config)));
  }
  const byId = new Map(videos.map((v) => [v.id, v]));
  const oracle: OracleRow[] = [];
  const unsettled: SuitePlan["unsettled"] = [];
  const noCrop = new Map<string, Partial<Record<OverviewK, boolean>>>();
  for (const q of questions) {
    const entry: Partial<Record<OverviewK, boolean>> = {};
    for (const k of OVERVIEW_KS) {
      const r = oracleTrajectory(q, byId.get(q.videoId)!, k, config);
      if (r.row) {
        oracle.push(r.row);
        entry[k] = r.rounds === 0;
      } else unsettled.push({ questionId: q.id, k });
    }
    noCrop.set(q.id, entry);
  }
  return {
    seed: opts.seed,
    count: opts.count,
    config,
    videos,
    questions,
    oracle,
    unsettled,
    dropped,
    rl: questions.map(rlRow),
    visibility: visibilityTable(questions, noCrop),
  };
}
