// MMVU, validation split (SPEC §5 scores it as multiple choice by accuracy).
//
// Layout followed: github.com/yale-nlp/MMVU (README "Dataset Example Feature", data/validation.json,
// utils/prepare_input.py) and the Hugging Face dataset yale-nlp/MMVU: `validation.json`, a JSON
// array of {id ("validation_1"), video (a Hugging Face URL
// https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos/<Subject>/<n>.mp4), youtube_url,
// question_type ("multiple-choice" | "open-ended"), metadata {subject, textbook, …}, question,
// choices ({"A": …, "E": …}; all empty for open-ended rows), answer (a letter for multiple choice,
// free text for open-ended)}. The video URL maps to `videos/<Subject>/<n>.mp4` of the local
// download. prepare_input.py shows options as "A: …". Variants accepted: the file at the top or in `data/` (the GitHub layout);
// a video directory given as the dataset root or as its videos/ folder; relative video paths;
// choices as a list; unused trailing choices left empty; `subject` at the top of the row.
//
// Open-ended rows are loaded too (question type `oe`, the answer text as published, trimmed), because
// the reference evaluator scores them (paravt/eval/utils.py::load_samples lines 376-429 marks EVERY
// MMVU row is_mcq=True with answer str(answer).strip(); driver.py::_score then sets pred =
// extract_letter(response) and correct = pred == answer). extract_letter returns a letter A–J when
// the response has one, else the response's first character, so an open-ended row counts as correct
// only when its whole answer is that one character (e.g. "3" answered "3 …"); every other open-ended
// row is wrong whatever the model says. `metadata.referenceScoring: "extract_letter"` marks these
// rows so a scorer can reproduce that rule instead of the SPEC §2 oe reward. The reference's row id is
// `id` and its `config` the row's `subject` (empty when the row has none at the top). Every sample
// keeps the reference's question text (`metadata.reference`, ../reference-bodies.ts: the raw
// question and the non-empty choices in key order as "A. …"; is_mcq true for open-ended rows too).

import { join } from "node:path";
import { Collector } from "../collector";
import { findFile, isRecord, readJsonArray } from "../files";
import { compact, layoutError, pickVideoDir, text, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, checkOptionTexts, optionLetter, questionWithOptions, type Checked } from "../options";
import { mmvuBody } from "../reference-bodies";
import type { LoadResult } from "../schemas";
import { VideoResolver } from "../video-path";

const FILES = ["validation.json", "data/validation.json"];

/** `{"A": "x", "B": "y", "C": ""}` -> ["x", "y"]: letters in order from A, trailing empty ones dropped. */
function choicesOf(raw: unknown): Checked<string[]> {
  if (Array.isArray(raw)) return checkOptionTexts(raw);
  if (!isRecord(raw))
    return { ok: false, reason: "malformed_options", detail: "choices are neither an object nor a list" };
  const letters = Object.keys(raw).sort();
  const values = letters.map((l) => raw[l]);
  while (values.length && (values[values.length - 1] === "" || values[values.length - 1] === null)) values.pop();
  for (let i = 0; i < values.length; i++) {
    if (letters[i] !== optionLetter(i)) {
      return {
        ok: false,
        reason: "malformed_options",
        detail: `choice "${letters[i]}" where "${optionLetter(i)}" was expected`,
      };
    }
  }
  return checkOptionTexts(values);
}

/**
 * The path of the video inside the dataset: the part after `/resolve/<revision>/` of a Hugging Face
 * URL (the reference splits at "/main/", the same for the published URLs).
 */
function videoRef(raw: string): string {
  const m = /^https?:\/\/[^/]+\/datasets\/[^/]+\/[^/]+\/resolve\/[^/]+\/(.+)$/.exec(raw);
  return m ? decodeURIComponent(m[1]!) : raw;
}

export async function loadMmvu(ctx: LoaderContext): Promise<LoadResult> {
  const rel = await findFile(ctx.dir, FILES);
  if (rel === null) throw layoutError(ctx, "MMVU validation annotations", FILES);
  const rows = await readJsonArray(join(ctx.dir, rel), rel);

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, [""], warnings);
  const out = new Collector("mmvu", "validation", "json", new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  out.readFile(rel);

  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const n = i + 1;
    if (!isRecord(r)) {
      out.skip(rel, n, "invalid_field", "row is not an object");
      continue;
    }
    const key = text(r.id);
    if (key === null) {
      out.skip(rel, n, "missing_field", "no id");
      continue;
    }
    const kind = text(r.question_type);
    if (kind !== "multiple-choice" && kind !== "open-ended") {
      out.skip(rel, n, "invalid_field", `question_type ${JSON.stringify(r.question_type)}`, key);
      continue;
    }
    const question = text(r.question);
    const video = text(r.video);
    if (question === null || video === null) {
      out.skip(rel, n, "missing_field", question === null ? "no question" : "no video", key);
      continue;
    }
    const local = videoRef(video);
    const meta = isRecord(r.metadata) ? r.metadata : {};
    const subject = text(r.subject) ?? text(meta.subject);
    const common = {
      referenceId: key,
      questionText: question,
      mmvuQuestionType: kind,
      subject,
      textbook: text(meta.textbook),
      youtubeUrl: text(r.youtube_url),
      video: local,
    };
    const videoRefs = [local, ...(local.startsWith("videos/") ? [local.slice("videos/".length)] : [])];
    const reference = { dataset: "mmvu", isMcq: true, body: mmvuBody(r.question, r.choices) } as const;
    if (kind === "open-ended") {
      const answer = text(r.answer);
      if (answer === null) {
        out.skip(rel, n, "missing_field", "no answer", key);
        continue;
      }
      await out.add(rel, n, {
        key,
        video: videoRefs,
        question,
        options: null,
        answer,
        questionType: "oe",
        reference,
        metadata: compact({ ...common, referenceScoring: "extract_letter" }),
      });
      continue;
    }
    const options = choicesOf(r.choices);
    if (!options.ok) {
      out.skip(rel, n, options.reason, options.detail, key);
      continue;
    }
    const answer = checkAnswerLetter(r.answer, options.value.length);
    if (!answer.ok) {
      out.skip(rel, n, answer.reason, answer.detail, key);
      continue;
    }
    await out.add(rel, n, {
      key,
      video: videoRefs,
      question: questionWithOptions(question, options.value, "colon"),
      options: options.value,
      answer: answer.value,
      questionType: "mcq",
      reference,
      metadata: compact(common),
    });
  }
  return out.result();
}
