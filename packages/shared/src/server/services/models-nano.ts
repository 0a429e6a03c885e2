// What a NANO_CHECKPOINT model's directory says of its weights: the provenance keys of its
// config.json (trained Ks, measured quality, lineage; packages/nano/src/checkpoint.ts) and which
// weights they are (sha256 of model.safetensors, whose first 8 digits are the model's short id).
// Read when models are listed, not stored at registration: train.sft, train.rl and the demo seed
// register checkpoints too, and rows stored before these keys existed get them without a backfill.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { checkpointProvenance, type NanoCheckpointInfo } from "../../contracts/models";
import { ValidationError } from "../../errors";
import { confineCheckpoint } from "../checkpoint-paths";

/** What packages/nano/src/checkpoint.ts writes (CHECKPOINT_FORMAT, CONFIG_FILE, MODEL_FILE). */
const CHECKPOINT_FORMAT = "paravt-nano-checkpoint";
const CONFIG_FILE = "config.json";
const MODEL_FILE = "model.safetensors";
/** The committed default's config.json is ~25 KB; anything this large is not one. */
const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

const UNREAD = { shortId: null, modelHash: null, trainedKs: null, quality: null, lineage: null } as const;
const unreadable = (problem: string): NanoCheckpointInfo => ({ ...UNREAD, problem });

// The Models page lists every model on each visit: hash each file once per process, again only
// when it is rewritten (size or mtime change). Bounded, oldest out.
const hashes = new Map<string, { stamp: string; hash: string }>();
const HASHES_KEPT = 256;

async function fileSha256(file: string): Promise<string> {
  const st = await fs.stat(file);
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = hashes.get(file);
  if (hit?.stamp === stamp) return hit.hash;
  const hash = await new Promise<string>((resolve, reject) => {
    const h = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => h.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(h.digest("hex")));
  });
  hashes.delete(file);
  if (hashes.size >= HASHES_KEPT) hashes.delete(hashes.keys().next().value!);
  hashes.set(file, { stamp, hash });
  return hash;
}

async function readConfig(dir: string): Promise<unknown> {
  const file = path.join(dir, CONFIG_FILE);
  if ((await fs.stat(file)).size > CONFIG_MAX_BYTES) throw new Error("too large");
  return JSON.parse(await fs.readFile(file, "utf8"));
}

/**
 * The checkpoint of a NANO_CHECKPOINT model of project `projectId` (its stored `config.checkpoint`).
 * The directory is confined as on registration (checkpoint-paths.ts), so a row pointing elsewhere
 * reads nothing; what cannot be read is said in `problem`, never thrown.
 */
export async function readNanoCheckpoint(projectId: string, checkpoint: unknown): Promise<NanoCheckpointInfo> {
  if (typeof checkpoint !== "string") return unreadable("The model names no checkpoint directory");
  let dir: string;
  try {
    dir = await confineCheckpoint(projectId, checkpoint);
  } catch (e) {
    if (e instanceof ValidationError) return unreadable(e.message);
    throw e;
  }
  let raw: unknown;
  try {
    raw = await readConfig(dir);
  } catch {
    return unreadable(`${checkpoint} has no readable ${CONFIG_FILE}`);
  }
  if ((raw as { format?: unknown } | null)?.format !== CHECKPOINT_FORMAT) {
    return unreadable(`${checkpoint}/${CONFIG_FILE} is not a ParaVT-nano checkpoint's`);
  }
  const parsed = checkpointProvenance.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unreadable(`${checkpoint}/${CONFIG_FILE}: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  let modelHash: string;
  try {
    modelHash = await fileSha256(path.join(dir, MODEL_FILE));
  } catch {
    return unreadable(`${checkpoint} has no readable ${MODEL_FILE}`);
  }
  return {
    shortId: modelHash.slice(0, 8),
    modelHash,
    trainedKs: parsed.data.trainedKs ?? null,
    quality: parsed.data.quality ?? null,
    lineage: parsed.data.lineage ?? null,
    problem: null,
  };
}
