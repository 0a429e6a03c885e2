// What each loader reads, as data for the UI (dataset import page) and the README. Pure: no Node
// imports, so it can be served to the browser as is. load-benchmark.ts pairs each id with its loader.

import type { BenchmarkId, QuestionType } from "./schemas";

export interface BenchmarkFileSpec {
  /** Path relative to the benchmark directory; alternatives separated by " | ". */
  path: string;
  required: boolean;
  description: string;
}

export interface BenchmarkInfo {
  id: BenchmarkId;
  title: string;
  description: string;
  splits: readonly string[];
  defaultSplit: string;
  questionType: QuestionType | "mixed";
  /** How SPEC §5 scores it. */
  metric: string;
  /** How option lines are written into the question (the benchmark's own convention). */
  optionStyle: string | null;
  supportsSubtitles: boolean;
  /** The published layout the loader follows. */
  source: string;
  files: readonly BenchmarkFileSpec[];
  /** Video folders tried, in order, when no video directory is given ("" = the benchmark directory). */
  videoDirs: readonly string[];
  /** Layout variations also accepted. */
  variants: readonly string[];
}

export const BENCHMARKS: readonly BenchmarkInfo[] = [
  {
    id: "videomme",
    title: "Video-MME",
    description:
      "2,700 questions on 900 videos (11 s to 1 h), short / medium / long; split test_subtitles (or subtitles: true) prefixes each question with the video's SRT text.",
    splits: ["test", "test_subtitles"],
    defaultSplit: "test",
    questionType: "mcq",
    metric: "accuracy, also by duration (short / medium / long)",
    optionStyle: "A. text",
    supportsSubtitles: true,
    source: "huggingface.co/datasets/lmms-lab/Video-MME (github.com/BradyFU/Video-MME)",
    files: [
      {
        path: "videomme/test-00000-of-00001.parquet",
        required: true,
        description: "questions: question_id, videoID, duration, question, options, answer, …",
      },
      {
        path: "videomme/data/<videoID>.mp4, videomme/subtitle/<videoID>.srt",
        required: false,
        description: "the reference evaluator's HF_HOME layout (give HF_HOME as the directory)",
      },
      { path: "data/<videoID>.mp4", required: true, description: "videos (videos_chunked_*.zip unpacked)" },
      { path: "subtitle/<videoID>.srt", required: false, description: "subtitles (subtitle.zip), for test_subtitles" },
    ],
    videoDirs: ["data", "video", "videos"],
    variants: [
      "parquet in the directory itself, or several test-*-of-*.parquet shards",
      "videos in data/, video/, videos/ or videomme/data/; subtitles in subtitle/, subtitles/ or videomme/subtitle/",
      "metadata.referenceId = videoID (the reference evaluator's row id, shared by a video's questions)",
      "options with or without their letters",
      "a video without an SRT file keeps its question unprefixed (counted in stats.subtitles.missing)",
    ],
  },
  {
    id: "longvideobench",
    title: "LongVideoBench",
    description: "1,337 validation questions on web videos up to an hour, referring queries, 4–5 options.",
    splits: ["validation"],
    defaultSplit: "validation",
    questionType: "mcq",
    metric: "accuracy",
    optionStyle: "A. text",
    supportsSubtitles: false,
    source: "huggingface.co/datasets/longvideobench/LongVideoBench (github.com/longvideobench/LongVideoBench)",
    files: [
      {
        path: "lvb_val.json | validation-00000-of-00001.parquet",
        required: true,
        description:
          "questions: id, video_path, question, candidates (json) or option0..option4 (parquet), correct_choice, duration, …",
      },
      { path: "videos/<video_path>", required: true, description: "videos (videos.tar.part.* joined and unpacked)" },
    ],
    videoDirs: ["videos", "video"],
    variants: [
      'lvb_val.json, or the validation parquet (option0..option4, "N/A" or empty = no option) that lmms-eval and the reference evaluator read',
      "a missing video_path falls back to <video_id>.mp4",
    ],
  },
  {
    id: "lvbench",
    title: "LVBench",
    description: "Extreme long videos (about an hour and more); six capability types; options inside the question.",
    splits: ["test"],
    defaultSplit: "test",
    questionType: "mcq",
    metric: "accuracy",
    optionStyle: "(A) text",
    supportsSubtitles: false,
    source: "github.com/THUDM/LVBench, huggingface.co/datasets/THUDM/LVBench",
    files: [
      {
        path: "video_info.meta.jsonl | data/video_info.meta.jsonl | train-*-of-*.parquet",
        required: true,
        description:
          "one line per video: key, type, video_info, qa [{uid, question, answer, question_type, time_reference}]",
      },
      { path: "videos/<key>.mp4", required: true, description: "videos named by their YouTube id" },
    ],
    videoDirs: ["videos", "all_videos", "video"],
    variants: [
      "videos in videos/, all_videos/ or video/",
      "video_info.duration (seconds) or duration_minutes",
      "lmms-lab/LVBench parquet (uid, video_path, question, answer; videos at video_path under the directory)",
    ],
  },
  {
    id: "mlvu",
    title: "MLVU (dev)",
    description:
      "Seven multiple-choice tasks of the MLVU dev set (plot QA, needle, ego, count, order, anomaly, topic).",
    splits: ["dev"],
    defaultSplit: "dev",
    questionType: "mcq",
    metric: "accuracy",
    optionStyle: "(A) text",
    supportsSubtitles: false,
    source: "huggingface.co/datasets/MLVU/MVLU (github.com/JUNJIE99/MLVU)",
    files: [
      {
        path: "MLVU/json/1_plotQA.json … 7_topic_reasoning.json | test-*-of-*.parquet",
        required: true,
        description: "per task: video, duration, question, candidates, answer (the correct candidate's text)",
      },
      { path: "MLVU/video/<task>/<video>", required: true, description: "videos in one folder per task" },
    ],
    videoDirs: ["video", "MLVU/video"],
    variants: [
      "the dataset root or MLVU/ itself as the directory",
      "a video directly in the video folder",
      "8_sub_scene / 9_summary (generation tasks) are not loaded",
      "sy1998/MLVU_dev parquet (video_name, question, candidates, answer text, task_type): keys <task_type>-<i> as the reference evaluator numbers them; videos under MLVU/video/",
    ],
  },
  {
    id: "mmvu",
    title: "MMVU (validation)",
    description:
      "Expert-domain videos across 27 subjects, validation split: multiple-choice and open-ended questions (scored as the reference evaluator does).",
    splits: ["validation"],
    defaultSplit: "validation",
    questionType: "mixed",
    metric: "accuracy (open-ended rows: the reference's letter comparison, metadata.referenceScoring)",
    optionStyle: "A: text",
    supportsSubtitles: false,
    source: "github.com/yale-nlp/MMVU, huggingface.co/datasets/yale-nlp/MMVU",
    files: [
      {
        path: "validation.json | data/validation.json",
        required: true,
        description: "id, video (Hugging Face URL), question_type, question, choices, answer, metadata",
      },
      { path: "videos/<Subject>/<n>.mp4", required: true, description: "videos, as in the dataset repository" },
    ],
    videoDirs: [""],
    variants: [
      "open-ended rows load as oe samples marked referenceScoring: extract_letter",
      "video directory = dataset root or its videos/ folder",
      "choices as an object or a list; trailing empty choices ignored",
    ],
  },
  {
    id: "charades_sta",
    title: "Charades-STA (test)",
    description: "Temporal grounding: find the [start, end] of a sentence in a Charades video.",
    splits: ["test"],
    defaultSplit: "test",
    questionType: "tvg",
    metric: "mIoU and R@0.3 / 0.5 / 0.7 (IoU = intersection / hull)",
    optionStyle: null,
    supportsSubtitles: false,
    source: "github.com/jiyanggao/TALL (charades_sta_test.txt), Charades v1 (allenai.org)",
    files: [
      {
        path: "charades_sta_test.txt | charades_sta_test.json | charades_test.json | test-*-of-*.parquet",
        required: true,
        description:
          '"<id> <start> <end>##<sentence>" lines, {<id>: {duration, timestamps, sentences}}, or lmms-lab/charades_sta rows (video, caption, timestamp)',
      },
      { path: "Charades_v1_test.csv", required: false, description: "video lengths (column length)" },
      { path: "Charades_v1_480/<id>.mp4", required: true, description: "Charades v1 videos" },
    ],
    videoDirs: ["Charades_v1_480", "Charades_v1", "videos", "video"],
    variants: [
      "files at the top or in annotations/",
      "no CSV: lengths unknown (a warning)",
      "an end past the video's length is kept and flagged in metadata.endBeyondDuration",
      "lmms-lab/charades_sta parquet: metadata.referenceId (row position) and referenceKey (video>>>caption>>>timestamp) as the reference evaluator writes them",
    ],
  },
  {
    id: "custom",
    title: "Custom dataset",
    description:
      "Your own questions: JSON Lines, a JSON array or parquet with id, video, question, options?, answer, question_type (mcq | tvg | oe), duration?, metadata?.",
    splits: [],
    defaultSplit: "test",
    questionType: "mixed",
    metric: "by question type: accuracy (mcq), IoU (tvg), F1 / judge (oe)",
    optionStyle: "A. text",
    supportsSubtitles: false,
    source: "this package's README (Custom datasets)",
    files: [
      {
        path: "<name>.jsonl | <name>.json | <name>.parquet",
        required: true,
        description: "one file, or a folder whose top-level .jsonl / .json / .parquet files are all read",
      },
      { path: "<video>", required: true, description: "videos relative to the video directory" },
    ],
    videoDirs: [""],
    variants: ["any split name (letters, digits, _ . -)", "metadata as an object or, in parquet, a JSON string"],
  },
  {
    id: "paravt-parquet",
    title: "ParaVT parquet (RL / SFT)",
    description:
      "The reference trainer's training file (SPEC §6): RL rows (prompt with a <video> marker, videos, extra_info with answer and question_type) become samples; SFT rows (messages, videos) only when they carry such an extra_info. Video paths under longvt_source/, museg/charades/, museg/et_instruct_164k/, selfqa/ are looked up under the media root; rows whose video is missing are skipped.",
    splits: [],
    defaultSplit: "train",
    questionType: "mixed",
    metric: "by question type: accuracy (mcq), IoU (tvg), F1 / judge (oe)",
    optionStyle: "as written in the prompt (A. x, (A) x, A) x or A: x lines)",
    supportsSubtitles: false,
    source: "SPEC §6 (ParaVT-Parquet rows and sentinel paths)",
    files: [
      { path: "<name>.parquet", required: true, description: "one RL or SFT parquet file (the path to give)" },
      {
        path: "longvt_source/… | museg/charades/… | museg/et_instruct_164k/… | selfqa/…",
        required: true,
        description: "the videos, under the media root (the video directory; default: the folder holding the file)",
      },
    ],
    videoDirs: [""],
    variants: [
      "extra_info as a JSON string or an object",
      "paths already materialized (file:// or absolute) when inside the media root",
      "any split name (default train)",
    ],
  },
];

export function benchmarkInfo(id: BenchmarkId): BenchmarkInfo {
  const info = BENCHMARKS.find((b) => b.id === id);
  if (!info) throw new Error(`unknown benchmark ${id}`);
  return info;
}
