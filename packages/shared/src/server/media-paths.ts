// Where video files may come from. A registered path must resolve (after following every
// symlink) to a regular file inside one of the configured media roots, so neither `..` nor a
// symlink can reach the rest of the server's disk.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ValidationError } from "../errors";

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Accepts an absolute path or a file:// URI; returns the real path of the file (or directory). */
export async function confineToMediaRoots(
  input: string,
  roots: readonly string[],
  kind: "file" | "directory" = "file",
): Promise<string> {
  if (roots.length === 0) {
    throw new ValidationError("Registering videos by path is disabled: the server has no MEDIA_ROOTS configured");
  }
  let candidate = input.trim();
  if (candidate.startsWith("file:")) {
    try {
      candidate = fileURLToPath(candidate);
    } catch {
      throw new ValidationError(`Not a valid file:// URI: ${input}`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(candidate)) {
    throw new ValidationError("Only server paths and file:// URIs can be registered");
  }
  if (!path.isAbsolute(candidate)) throw new ValidationError("The path must be absolute");
  if (candidate.includes("\0")) throw new ValidationError("The path contains a NUL byte");

  const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => null)));
  // The lexical check first gives a clear message for `..` tricks; the real-path check below
  // is what actually protects (symlinks, bind mounts of the same inode do not matter).
  const lexical = path.resolve(candidate);
  if (!roots.some((r) => isInside(lexical, path.resolve(r)))) {
    throw new ValidationError(`${input} is outside the media roots (${roots.join(", ")})`);
  }
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch {
    throw new ValidationError(`No file at ${input}`);
  }
  if (!realRoots.some((r) => r !== null && isInside(real, r))) {
    throw new ValidationError(`${input} leads outside the media roots through a symbolic link`);
  }
  const stat = await fs.stat(real);
  if (kind === "file" && !stat.isFile()) throw new ValidationError(`${input} is not a regular file`);
  if (kind === "directory" && !stat.isDirectory()) throw new ValidationError(`${input} is not a directory`);
  return real;
}
