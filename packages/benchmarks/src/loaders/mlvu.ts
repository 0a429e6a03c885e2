// MLVU, dev split, multiple-choice tasks (SPEC §5).
//
// Layout followed: the Hugging Face dataset MLVU/MVLU and the evaluation code of
// github.com/JUNJIE99/MLVU (video_chat/choice_bench.py): `MLVU/json/<n>_<task>.json` for the seven
// multiple-choice tasks 1_plotQA, 2_needle, 3_ego, 4_count, 5_order, 6_anomaly_reco,
// 7_topic_reasoning, each a JSON array of {video, duration, question, candidates, answer,
// question_type} where answer is the TEXT of the correct candidate; videos in
// `MLVU/video/<n>_<task>/<video>`. choice_bench.py letters candidates "(A) …" and finds the answer's
// letter by comparing texts. 8_sub_scene and 9_summary are open generation tasks outside the
// multiple-choice protocol and are not loaded. Variants accepted: the directory given may be the
// dataset root (holding MLVU/) or MLVU/ itself; a video directly in the video folder when it is not
// in its task's sub-folder.

import { join } from "node:path";
import { Collector } from "../collector";
import { findDir, isRecord, pathKind, readJsonArray } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, text, type LoaderContext } from "../loader-kit";
import { checkAnswerText, checkOptionTexts, questionWithOptions } from "../options";
import type { LoadResult } from "../schemas";
import { VideoResolver } from "../video-path";

export const MLVU_MC_TASKS = [
  "1_plotQA",
  "2_needle",
  "3_ego",
  "4_count",
  "5_order",
  "6_anomaly_reco",
  "7_topic_reasoning",
] as const;
const GENERATION_TASKS = ["8_sub_scene", "9_summary"];

export async function loadMlvu(ctx: LoaderContext): Promise<LoadResult> {
  const jsonDir = await findDir(ctx.dir, ["json", "MLVU/json"]);
  const present: string[] = [];
  if (jsonDir !== null) {
    for (const task of MLVU_MC_TASKS) {
      if ((await pathKind(join(ctx.dir, jsonDir, `${task}.json`))) === "file") present.push(task);
    }
  }
  if (jsonDir === null || present.length === 0) {
    throw layoutError(ctx, "MLVU multiple-choice annotations", ["MLVU/json/1_plotQA.json …", "json/1_plotQA.json …"]);
  }

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["video", "MLVU/video"], warnings);
  const out = new Collector("mlvu", "dev", "json", new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  const absent = MLVU_MC_TASKS.filter((t) => !present.includes(t));
  if (absent.length)
    out.warnings.push(`task files not found, not loaded: ${absent.map((t) => `${t}.json`).join(", ")}`);
  for (const t of GENERATION_TASKS) {
    if ((await pathKind(join(ctx.dir, jsonDir, `${t}.json`))) === "file") {
      out.warnings.push(
        `${t}.json is an open generation task, not part of the multiple-choice dev protocol; not loaded`,
      );
    }
  }

  for (const task of present) {
    const rel = join(jsonDir, `${task}.json`);
    const rows = await readJsonArray(join(ctx.dir, rel), rel);
    out.readFile(rel);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const n = i + 1;
      // Rows carry no id; the position in the task file is stable for a given release.
      const key = `${task}/${i}`;
      if (!isRecord(r)) {
        out.skip(rel, n, "invalid_field", "row is not an object", key);
        continue;
      }
      const video = text(r.video);
      const question = text(r.question);
      if (video === null || question === null) {
        out.skip(rel, n, "missing_field", video === null ? "no video" : "no question", key);
        continue;
      }
      const options = checkOptionTexts(r.candidates);
      if (!options.ok) {
        out.skip(rel, n, options.reason, options.detail, key);
        continue;
      }
      const answer = checkAnswerText(r.answer, options.value);
      if (!answer.ok) {
        out.skip(rel, n, answer.reason, answer.detail, key);
        continue;
      }
      const durationS = positiveNumber(r.duration);
      await out.add(rel, n, {
        key,
        video: [`${task}/${video}`, video],
        question: questionWithOptions(question, options.value, "paren"),
        options: options.value,
        answer: answer.value,
        questionType: "mcq",
        ...(durationS === undefined ? {} : { durationS }),
        metadata: compact({ task: text(r.question_type) ?? task.replace(/^\d+_/, ""), taskFile: task, video }),
      });
    }
  }
  return out.result();
}
