// ParaVT parquet fixtures (SPEC §6), written by the tests with hyparquet-writer in the nested
// layouts pyarrow / datasets produce: `prompt` and `messages` as lists of structs, `videos` as a
// list of {video} structs (or of strings), `extra_info` as a JSON string column or as a struct,
// and SFT `messages` also as one JSON string per row. These are the shapes the reference
// materializer reads (EvolvingLMMs-Lab/ParaVT `paravt/data/materialize.py`: `pq.read_table`, then
// `_walk_messages` on a list / dict / JSON string `messages` value whose content items carry
// `type` + `video_url: {url}` / `image_url: {url}`, and `_walk_videos` on a list of `{video}`
// dicts) and the reference RL dataset reads (`paravt/rl/data/dataset.py`: `prompt`, `videos`,
// `extra_info`). Also used by the worker's import test and the CLI test (imported by relative path).

import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parquetWriteFile } from "hyparquet-writer";

type SchemaElement = Parameters<typeof parquetWriteFile>[0]["schema"] extends (infer E)[] | undefined ? E : never;

const str = (name: string): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  repetition_type: "OPTIONAL",
});
const int64 = (name: string): SchemaElement => ({ name, type: "INT64", repetition_type: "OPTIONAL" });
/** A 3-level LIST of `element` (whose children follow). */
const list = (name: string, element: SchemaElement[]): SchemaElement[] => [
  { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  ...element,
];
const struct = (name: string, children: SchemaElement[][]): SchemaElement[] => [
  { name, repetition_type: "OPTIONAL", num_children: children.length },
  ...children.flat(),
];

export interface RlFixtureRow {
  id?: string | null;
  data_source?: string;
  prompt: { role: string; content: string }[];
  videos: { video: string }[];
  /** A JSON string (string layout) or an object (struct layout: answer, question_type, index). */
  extra_info: string | { answer: string; question_type: string; index?: number } | null;
}

/** RL rows; `extraInfo: "string"` writes extra_info as JSON text, `"struct"` as a struct column. */
export async function writeRlParquet(
  abs: string,
  rows: readonly RlFixtureRow[],
  extraInfo: "string" | "struct",
  rowGroupSize?: number,
): Promise<string> {
  await mkdir(dirname(abs), { recursive: true });
  const extra =
    extraInfo === "string"
      ? [str("extra_info")]
      : struct("extra_info", [[str("answer")], [str("question_type")], [int64("index")]]);
  const children: SchemaElement[][] = [
    [str("id")],
    [str("data_source")],
    list("prompt", struct("element", [[str("role")], [str("content")]])),
    list("videos", struct("element", [[str("video")]])),
    extra,
  ];
  parquetWriteFile({
    filename: abs,
    schema: [{ name: "root", num_children: children.length }, ...children.flat()],
    columnData: [
      { name: "id", data: rows.map((r) => r.id ?? null) },
      { name: "data_source", data: rows.map((r) => r.data_source ?? "longvt") },
      { name: "prompt", data: rows.map((r) => r.prompt) },
      { name: "videos", data: rows.map((r) => r.videos) },
      {
        name: "extra_info",
        data: rows.map((r) => {
          const e = r.extra_info;
          if (e === null || typeof e === "string") return e;
          return { ...e, index: e.index === undefined ? null : BigInt(e.index) };
        }),
      },
    ] as never,
    ...(rowGroupSize === undefined ? {} : { rowGroupSize }),
  });
  return abs;
}

export interface SftContentItem {
  type: "text" | "video_url" | "image_url";
  text?: string;
  video_url?: { url: string };
  image_url?: { url: string };
}

export interface SftFixtureRow {
  messages: { role: string; content: SftContentItem[] }[];
  videos: string[];
  extra_info?: string | null;
}

export interface SftLayout {
  /** `list` (default): a list of structs; `json`: one JSON string per row (Python's json.dumps). */
  messages?: "list" | "json";
  /** `string` (default): a list of strings; `struct`: a list of {video} structs. */
  videos?: "string" | "struct";
}

/** The text `json.dumps(value)` writes (default separators ", " and ": ", ASCII escapes). */
export function pythonJsonDumps(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
    .join(", ")}}`;
}

export async function writeSftParquet(
  abs: string,
  rows: readonly SftFixtureRow[],
  layout: SftLayout = {},
): Promise<string> {
  await mkdir(dirname(abs), { recursive: true });
  const item = struct("element", [
    [str("type")],
    [str("text")],
    struct("video_url", [[str("url")]]),
    struct("image_url", [[str("url")]]),
  ]);
  const json = layout.messages === "json";
  const structVideos = layout.videos === "struct";
  const children: SchemaElement[][] = [
    json ? [str("messages")] : list("messages", struct("element", [[str("role")], list("content", item)])),
    structVideos ? list("videos", struct("element", [[str("video")]])) : list("videos", [str("element")]),
    [str("extra_info")],
  ];
  parquetWriteFile({
    filename: abs,
    schema: [{ name: "root", num_children: children.length }, ...children.flat()],
    columnData: [
      {
        name: "messages",
        data: rows.map((r) =>
          // The JSON layout keeps only the keys an item has (as a Python writer of dicts would).
          json
            ? pythonJsonDumps(r.messages)
            : r.messages.map((m) => ({
                role: m.role,
                content: m.content.map((c) => ({
                  type: c.type,
                  text: c.text ?? null,
                  video_url: c.video_url ?? null,
                  image_url: c.image_url ?? null,
                })),
              })),
        ),
      },
      { name: "videos", data: rows.map((r) => (structVideos ? r.videos.map((video) => ({ video })) : r.videos)) },
      { name: "extra_info", data: rows.map((r) => r.extra_info ?? null) },
    ] as never,
  });
  return abs;
}

/** A user turn as the reference writes it: the `<video>` marker, then the question. */
export const userTurn = (question: string) => ({ role: "user", content: `<video>\n${question}` });
export const SYSTEM_TURN = { role: "system", content: "You are a video agent. Use crop_video to look closer." };

/** The media root layout the fixtures point at: one file per sentinel root (+ one left missing). */
export const PRESENT_VIDEOS = [
  "longvt_source/yt/abc.mp4",
  "museg/charades/AB12C.mp4",
  "museg/et_instruct_164k/clip 7.mp4",
  "selfqa/q/001.mp4",
] as const;

export function mediaPath(mediaRoot: string, rel: string): string {
  return join(mediaRoot, rel);
}
