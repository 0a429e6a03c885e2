// The single entry point the dataset import job calls: validate the request, resolve directories,
// dispatch to the benchmark's loader.

import { resolve } from "node:path";
import { z } from "zod";
import { zodIssues } from "./collector";
import { BenchmarkError } from "./errors";
import { pathKind } from "./files";
import type { Loader } from "./loader-kit";
import { loadCharadesSta } from "./loaders/charades-sta";
import { loadCustom } from "./loaders/custom";
import { loadLongVideoBench } from "./loaders/longvideobench";
import { loadLvBench } from "./loaders/lvbench";
import { loadMlvu } from "./loaders/mlvu";
import { loadMmvu } from "./loaders/mmvu";
import { loadParavtParquet } from "./loaders/paravt-parquet";
import { loadVideoMme } from "./loaders/videomme";
import { benchmarkInfo } from "./registry";
import { BenchmarkIdSchema, type BenchmarkId, type LoadResult } from "./schemas";

const LOADERS: Record<BenchmarkId, Loader> = {
  videomme: loadVideoMme,
  longvideobench: loadLongVideoBench,
  lvbench: loadLvBench,
  mlvu: loadMlvu,
  mmvu: loadMmvu,
  charades_sta: loadCharadesSta,
  custom: loadCustom,
  "paravt-parquet": loadParavtParquet,
};

/** Loaders that read a file rather than a directory (custom: either; paravt-parquet: a file). */
const FILE_INPUT: ReadonlySet<BenchmarkId> = new Set(["custom", "paravt-parquet"]);

export const LoadBenchmarkOptionsSchema = z.strictObject({
  benchmark: BenchmarkIdSchema,
  /** The benchmark's download (custom: a folder of dataset files, or one file; paravt-parquet: one .parquet file). */
  dir: z.string().min(1),
  /** Where the videos are; default: the benchmark's usual video folder inside `dir` (paravt-parquet: the media root). */
  videoDir: z.string().min(1).optional(),
  /** Default: the benchmark's only / first split. Custom datasets take any name. */
  split: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, _ . - (at most 64)")
    .optional(),
  /** VideoMME only: prefix the SRT text (same as split "test_subtitles"). */
  subtitles: z.boolean().optional(),
});
export type LoadBenchmarkOptions = z.input<typeof LoadBenchmarkOptionsSchema>;

export async function loadBenchmark(options: LoadBenchmarkOptions): Promise<LoadResult> {
  const parsed = LoadBenchmarkOptionsSchema.safeParse(options);
  if (!parsed.success) throw new BenchmarkError("options", `invalid benchmark options: ${zodIssues(parsed.error)}`);
  const { benchmark, subtitles = false } = parsed.data;
  const info = benchmarkInfo(benchmark);

  const split = parsed.data.split ?? info.defaultSplit;
  if (info.splits.length && !info.splits.includes(split)) {
    throw new BenchmarkError("options", `${info.title} has no split "${split}" (splits: ${info.splits.join(", ")})`);
  }
  if (subtitles && !info.supportsSubtitles)
    throw new BenchmarkError("options", `${info.title} has no subtitle variant`);

  const dir = resolve(parsed.data.dir);
  const dirKind = await pathKind(dir);
  if (dirKind === null || (dirKind === "file" && !FILE_INPUT.has(benchmark))) {
    throw new BenchmarkError("options", `${dir} is not a ${FILE_INPUT.has(benchmark) ? "file or " : ""}directory`);
  }
  let videoDir: string | undefined;
  if (parsed.data.videoDir !== undefined) {
    videoDir = resolve(parsed.data.videoDir);
    if ((await pathKind(videoDir)) !== "dir")
      throw new BenchmarkError("options", `video directory ${videoDir} is not a directory`);
  }
  return LOADERS[benchmark]({ dir, ...(videoDir === undefined ? {} : { videoDir }), split, subtitles });
}
