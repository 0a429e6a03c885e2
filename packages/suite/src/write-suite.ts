// Writes a suite directory:
//   videos/<id>.mp4        rendered + encoded (encode.ts)
//   annotations/<id>.json  the exact timeline of each video (AnnotationSchema)
//   questions.jsonl        one question per line (QuestionSchema)
//   oracle.jsonl           one oracle trajectory per settled (question, K) (OracleRowSchema)
//   rl.jsonl               SPEC §6 RL rows (RlRowSchema)
//   manifest.json          seed, config, counts, version, per-video size + sha256, visibility table
// Every file is written under a temporary name and renamed; the manifest goes last, so a
// directory with a manifest is complete.

import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { encodeVideo } from "./encode";
import { planSuite, type SuiteOptions, type SuitePlan } from "./plan";
import { ManifestSchema, SUITE_GENERATOR_VERSION, type Manifest, type VideoAnnotation } from "./schemas";

export interface SuiteProgress {
  /** Videos finished so far (1-based after each video). */
  done: number;
  total: number;
  videoId: string;
  durationS: number;
  /** Seconds spent rendering + encoding this video. */
  seconds: number;
}

export interface WriteSuiteOptions extends SuiteOptions {
  /** Output directory (created if missing; files of the same names are replaced). */
  out: string;
  onProgress?: (p: SuiteProgress) => void;
  signal?: AbortSignal;
}

export interface WriteSuiteResult {
  dir: string;
  manifest: Manifest;
  plan: SuitePlan;
}

export const annotationPath = (a: Pick<VideoAnnotation, "id">) => `annotations/${a.id}.json`;

async function writeAtomic(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");

/** The manifest of a planned suite, given each video's encoded size and hash. */
export function buildManifest(
  plan: SuitePlan,
  files: ReadonlyMap<string, { bytes: number; sha256: string }>,
): Manifest {
  return ManifestSchema.parse({
    generator: "@paravt/suite",
    generatorVersion: SUITE_GENERATOR_VERSION,
    seed: plan.seed,
    count: plan.count,
    config: plan.config,
    counts: {
      videos: plan.videos.length,
      questions: plan.questions.length,
      oracle: plan.oracle.length,
      oracleUnsettled: plan.unsettled.length,
      subAgentSamples: plan.oracle.reduce((n, o) => n + o.subAgents.length, 0),
      rl: plan.rl.length,
      questionsDropped: plan.dropped,
    },
    totalDurationS: plan.videos.reduce((t, v) => t + v.durationS, 0),
    videos: plan.videos.map((v) => {
      const f = files.get(v.id);
      if (!f) throw new Error(`internal: no encoded file for ${v.id}`);
      return { id: v.id, file: v.file, annotation: annotationPath(v), durationS: v.durationS, ...f };
    }),
    visibility: plan.visibility,
  });
}

/** Generates and writes a whole suite (see the file list above). Deterministic in (seed, count, config). */
export async function writeSuite(opts: WriteSuiteOptions): Promise<WriteSuiteResult> {
  const plan = planSuite(opts);
  const dir = opts.out;
  await mkdir(join(dir, "videos"), { recursive: true });
  await mkdir(join(dir, "annotations"), { recursive: true });
  const files = new Map<string, { bytes: number; sha256: string }>();
  for (const [i, a] of plan.videos.entries()) {
    opts.signal?.throwIfAborted();
    const t0 = performance.now();
    await writeAtomic(join(dir, annotationPath(a)), JSON.stringify(a, null, 2) + "\n");
    const path = join(dir, a.file);
    await encodeVideo(a, path, plan.config, opts.signal ? { signal: opts.signal } : {});
    const bytes = await readFile(path);
    files.set(a.id, { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
    opts.onProgress?.({
      done: i + 1,
      total: plan.videos.length,
      videoId: a.id,
      durationS: a.durationS,
      seconds: (performance.now() - t0) / 1000,
    });
  }
  await writeAtomic(join(dir, "questions.jsonl"), jsonl(plan.questions));
  await writeAtomic(join(dir, "oracle.jsonl"), jsonl(plan.oracle));
  await writeAtomic(join(dir, "rl.jsonl"), jsonl(plan.rl));
  const manifest = buildManifest(plan, files);
  await writeAtomic(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { dir, manifest, plan };
}
