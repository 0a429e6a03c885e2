// The two ends of the PyTorch mirror (README.md here): `exportGpuDataset` writes a suite's SFT
// examples, exactly as the core trainer builds them (`trainSft`, with the default recipe's
// curricula), to flat binary files that train_sft.py reads with numpy; `importGpuModel` turns the
// model.safetensors it writes back into a checkpoint that the core, nano-quality and the
// workbench load.
//
// Files of an export (little-endian; n = tokens over all examples, E examples, F frames):
//   meta.json      vocabulary size, special ids, palette and digit tables, the MM:SS colon id,
//                  emphasis weights, the frame-target weight, template names, the dataset
//                  fingerprint, and the parity batch (4 example indices and the core trainer's
//                  loss on them)
//   examples.i32   [E, 8]: offset, length, kind (0 main, 1 sub, 2 when drill, 3 letter drill), answerFrom, paletteFrom,
//                  digitFrom, template index, 0   (a "from" of 2^30 = never)
//   ids.i16        [n] token ids
//   loss.u8        [n] lossMask
//   frame.i32      [n] global frame index of a slot, -1 elsewhere
//   ftarget.i16    [n] the frame target trained at input position i, -1 for none
//   frames.u8.gz   [F, h, w, 3] RGB24 thumbnails (the pipeline of frames.ts), gzip
// The per-step augmentations (palette and digit permutation, time shift) are drawn by the Python side; what
// decides them per example (answerFrom, paletteFrom, digitFrom) is computed here by the trainer's
// own functions, so the two cannot disagree on eligibility.
//
// When drill (`whenDrill`): extra main-agent `when` trajectories of videos that are planned but
// never rendered (planSuite of another seed, the suite's config with MM:SS answers and
// whenSearch "crops"), so that many more "find the target's sentence, copy its times" answers fit
// a device machine's transfer than rendered videos do (a video's thumbnails are ~50 kB of xz, a
// drill trajectory's tokens ~1 kB). Under whenSearch "crops" the agent's decisions and answer do
// not depend on its overview frames, so each overview slot holds a stand-in: a frame of the
// export's own videos. Kind 2; the trainer trains only its answer turn and no frame target.
// A suite generated with sceneSearch "crops" adds its `scene_color` and `scene_position`
// trajectories to the drill: they too read the video through crops only, and their answer quotes a
// summary (sceneAnswer "quote"), the copy keyed by the scene's colour that the drill is to teach.
// One generated with orderSearch "crops" adds its `order` trajectories: read from 0 s through
// crops, answered by quoting the first summary sentence that names one of the four options.
//
// Letter drill (`letterDrill`): main-agent `scene_color` and `order` trajectories of unrendered
// videos (planSuite of another seed, the suite's own config), stand-in frames as above, trained
// only from the letter of their ": option C" (text-first options: " (C)") lead on (the letter,
// the end of the thinking and the answer tag). What comes before it (which colour or shape) rests on frames the stand-ins do not
// show, so it is context only; what is trained is the lookup "the option whose text I just named
// -> its letter", which the question's options alone settle. Measured need: `mix-b` named the right
// colour 66/165 but wrote that colour's letter 32/165 (nano README, Quality bar, "ninth session").
// Kind 3; its answerFrom (and paletteFrom, when its answer turn is palette-permutable) is the letter.

import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import {
  datasetHash,
  defaultTokenizer,
  loadCheckpoint,
  readSafetensorsFile,
  saveCheckpoint,
  sftExamples,
  TIME_PIECE_COUNT,
  Tokenizer,
  TOKENIZER_VERSION,
  trainSft,
  videoFrameSource,
  type Checkpoint,
  type FrameRef,
  type SftOptions,
} from "@paravt/nano";
import { planSuite, readSuite, type SuiteConfig, type TemplateName } from "@paravt/suite";
import {
  digitIds,
  digitPermutable,
  emphasisWeights,
  frameTargets as frameTargetsCurriculum,
  lastTurnStart,
  palettePieces,
  paletteTokenIds,
  permutable,
  PERMUTED_GROUPS,
  suiteFrameTargets,
  tokenEmphasis,
} from "../curricula";

export const GPU_EXPORT_FORMAT = "paravt-nano-gpu-sft";
const NEVER = 2 ** 30;

export interface GpuExportOptions {
  suiteDir: string;
  /** The checkpoint whose config (thumbnail, context) the export follows and whose weights the parity batch uses. */
  init: string;
  out: string;
  /** The first N videos of the suite only (what fits a device machine's transfer); default all. */
  videos?: number;
  /** The trainer's --ks, --alias-video-paths seed; the think prefix is always on (the default recipe). */
  ks?: readonly number[];
  seed?: number;
  /** --frame-targets and --emphasize-palette of the default recipe. */
  frameTargetWeight?: number;
  paletteEmphasis?: number;
  /** Adds the `when` trajectories of `videos` unrendered videos planned from `seed` (see the top). */
  whenDrill?: { seed: number; videos: number };
  /** Adds the `scene_color` / `order` letter lookups of `videos` unrendered videos planned from `seed` (see the top). */
  letterDrill?: { seed: number; videos: number };
  onProgress?: (line: string) => void;
}

export interface GpuExportResult {
  examples: number;
  /** Of `examples`, the when drill's (kind 2, after the suite's own). */
  drillExamples: number;
  /** Of `examples`, the letter drill's (kind 3, the last ones). */
  letterDrillExamples: number;
  tokens: number;
  frames: number;
  datasetHash: string;
  parity: { examples: number[]; loss: number };
}

/** Writes the export of `o.suiteDir` to `o.out` (see the file list at the top). */
export async function exportGpuDataset(o: GpuExportOptions): Promise<GpuExportResult> {
  const tokenizer = defaultTokenizer();
  // The arrays hold version-1 ids (train_sft.py --time-tokens collapses them) and the parity batch
  // runs the init on them: a version-2 init takes part as its version-1 part (versionOnePart).
  const loaded = await loadCheckpoint(o.init, { moments: false });
  const ckpt = loaded.tokenizer.hasTimePieces ? versionOnePart(loaded) : loaded;
  // Another version-1 vocabulary: loading with the default tokenizer refuses it, naming the difference.
  if (ckpt.tokenizer.hash !== tokenizer.hash) await loadCheckpoint(o.init, { tokenizer, moments: false });
  const full = await readSuite(o.suiteDir);
  const kept = new Set(full.videos.slice(0, o.videos).map((v) => v.file));
  const suite = { ...full, oracle: full.oracle.filter((r) => kept.has(r.video)) };
  const seed = o.seed ?? 9;
  const { sft, emphasis, frameTargets, curricula } = gpuRecipe(suite.videos, tokenizer, o);
  const sftOptions = { ...sft, tokenizer, contextLength: ckpt.config.contextLength };
  const regular = sftExamples(suite, sftOptions).examples;
  if (regular.length === 0) throw new Error(`exportGpuDataset: no SFT example in ${o.suiteDir}`);
  const drill = o.whenDrill ? whenDrillExamples(full.manifest.config, o.whenDrill, sftOptions) : [];
  const letters = o.letterDrill ? letterDrillExamples(full.manifest.config, o.letterDrill, sftOptions) : [];
  const drilled: Drilled[] = [...drill, ...letters];
  const examples = [...regular, ...drilled.map((d) => d.example)];
  const templates = [...new Set([...suite.questions.map((q) => q.template), ...drilled.map((d) => d.template)])].sort();
  const templateOfQuestion = new Map(suite.questions.map((q) => [q.id, q.template]));
  const templateOfRow = new Map(suite.oracle.map((r) => [r.id, templateOfQuestion.get(r.questionId)!]));
  const pieces = palettePieces(tokenizer);
  const digits = digitIds(tokenizer);
  const arrays = flatten(examples, regular.length, drilled, { pieces, digits, frameTargets }, (e, x) =>
    templates.indexOf(x >= regular.length ? drilled[x - regular.length]!.template : templateOfRow.get(e.rowId)!),
  );
  await mkdir(o.out, { recursive: true });
  const write = (name: string, a: ArrayBufferView) =>
    writeFile(join(o.out, name), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  await Promise.all([
    write("examples.i32", arrays.table),
    write("ids.i16", arrays.ids),
    write("loss.u8", arrays.loss),
    write("frame.i32", arrays.frame),
    write("ftarget.i16", arrays.ftarget),
  ]);
  await writeThumbnails(o, ckpt, arrays.frameRefs);

  // The parity batch: the trainer's own loss on its first batch of 4 (no permutation), from the
  // init weights. train_sft.py and parity_numpy.py recompute it before they do anything else.
  const parityRun = await trainSft({
    suite,
    frames: videoFrameSource(o.suiteDir, ckpt.config.thumbnail),
    tokenizer,
    modelConfig: ckpt.config,
    initialParameters: ckpt.params,
    sft,
    curricula,
    steps: 1,
    batchSize: Math.min(4, examples.length),
    lr: { kind: "constant", lr: 1e-9 },
    seed,
  });
  const m = parityRun.metrics[0]!;
  const index = new Map(examples.map((e, i) => [e.id, i]));
  const result: GpuExportResult = {
    examples: examples.length,
    drillExamples: drill.length,
    letterDrillExamples: letters.length,
    tokens: arrays.ids.length,
    frames: arrays.frameRefs.length,
    datasetHash: datasetHash(examples),
    parity: { examples: m.examples.map((id) => index.get(id)!), loss: m.loss },
  };
  const meta = {
    format: GPU_EXPORT_FORMAT,
    version: 1,
    suite: o.suiteDir,
    init: o.init,
    // A version-2 init: the parity batch ran its version-1 part; train_sft.py --init takes the whole
    // model (it checks parity on the same part, then trains all of it with --time-tokens).
    initTimePieces: loaded.tokenizer.hasTimePieces,
    sft,
    model: ckpt.config,
    vocabSize: tokenizer.size,
    pad: tokenizer.pad,
    frameId: tokenizer.frame,
    thumbnail: ckpt.config.thumbnail,
    templates,
    // Example i's id (the core's `examples` of a step): a batch of the core's can be trained again
    // here (train_sft.py --batches; bench/nano/trainer.ts gives both trainers the same batches).
    exampleIds: examples.map((e) => e.id),
    emphasisWeights: [...emphasisWeights(emphasis, tokenizer.size)],
    frameTargetWeight: frameTargets.weight,
    digits,
    // The ":" of an MM:SS time (d d ":" d d), for the trainer's time shift of `when` answers (nano_data.py).
    timeColon: singlePiece(tokenizer, ":"),
    palette: {
      groups: pieces.ids,
      articles: pieces.articles,
      vowelWords: PERMUTED_GROUPS.map((ws) => ws.map((w) => /^[aeiou]/.test(w))),
    },
    ...result,
  };
  await writeFile(join(o.out, "meta.json"), JSON.stringify(meta));
  return result;
}

/** The id of `text` when the tokenizer encodes it as one piece, else null. */
function singlePiece(tokenizer: Tokenizer, text: string): number | null {
  const ids = tokenizer.encode(text);
  return ids.length === 1 ? ids[0]! : null;
}

/**
 * The default recipe's training options that an export carries (`research/curricula/train.ts
 * --ks 4,8,16 --think-prefix --alias-video-paths --frame-targets 3 --emphasize-palette 2`, the
 * permmix stages of research/recipes); also what bench/nano/trainer.ts gives the core for the same
 * data. `curricula` are `emphasis` and `frameTargets` as the trainer takes them.
 */
export function gpuRecipe(
  videos: Parameters<typeof suiteFrameTargets>[0],
  tokenizer: Tokenizer,
  o: Pick<GpuExportOptions, "ks" | "seed" | "frameTargetWeight" | "paletteEmphasis"> = {},
) {
  const sft: Omit<SftOptions, "contextLength"> = {
    ks: o.ks ?? [4, 8, 16],
    thinkPrefix: true,
    aliasVideoPathsSeed: o.seed ?? 9,
  };
  const emphasis = { tokenIds: paletteTokenIds(tokenizer), weight: o.paletteEmphasis ?? 2 };
  const frameTargets = suiteFrameTargets(videos, tokenizer, o.frameTargetWeight ?? 3);
  return { sft, emphasis, frameTargets, curricula: [tokenEmphasis(emphasis), frameTargetsCurriculum(frameTargets)] };
}

/**
 * The main-agent `when` examples of `d.videos` planned, unrendered videos (the suite's `config` with
 * MM:SS answers and whenSearch "crops"), and their scene / order examples when the suite searches
 * scenes / order through crops too (see the top). Their ids start with "drill/".
 */
export function whenDrillExamples(
  config: SuiteConfig,
  d: { seed: number; videos: number },
  sft: Parameters<typeof sftExamples>[1],
): Drilled[] {
  const plan = planSuite({
    seed: d.seed,
    count: d.videos,
    config: { ...config, oracleStyle: { ...config.oracleStyle, whenAnswer: "mmss", whenSearch: "crops" } },
  });
  const drilled: readonly TemplateName[] = [
    "when",
    ...(config.oracleStyle.sceneSearch === "crops" ? (["scene_color", "scene_position"] as const) : []),
    ...(config.oracleStyle.orderSearch === "crops" ? (["order"] as const) : []),
  ];
  const templateOf = new Map(
    plan.questions.filter((q) => drilled.includes(q.template)).map((q) => [q.id, q.template as DrillTemplate]),
  );
  const rows = plan.oracle.filter((r) => templateOf.has(r.questionId));
  const templateOfRow = new Map(rows.map((r) => [r.id, templateOf.get(r.questionId)!]));
  return sftExamples({ oracle: rows }, { ...sft, subAgents: false }).examples.map((e) => ({
    example: { ...e, id: `drill/${e.id}` },
    template: templateOfRow.get(e.rowId)!,
    kind: 2 as const,
  }));
}

type SftExample = ReturnType<typeof sftExamples>["examples"][number];

/** The templates a kind-2 drill holds: `when`, the scene ones under sceneSearch "crops", `order` under orderSearch "crops". */
type DrillTemplate = "when" | "scene_color" | "scene_position" | "order";

/** A drill example: kind 2 (when, crops-searched scenes) trains its answer turn, kind 3 (letter) from `from`, its letter, on. */
export type Drilled =
  | { example: SftExample; template: DrillTemplate; kind: 2 }
  | { example: SftExample; template: TemplateName; kind: 3; from: number };

/**
 * The main-agent `scene_color` and `order` examples of `d.videos` planned, unrendered videos (the
 * suite's own `config`; see the top), each with the position of the letter its last turn's
 * ": option X" (or, with text-first options, " (X)") writes. Ids start with "letter/". An answer
 * turn without either lead is left out.
 */
export function letterDrillExamples(
  config: SuiteConfig,
  d: { seed: number; videos: number },
  sft: Parameters<typeof sftExamples>[1],
): Drilled[] {
  const plan = planSuite({ seed: d.seed, count: d.videos, config });
  const templateOf = new Map(
    plan.questions.filter((q) => q.template === "scene_color" || q.template === "order").map((q) => [q.id, q.template]),
  );
  const rows = plan.oracle.filter((r) => templateOf.has(r.questionId));
  const templateOfRow = new Map(rows.map((r) => [r.id, templateOf.get(r.questionId)!]));
  const tokenizer = sft.tokenizer ?? defaultTokenizer();
  // ": option C" (letter-first options) or " (C)" (suite optionStyle "text-first").
  const leads = [" option", " ("].map((text) => {
    const id = singlePiece(tokenizer, text);
    if (id === null) throw new Error(`letterDrillExamples: "${text}" is not one piece of the tokenizer`);
    return id;
  });
  const out: Drilled[] = [];
  for (const e of sftExamples({ oracle: rows }, { ...sft, subAgents: false }).examples) {
    const lead = Math.max(...leads.map((id) => e.ids.lastIndexOf(id)));
    if (lead < lastTurnStart(e.lossMask) || lead + 1 >= e.ids.length) continue;
    out.push({
      example: { ...e, id: `letter/${e.id}` },
      template: templateOfRow.get(e.rowId)!,
      kind: 3,
      from: lead + 1,
    });
  }
  return out;
}

/**
 * The examples as flat arrays, and the distinct frames they use (in first-use order). Examples from
 * `drillFrom` on are `drilled` (kind 2 or 3): each frame slot a stand-in frame of the earlier
 * examples (chosen by a hash of its reference), no frame targets.
 */
function flatten(
  examples: readonly SftExample[],
  drillFrom: number,
  drilled: readonly Drilled[],
  {
    pieces,
    digits,
    frameTargets,
  }: {
    pieces: ReturnType<typeof palettePieces>;
    digits: number[];
    frameTargets: ReturnType<typeof suiteFrameTargets>;
  },
  templateIndex: (e: SftExample, x: number) => number,
) {
  const n = examples.reduce((s, e) => s + e.ids.length, 0);
  const table = new Int32Array(examples.length * 8);
  const ids = new Int16Array(n);
  const loss = new Uint8Array(n);
  const frame = new Int32Array(n).fill(-1);
  const ftarget = new Int16Array(n).fill(-1);
  const frameIds = new Map<string, number>();
  const frameRefs: FrameRef[] = [];
  let offset = 0;
  examples.forEach((e, x) => {
    const len = e.ids.length;
    const isDrill = x >= drillFrom;
    const d = isDrill ? drilled[x - drillFrom]! : null;
    const turn = e.kind === "main" ? lastTurnStart(e.lossMask) : NEVER;
    // A letter drill trains from its letter on, so each augmentation's "from" is that letter too.
    const answerFrom = d?.kind === 3 ? d.from : turn;
    const paletteFrom = e.kind === "main" && permutable(e, turn, pieces) ? answerFrom : NEVER;
    const digitFrom = e.kind === "main" && digitPermutable(e, turn, digits) ? answerFrom : NEVER;
    const kind = d ? d.kind : e.kind === "main" ? 0 : 1;
    table.set([offset, len, kind, answerFrom, paletteFrom, digitFrom, templateIndex(e, x), 0], x * 8);
    ids.set(e.ids, offset);
    loss.set(e.lossMask, offset);
    for (let i = 0; i < len; i++) {
      const f = e.frameIndex[i]!;
      if (f < 0) continue;
      const ref = e.frames[f]!;
      if (isDrill) {
        frame[offset + i] = standIn(ref, frameRefs.length);
        continue;
      }
      const key = `${ref.video}\0${ref.t}`;
      let g = frameIds.get(key);
      if (g === undefined) {
        g = frameRefs.length;
        frameIds.set(key, g);
        frameRefs.push(ref);
      }
      frame[offset + i] = g;
      // As the trainer's placeFrameTargets: the slot and the positions after it, where nothing
      // else is trained and no other frame sits.
      frameTargets.tokensOf(ref).forEach((id, j) => {
        const pos = i + j;
        if (pos >= len - 1 || e.lossMask[pos + 1] || (j > 0 && e.frameIndex[pos]! >= 0)) return;
        ftarget[offset + pos] = id;
      });
    }
    offset += len;
  });
  return { table, ids, loss, frame, ftarget, frameRefs };
}

/** A when drill's stand-in for `ref`: one of the `count` frames of the export, by an FNV-1a hash of the reference. */
function standIn(ref: FrameRef, count: number): number {
  let h = 0x811c9dc5;
  for (const c of `${ref.video}\0${ref.t}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h % count;
}

/**
 * A version-2 checkpoint without its time pieces: the first `timeOffset` rows of `wte`, the
 * version-1 tokenizer of the same pieces. Its logits over version-1 ids are the full model's
 * restricted to them; train_sft.py's parity check uses the same part of the same file.
 */
export function versionOnePart(ckpt: Checkpoint): Checkpoint {
  const V = ckpt.tokenizer.timeOffset;
  const wte = ckpt.params.get("wte");
  if (!wte || wte.dtype !== "F32") throw new Error("versionOnePart: the checkpoint has no F32 wte");
  const C = wte.shape[1]!;
  const params = new Map(ckpt.params);
  params.set("wte", { dtype: "F32", shape: [V, C], data: wte.data.slice(0, V * C) });
  const tokenizer = new Tokenizer(ckpt.tokenizer.pieces, TOKENIZER_VERSION);
  return { ...ckpt, tokenizer, config: { ...ckpt.config, vocabSize: V }, params };
}

/** frames.u8.gz: each frame's RGB24 thumbnail, decoded by the trainer's own frame source. */
async function writeThumbnails(o: GpuExportOptions, ckpt: Checkpoint, refs: readonly FrameRef[]) {
  const source = videoFrameSource(o.suiteDir, ckpt.config.thumbnail);
  const gz = createGzip({ level: 6 });
  const done = pipeline(gz, createWriteStream(join(o.out, "frames.u8.gz")));
  const t0 = Date.now();
  for (let i = 0; i < refs.length; i += 2000) {
    const thumbs = await source.thumbnails(refs.slice(i, i + 2000));
    for (const t of thumbs) if (!gz.write(t)) await new Promise((r) => gz.once("drain", r));
    o.onProgress?.(
      `frames ${Math.min(i + 2000, refs.length)}/${refs.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
  gz.end();
  await done;
}

export interface GpuImportOptions {
  /** model.safetensors written by train_sft.py (the core's layout, F32). */
  model: string;
  /** The checkpoint it was trained from: config and tokenizer. */
  init: string;
  out: string;
  step: number;
  seed: number;
}

/**
 * A checkpoint (no optimizer state) from a GPU-trained model.safetensors; saveCheckpoint checks
 * every tensor against the init's layout, so a file of another config is refused by name. A model
 * trained with `--time-tokens` (its `wte` has TIME_PIECE_COUNT more rows than the init's
 * vocabulary) becomes a checkpoint of the init's tokenizer with time pieces (version 2), whose ids
 * are the trainer's `V + 60·M + S`.
 */
export async function importGpuModel(o: GpuImportOptions): Promise<void> {
  const init = await loadCheckpoint(o.init, { moments: false });
  const file = await readSafetensorsFile(o.model);
  const dataset = file.metadata.dataset;
  if (!dataset || !/^[0-9a-f]{64}$/.test(dataset)) {
    throw new Error(`${o.model}: no dataset fingerprint in its metadata (was it written by train_sft.py?)`);
  }
  const rows = file.tensors.get("wte")?.shape[0];
  const grown = rows === init.tokenizer.size + TIME_PIECE_COUNT && !init.tokenizer.hasTimePieces;
  const tokenizer = grown ? init.tokenizer.withTimePieces() : init.tokenizer;
  await saveCheckpoint(
    o.out,
    {
      config: grown ? { ...init.config, vocabSize: tokenizer.size } : init.config,
      tokenizer,
      params: file.tensors,
      training: {
        step: o.step,
        seed: o.seed,
        rng: init.training.rng,
        dataCursor: { epoch: 0, position: 0, datasetHash: dataset },
        optimizer: null,
      },
      moments: null,
    },
    { overwrite: true },
  );
}
