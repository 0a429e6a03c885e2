// Where a NANO_CHECKPOINT model's directory may be (issue 37 item 6). A model row holds a server
// path that the workers open; without a policy, a user of one project could register (and
// evaluate) another project's private checkpoint, and the errors told whether any path existed.
// Allowed: the checkpoints of the project's own runs (`DATA_DIR/checkpoints/<run>`, where
// train.sft / train.rl write), the checkpoints committed with @paravt/nano, and MEDIA_ROOTS.
// Checked when a model is created and again when an engine opens it (a row written before this
// check, or a symlink changed since, is refused then).
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ValidationError } from "../errors";
import { db } from "./db";
import { serverEnv } from "./env";

const ALLOWED =
  "a checkpoint directory must be inside this project's own training checkpoints, the checkpoints committed with nano, or the server's media roots";

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

// The repository root: the directory holding turbo.json above the working directory (the same
// walk as env.ts). Not import.meta.url: Next.js bundles this module elsewhere.
let nanoCheckpoints: string | undefined;
/** `packages/nano/checkpoints` of this repository (the committed nano checkpoints; train.rl's default is `default`). */
export async function committedCheckpointsDir(): Promise<string> {
  if (nanoCheckpoints !== undefined) return nanoCheckpoints;
  let dir = process.cwd();
  for (;;) {
    const found = await fs.access(path.join(dir, "turbo.json")).then(
      () => true,
      () => false,
    );
    if (found) break;
    const parent = path.dirname(dir);
    if (parent === dir) {
      dir = process.cwd();
      break;
    }
    dir = parent;
  }
  nanoCheckpoints = path.join(dir, "packages", "nano", "checkpoints");
  return nanoCheckpoints;
}

/**
 * The allowed root that contains `lexical` (no file system access: whether a path exists outside
 * the roots is never told). A path under DATA_DIR/checkpoints counts only below a run of this
 * project; another project's run and an unknown id get the same answer.
 */
async function allowedRoot(projectId: string, lexical: string): Promise<string | null> {
  const runsDir = path.join(serverEnv().DATA_DIR, "checkpoints");
  if (isInside(lexical, runsDir)) {
    const runId = path.relative(runsDir, lexical).split(path.sep)[0];
    if (!runId) return null;
    const run = await db().run.findFirst({ where: { id: runId, projectId }, select: { id: true } });
    return run ? path.join(runsDir, runId) : null;
  }
  const committed = await committedCheckpointsDir();
  if (isInside(lexical, committed)) return committed;
  return (
    serverEnv()
      .MEDIA_ROOTS.map((r) => path.resolve(r))
      .find((r) => isInside(lexical, r)) ?? null
  );
}

/**
 * Returns the real path of the checkpoint directory `input` (absolute path or file:// URI) when
 * project `projectId` may use it; otherwise a ValidationError whose message names only `input`.
 * Inside an allowed root the answer may say that nothing is there; outside, every path gets the
 * same refusal, existing or not.
 */
export async function confineCheckpoint(projectId: string, input: string): Promise<string> {
  let candidate = input.trim();
  if (candidate.includes("\0")) throw new ValidationError("The checkpoint path contains a NUL byte");
  if (candidate.startsWith("file:")) {
    try {
      candidate = fileURLToPath(candidate);
    } catch {
      throw new ValidationError(`Not a valid file:// URI: ${input}`);
    }
  }
  if (!path.isAbsolute(candidate)) throw new ValidationError("The checkpoint directory must be an absolute path");
  const lexical = path.resolve(candidate);
  const root = await allowedRoot(projectId, lexical);
  const refused = new ValidationError(`${input} is not allowed: ${ALLOWED}`);
  if (!root) throw refused;
  // The real path decides (symlinks, `..` after a link): it must stay inside the same root.
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([fs.realpath(lexical), fs.realpath(root)]);
  } catch {
    throw new ValidationError(`No checkpoint directory at ${input}`);
  }
  if (!isInside(real, realRoot)) throw refused;
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) throw new ValidationError(`${input} is not a directory (a checkpoint is a directory)`);
  return real;
}
