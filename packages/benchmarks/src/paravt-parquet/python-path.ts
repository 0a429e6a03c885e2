// The two pathlib calls of the reference materializer (`paravt/data/materialize.py`,
// `materialize_path`): `full = (root / raw).resolve()` and `full.exists()`. `Path.resolve()`
// (strict=False) is `os.path.realpath`: symbolic links are followed component by component, `..`
// applies to the path resolved so far (after a link, to the link's target), components that do not
// exist are kept as written, a link loop stops resolution there. `Path.exists()` follows links and
// is true for directories too. Reproduced here with synchronous lstat / readlink / stat so the
// rewritten value is the reference's string exactly (posixpath._joinrealpath, CPython 3.10-3.12).

import { lstatSync, readlinkSync, statSync } from "node:fs";
import { isAbsolute, posix } from "node:path";

function split(path: string): [head: string, tail: string] {
  // posixpath.split: the head keeps no trailing slash unless it is all slashes.
  const i = path.lastIndexOf("/") + 1;
  let head = path.slice(0, i);
  const tail = path.slice(i);
  if (head && head !== "/".repeat(head.length)) head = head.replace(/\/+$/, "");
  return [head, tail];
}

function join(a: string, b: string): string {
  if (b.startsWith("/")) return b;
  if (a === "" || a.endsWith("/")) return a + b;
  return `${a}/${b}`;
}

/** Memo of lstat results (is it a link, and its target) for one run over many paths. */
export class RealpathCache {
  readonly links = new Map<string, string | null>();

  /** The link target of `p`, or null when `p` is not a symbolic link (or cannot be lstat'ed). */
  linkTarget(p: string): string | null {
    let t = this.links.get(p);
    if (t === undefined) {
      try {
        t = lstatSync(p).isSymbolicLink() ? readlinkSync(p) : null;
      } catch {
        t = null; // OSError in non-strict mode: not a link, the component is kept
      }
      this.links.set(p, t);
    }
    return t;
  }
}

/** `os.path.realpath(path)` for an absolute path (strict=False). */
export function pythonRealpath(path: string, cache = new RealpathCache()): string {
  if (!isAbsolute(path)) throw new Error(`pythonRealpath needs an absolute path: ${path}`);
  const seen = new Map<string, string | null>();
  const walk = (start: string, rest: string): [string, boolean] => {
    let p = start;
    if (rest.startsWith("/")) {
      rest = rest.slice(1);
      p = "/";
    }
    while (rest) {
      const cut = rest.indexOf("/");
      const name = cut < 0 ? rest : rest.slice(0, cut);
      rest = cut < 0 ? "" : rest.slice(cut + 1);
      if (!name || name === ".") continue;
      if (name === "..") {
        if (p) {
          const [head, tail] = split(p);
          p = tail === ".." ? join(join(head, ".."), "..") : head;
        } else p = "..";
        continue;
      }
      const next = join(p, name);
      const target = cache.linkTarget(next);
      if (target === null) {
        p = next;
        continue;
      }
      if (seen.has(next)) {
        const resolved = seen.get(next)!;
        if (resolved !== null) {
          p = resolved;
          continue;
        }
        return [join(next, rest), false]; // a symlink loop: stop here, as realpath does
      }
      seen.set(next, null);
      const [q, ok] = walk(p, target);
      if (!ok) return [join(q, rest), false];
      p = q;
      seen.set(next, p);
    }
    return [p, true];
  };
  // realpath ends with abspath(), i.e. normpath (only a stopped link loop leaves "." / ".." behind).
  const out = posix.normalize(walk("", path)[0]);
  return out.length > 1 ? out.replace(/\/+$/, "") : out;
}

export class SymlinkLoopError extends Error {
  override name = "SymlinkLoopError";
}

/**
 * `Path.resolve()` (CPython 3.10-3.12, strict=False): realpath, then a stat of the result that
 * turns ELOOP into `RuntimeError("Symlink loop from …")`; the reference stops there, we throw
 * SymlinkLoopError.
 */
export function pythonResolve(path: string, cache = new RealpathCache()): string {
  const out = pythonRealpath(path, cache);
  try {
    statSync(out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw new SymlinkLoopError(`symlink loop from ${out}`);
  }
  return out;
}

export class PathExistsError extends Error {
  override name = "PathExistsError";
}

/**
 * `Path.exists()`: stat (following links) succeeds. pathlib ignores ENOENT, ENOTDIR, EBADF and
 * ELOOP (false) and raises any other error (e.g. EACCES), as this does.
 */
export function pythonExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EBADF" || code === "ELOOP") return false;
    throw new PathExistsError(`cannot stat ${path} (${code ?? String(e)})`);
  }
}
