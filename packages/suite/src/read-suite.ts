// Reads a suite directory back (for the importer that registers videos and creates samples).
// Every file is validated with its zod schema, and the files are checked against each other:
// the manifest lists every video, each annotation matches its entry, each video file exists
// with the recorded size (and hash, on request), every question, RL row and oracle row refers
// to a known video / question, and every answer agrees with the ground truth recomputed from
// its annotation. Any problem is a SuiteReadError naming the file (and line) and what is wrong.

import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { z } from "zod";
import {
  AnnotationSchema,
  ManifestSchema,
  OracleRowSchema,
  QuestionSchema,
  RlRowSchema,
  SUITE_GENERATOR_VERSION,
  type Manifest,
  type OracleRow,
  type RlRow,
  type SuiteQuestion,
  type VideoAnnotation,
} from "./schemas";
import { upgradeLegacyConfig } from "./oracle-style";
import { groundTruth, LETTERS } from "./templates";

export class SuiteReadError extends Error {
  constructor(
    /** Suite-relative file the problem is in. */
    readonly file: string,
    message: string,
    /** 1-based line of a JSON Lines file. */
    readonly line?: number,
  ) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${message}`);
    this.name = "SuiteReadError";
  }
}

export interface SuiteVideo {
  id: string;
  /** Absolute path of the mp4. */
  path: string;
  /** Suite-relative path (what questions and RL rows carry). */
  file: string;
  annotation: VideoAnnotation;
  bytes: number;
  sha256: string;
}

export interface Suite {
  /** Absolute path of the suite directory. */
  dir: string;
  manifest: Manifest;
  videos: SuiteVideo[];
  questions: SuiteQuestion[];
  oracle: OracleRow[];
  rl: RlRow[];
}

export interface ReadSuiteOptions {
  /** Also hash every video and compare with the manifest (reads every byte). Default false: sizes only. */
  verifyHashes?: boolean;
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

async function readText(dir: string, file: string): Promise<string> {
  try {
    return await readFile(join(dir, file), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SuiteReadError(file, code === "ENOENT" ? "missing" : `cannot be read (${code ?? String(e)})`);
  }
}

function parseJson(file: string, text: string, line?: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SuiteReadError(file, `not valid JSON (${(e as Error).message})`, line);
  }
}

function validate<S extends z.ZodType>(schema: S, value: unknown, file: string, line?: number): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new SuiteReadError(file, issues(r.error), line);
  return r.data;
}

async function readJsonl<S extends z.ZodType>(dir: string, file: string, schema: S): Promise<z.output<S>[]> {
  const text = await readText(dir, file);
  const out: z.output<S>[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    out.push(validate(schema, parseJson(file, raw, i + 1), file, i + 1));
  });
  return out;
}

function unique(file: string, ids: readonly string[]): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw new SuiteReadError(file, `duplicate id ${id}`, i + 1);
    seen.add(id);
  });
}

/** Reads and cross-checks a suite directory written by writeSuite. */
export async function readSuite(dir: string, opts: ReadSuiteOptions = {}): Promise<Suite> {
  const root = resolve(dir);
  const rawManifest = parseJson("manifest.json", await readText(root, "manifest.json"));
  const version = (rawManifest as { generatorVersion?: unknown } | null)?.generatorVersion;
  if (version !== SUITE_GENERATOR_VERSION) {
    throw new SuiteReadError(
      "manifest.json",
      `generatorVersion ${JSON.stringify(version)} is not supported (this reader reads version ${SUITE_GENERATOR_VERSION})`,
    );
  }
  // Suites written before the oracle style was one field keep its knobs flat in their config.
  const raw = rawManifest as Record<string, unknown>;
  const manifest = validate(ManifestSchema, { ...raw, config: upgradeLegacyConfig(raw.config) }, "manifest.json");

  const videos: SuiteVideo[] = [];
  for (const entry of manifest.videos) {
    const annotation = validate(
      AnnotationSchema,
      parseJson(entry.annotation, await readText(root, entry.annotation)),
      entry.annotation,
    );
    if (annotation.id !== entry.id || annotation.file !== entry.file || annotation.durationS !== entry.durationS) {
      throw new SuiteReadError(entry.annotation, `does not match the manifest entry of video ${entry.id}`);
    }
    const path = join(root, entry.file);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      throw new SuiteReadError(entry.file, "missing (listed in manifest.json)");
    }
    if (size !== entry.bytes) {
      throw new SuiteReadError(entry.file, `has ${size} bytes, manifest.json says ${entry.bytes}`);
    }
    if (opts.verifyHashes) {
      const sha = createHash("sha256")
        .update(await readFile(path))
        .digest("hex");
      if (sha !== entry.sha256) throw new SuiteReadError(entry.file, `sha256 ${sha} differs from manifest.json`);
    }
    videos.push({ id: entry.id, path, file: entry.file, annotation, bytes: entry.bytes, sha256: entry.sha256 });
  }
  unique(
    "manifest.json",
    videos.map((v) => v.id),
  );
  const byId = new Map(videos.map((v) => [v.id, v]));

  const questions = await readJsonl(root, "questions.jsonl", QuestionSchema);
  unique(
    "questions.jsonl",
    questions.map((q) => q.id),
  );
  questions.forEach((q, i) => {
    const v = byId.get(q.videoId);
    const line = i + 1;
    if (!v) throw new SuiteReadError("questions.jsonl", `unknown video ${q.videoId}`, line);
    if (q.video !== v.file) throw new SuiteReadError("questions.jsonl", `video path ${q.video} is not ${v.file}`, line);
    const gt = groundTruth(q, v.annotation);
    const expected = gt && (q.options ? LETTERS[q.options.indexOf(gt.answerText)] : gt.answerText);
    if (!gt || gt.answerText !== q.answerText || expected !== q.answer) {
      throw new SuiteReadError("questions.jsonl", `answer of ${q.id} disagrees with annotation ${v.id}`, line);
    }
    const ids = new Set(v.annotation.events.map((e) => e.id));
    const missing = q.evidence.find((e) => !ids.has(e));
    if (missing) throw new SuiteReadError("questions.jsonl", `evidence ${missing} is not an event of ${v.id}`, line);
  });
  const qById = new Map(questions.map((q) => [q.id, q]));

  const rl = await readJsonl(root, "rl.jsonl", RlRowSchema);
  rl.forEach((r, i) => {
    const q = qById.get(r.id);
    if (!q) throw new SuiteReadError("rl.jsonl", `unknown question ${r.id}`, i + 1);
    if (r.videos[0]!.video !== q.video || r.extra_info.answer !== q.answer || r.extra_info.question_type !== q.type) {
      throw new SuiteReadError("rl.jsonl", `row ${r.id} disagrees with questions.jsonl`, i + 1);
    }
  });

  const oracle = await readJsonl(root, "oracle.jsonl", OracleRowSchema);
  unique(
    "oracle.jsonl",
    oracle.map((o) => o.id),
  );
  oracle.forEach((o, i) => {
    const q = qById.get(o.questionId);
    if (!q) throw new SuiteReadError("oracle.jsonl", `unknown question ${o.questionId}`, i + 1);
    if (o.answer !== q.answer || o.video !== q.video) {
      throw new SuiteReadError("oracle.jsonl", `trajectory ${o.id} disagrees with questions.jsonl`, i + 1);
    }
  });

  const counts = { questions: questions.length, rl: rl.length, oracle: oracle.length };
  for (const [name, n] of Object.entries(counts)) {
    const want = manifest.counts[name as keyof typeof counts];
    if (n !== want) throw new SuiteReadError(`${name}.jsonl`, `has ${n} rows, manifest.json says ${want}`);
  }
  return { dir: root, manifest, videos, questions, oracle, rl };
}
