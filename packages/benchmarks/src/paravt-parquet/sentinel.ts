// Sentinel paths of the ParaVT parquet files (SPEC §6 "Sentinel paths"): the reference trainer's
// parquet rows name their videos relative to virtual roots (`longvt_source/…`, `museg/charades/…`,
// `museg/et_instruct_164k/…`, `selfqa/…`). Materializing prefixes the local extraction root of
// the path's root and adds `file://`; missing files are reported per root; any other shape is left
// untouched and reported as an "unknown shape", never rewritten.
//
// Pure: no file system access. Existence is asked of a callback so the same tally serves the
// parquet writer (which stats every distinct file first) and the dataset loader.

import { isAbsolute, join, normalize } from "node:path";

/** The virtual roots of SPEC §6 (none is a prefix of another, so the order does not matter). */
export const SENTINEL_ROOTS = ["longvt_source", "museg/charades", "museg/et_instruct_164k", "selfqa"] as const;
export type SentinelRoot = (typeof SENTINEL_ROOTS)[number];

export function isSentinelRoot(v: string): v is SentinelRoot {
  return (SENTINEL_ROOTS as readonly string[]).includes(v);
}

export type PathShape =
  /** `<root>/<rest>`: `rest` is relative to the root, has no `.` / `..` segment and is not empty. */
  | { kind: "sentinel"; root: SentinelRoot; rest: string }
  /** Already local: an absolute path, or a `file://` URI (its `path` is what follows the scheme). */
  | { kind: "local"; form: "absolute" | "file-uri"; path: string }
  | { kind: "unknown"; why: string };

const FILE_SCHEME = "file://";

/**
 * What a path value of a parquet row is. The string is taken exactly as stored (no trimming, no
 * case folding): only a value this function calls "sentinel" is ever rewritten.
 */
export function classifyPath(value: string): PathShape {
  if (value === "") return { kind: "unknown", why: "empty path" };
  if (value.includes("\0")) return { kind: "unknown", why: "contains a NUL character" };
  if (value.startsWith(FILE_SCHEME)) {
    // The Python readers of these files (qwen-vl-utils) drop the scheme as text rather than
    // URL-decoding it, and the materializer writes it the same way, so no percent-decoding here.
    const path = value.slice(FILE_SCHEME.length);
    return isAbsolute(path)
      ? { kind: "local", form: "file-uri", path }
      : { kind: "unknown", why: "file:// URI without an absolute path" };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { kind: "unknown", why: "a URL, not a file path" };
  if (isAbsolute(value)) return { kind: "local", form: "absolute", path: value };
  for (const root of SENTINEL_ROOTS) {
    if (!value.startsWith(`${root}/`)) continue;
    const rest = value.slice(root.length + 1);
    const segments = rest.split("/");
    if (rest === "" || segments.every((s) => s === "")) return { kind: "unknown", why: `no file after ${root}/` };
    // A `..` segment could climb out of the extraction root; such a path is not rewritten.
    if (segments.some((s) => s === ".." || s === ".")) {
      return { kind: "unknown", why: `"." or ".." segment after ${root}/` };
    }
    if (rest.includes("\\")) return { kind: "unknown", why: "backslash in the path" };
    return { kind: "sentinel", root, rest };
  }
  return { kind: "unknown", why: `not under ${SENTINEL_ROOTS.map((r) => `${r}/`).join(", ")}` };
}

/**
 * Where each root lives on this machine. `mediaRoot` is the one extraction root holding the
 * `longvt_source/`, `museg/…`, `selfqa/` folders; `roots` maps a root to its own folder (the
 * folder that IS `longvt_source/`) and wins over `mediaRoot` for that root. Both absolute.
 */
export interface RootDirsInput {
  mediaRoot?: string | undefined;
  roots?: Partial<Record<SentinelRoot, string>> | undefined;
}

export type RootDirs = Readonly<Record<SentinelRoot, string | null>>;

export function rootDirs(input: RootDirsInput): RootDirs {
  if (input.mediaRoot !== undefined && !isAbsolute(input.mediaRoot)) {
    throw new Error(`the media root must be absolute: ${input.mediaRoot}`);
  }
  const out = {} as Record<SentinelRoot, string | null>;
  for (const root of SENTINEL_ROOTS) {
    const own = input.roots?.[root];
    if (own !== undefined && !isAbsolute(own)) throw new Error(`the directory of ${root} must be absolute: ${own}`);
    out[root] = own !== undefined ? normalize(own) : input.mediaRoot !== undefined ? join(input.mediaRoot, root) : null;
  }
  return out;
}

/** The local file a sentinel path names, or null when its root has no directory. */
export function localFileOf(shape: Extract<PathShape, { kind: "sentinel" }>, dirs: RootDirs): string | null {
  const dir = dirs[shape.root];
  return dir === null ? null : join(dir, shape.rest);
}

/** The materialized form written back into the rows: `file://` + the absolute path, unencoded. */
export function fileUri(abs: string): string {
  return `${FILE_SCHEME}${abs}`;
}

export const EXAMPLES_KEPT = 5;

export interface RootReport {
  root: SentinelRoot;
  /** The local directory of this root, or null when none was given (its paths stay as they are). */
  dir: string | null;
  /** Path values under this root (a video named by two rows counts twice). */
  references: number;
  /** Values rewritten to `file://…` (0 when `dir` is null). */
  materialized: number;
  /** Distinct files under this root. */
  files: number;
  /** Distinct files not found under `dir`. */
  missing: number;
  /** The first missing files, as the parquet names them. */
  missingExamples: string[];
}

export interface MaterializeReport {
  rows: number;
  /** Every path value seen (all roots + unknown shapes). */
  references: number;
  materialized: number;
  /** One entry per SPEC §6 root, in SENTINEL_ROOTS order, zeros included. */
  roots: RootReport[];
  /** Values that are not a sentinel path (absolute paths and file:// URIs included): left untouched. */
  unknownShape: { references: number; examples: { path: string; why: string }[] };
}

/**
 * Counts the path values of a file as they are met. `reference` returns the materialized value of
 * a sentinel path whose root has a directory, else null (the value stays as it is).
 */
export class PathTally {
  private rows = 0;
  private readonly perRoot = new Map<SentinelRoot, RootReport & { seen: Set<string> }>();
  private readonly unknown = { references: 0, examples: [] as { path: string; why: string }[] };
  private readonly unknownSeen = new Set<string>();

  constructor(readonly dirs: RootDirs) {
    for (const root of SENTINEL_ROOTS) {
      this.perRoot.set(root, {
        root,
        dir: dirs[root],
        references: 0,
        materialized: 0,
        files: 0,
        missing: 0,
        missingExamples: [],
        seen: new Set(),
      });
    }
  }

  row(): void {
    this.rows++;
  }

  /**
   * One path value. `exists` answers for the local file of a sentinel path (called at most once
   * per distinct file by this tally).
   */
  reference(value: string, exists: (abs: string) => boolean): { shape: PathShape; materialized: string | null } {
    const shape = classifyPath(value);
    if (shape.kind !== "sentinel") {
      this.unknown.references++;
      const why = shape.kind === "local" ? `already local (${shape.form})` : shape.why;
      if (this.unknown.examples.length < EXAMPLES_KEPT && !this.unknownSeen.has(value)) {
        this.unknownSeen.add(value);
        this.unknown.examples.push({ path: value, why });
      }
      return { shape, materialized: null };
    }
    const r = this.perRoot.get(shape.root)!;
    r.references++;
    const abs = localFileOf(shape, this.dirs);
    if (!r.seen.has(value)) {
      r.seen.add(value);
      r.files++;
      if (abs !== null && !exists(abs)) {
        r.missing++;
        if (r.missingExamples.length < EXAMPLES_KEPT) r.missingExamples.push(value);
      }
    }
    if (abs === null) return { shape, materialized: null };
    r.materialized++;
    return { shape, materialized: fileUri(abs) };
  }

  report(): MaterializeReport {
    const roots = SENTINEL_ROOTS.map((root) => {
      const { seen: _seen, ...r } = this.perRoot.get(root)!;
      return { ...r, missingExamples: [...r.missingExamples] };
    });
    const materialized = roots.reduce((a, r) => a + r.materialized, 0);
    return {
      rows: this.rows,
      references: roots.reduce((a, r) => a + r.references, 0) + this.unknown.references,
      materialized,
      roots,
      unknownShape: { references: this.unknown.references, examples: [...this.unknown.examples] },
    };
  }
}

/** One line per root with paths (and one for unknown shapes), for logs and import warnings. */
export function reportLines(report: MaterializeReport): string[] {
  const lines: string[] = [];
  for (const r of report.roots) {
    if (r.references === 0) continue;
    if (r.dir === null) {
      lines.push(`${r.root}: ${r.references} path(s) left as they are (no directory given for this root)`);
    } else if (r.missing > 0) {
      lines.push(
        `${r.root}: ${r.missing} of ${r.files} file(s) missing under ${r.dir} (first: ${r.missingExamples.join(", ")})`,
      );
    }
  }
  if (report.unknownShape.references > 0) {
    const ex = report.unknownShape.examples.map((e) => `${e.path} (${e.why})`).join(", ");
    lines.push(`unknown shape: ${report.unknownShape.references} path(s) left as they are (e.g. ${ex})`);
  }
  return lines;
}
