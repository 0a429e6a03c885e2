// Sentinel paths of the ParaVT parquet files (SPEC §6 "Sentinel paths"): the reference trainer's
// parquet rows name their videos relative to virtual roots (`longvt_source/…`, `museg/charades/…`,
// `museg/et_instruct_164k/…`, `selfqa/…`). Materializing prefixes the local extraction root and
// adds `file://`; missing files are reported per root; any other shape is left untouched.
//
// The rule is the reference's (`paravt/data/materialize.py`, `materialize_path`): a leading
// `file://` is dropped first (so `file://longvt_source/…` is a sentinel path too), then the value
// is a sentinel path iff it starts with one of the sentinel prefixes; nothing else is looked at
// (`..` segments, backslashes and a bare `longvt_source/` are sentinel paths for it as well). The
// prefixes come from `paravt.data.sanitize.SENTINEL_RULES`, which the public repository does not
// ship; they are the four roots of its `paravt/data/README.md` table (and SPEC §6), each with its
// trailing slash.
//
// Pure: no file system access. Where a sentinel path points and whether that exists are asked of
// callbacks, so the parquet writer (Python's `resolve()` / `exists()`, python-path.ts) and the
// dataset loader (lexical paths checked against the media root) share the classification and the
// report.

import { isAbsolute, join, normalize } from "node:path";

/** The virtual roots of SPEC §6 (none is a prefix of another, so the order does not matter). */
export const SENTINEL_ROOTS = ["longvt_source", "museg/charades", "museg/et_instruct_164k", "selfqa"] as const;
export type SentinelRoot = (typeof SENTINEL_ROOTS)[number];

export function isSentinelRoot(v: string): v is SentinelRoot {
  return (SENTINEL_ROOTS as readonly string[]).includes(v);
}

export type PathShape =
  /**
   * `<root>/<rest>` (after an optional `file://`), as the reference matches it: `raw` is the value
   * without the scheme, `rest` what follows `<root>/` (may be empty or hold `..`).
   */
  | { kind: "sentinel"; root: SentinelRoot; rest: string; raw: string; form: "bare" | "file-uri" }
  /** Already local: an absolute path, or a `file://` URI of one (`path` is what follows the scheme). */
  | { kind: "local"; form: "absolute" | "file-uri"; path: string }
  | { kind: "unknown"; why: string };

const FILE_SCHEME = "file://";

/**
 * What a path value of a parquet row is. The string is taken exactly as stored (no trimming, no
 * case folding, no percent-decoding: the reference strips `file://` as text): only a value this
 * function calls "sentinel" is ever rewritten.
 */
export function classifyPath(value: string): PathShape {
  if (value === "") return { kind: "unknown", why: "empty path" };
  if (value.includes("\0")) return { kind: "unknown", why: "contains a NUL character" };
  const uri = value.startsWith(FILE_SCHEME);
  const raw = uri ? value.slice(FILE_SCHEME.length) : value;
  for (const root of SENTINEL_ROOTS) {
    if (raw.startsWith(`${root}/`)) {
      return { kind: "sentinel", root, rest: raw.slice(root.length + 1), raw, form: uri ? "file-uri" : "bare" };
    }
  }
  if (raw.startsWith("/")) return { kind: "local", form: uri ? "file-uri" : "absolute", path: raw };
  if (uri) return { kind: "unknown", why: "file:// URI of a relative path that is not under a sentinel root" };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { kind: "unknown", why: "a URL, not a file path" };
  return { kind: "unknown", why: `not under ${SENTINEL_ROOTS.map((r) => `${r}/`).join(", ")}` };
}

/**
 * The reference's missing-file bucket of a sentinel path: its first segment
 * (`raw.split("/", 1)[0]`), so both museg roots count under `museg`.
 */
export function bucketOf(shape: Extract<PathShape, { kind: "sentinel" }>): string {
  return shape.raw.split("/", 1)[0]!;
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

/**
 * The local file a sentinel path names, lexically (`..` applied as text, links not followed), or
 * null when its root has no directory. The loader uses this; the parquet writer uses Python's
 * `resolve()` (materialize.ts).
 */
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
  /**
   * The reference's own report of the file (`materialize_report.json`: missing references per
   * bucket, the first path segment: `longvt_source`, `museg`, `selfqa`; a reference counts each
   * time it occurs). Empty when nothing is missing.
   */
  missingByBucket: Record<string, number>;
  /** Values that are not a sentinel path (absolute paths and file:// URIs included): left untouched. */
  unknownShape: { references: number; examples: { path: string; why: string }[] };
  /**
   * Values the reference materializer stops on (a string under `messages` that is not JSON, a
   * non-string url or video): left untouched here, counted, and the first few named.
   */
  unreadable: { count: number; examples: { at: string; why: string }[] };
}

type SentinelShape = Extract<PathShape, { kind: "sentinel" }>;

/**
 * Counts the path values of a file as they are met. `locate` says where a sentinel path points
 * (null: its root has no directory, the value stays); `reference` returns the materialized value
 * of a located sentinel path, else null (the value stays as it is).
 */
export class PathTally {
  private rows = 0;
  private readonly perRoot = new Map<SentinelRoot, RootReport & { seen: Set<string> }>();
  private readonly unknown = { references: 0, examples: [] as { path: string; why: string }[] };
  private readonly unknownSeen = new Set<string>();
  private readonly buckets: Record<string, number> = {};
  private readonly unreadableValues = { count: 0, examples: [] as { at: string; why: string }[] };

  constructor(
    readonly dirs: RootDirs,
    private readonly locate: (shape: SentinelShape) => string | null = (shape) => localFileOf(shape, dirs),
  ) {
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

  /** Rows counted so far (the 1-based position of the current row). */
  get rowsSeen(): number {
    return this.rows;
  }

  /** A value the reference materializer would stop on; it is left as it is. */
  unreadable(at: string, why: string): void {
    this.unreadableValues.count++;
    if (this.unreadableValues.examples.length < EXAMPLES_KEPT) this.unreadableValues.examples.push({ at, why });
  }

  /**
   * One path value. `exists` answers for the local file of a sentinel path (called once per
   * occurrence: the reference counts every missing reference; callers cache).
   */
  reference(
    value: string,
    exists: (abs: string) => boolean,
  ): { shape: PathShape; located: string | null; materialized: string | null } {
    const shape = classifyPath(value);
    if (shape.kind !== "sentinel") {
      this.unknown.references++;
      const why = shape.kind === "local" ? `already local (${shape.form})` : shape.why;
      if (this.unknown.examples.length < EXAMPLES_KEPT && !this.unknownSeen.has(value)) {
        this.unknownSeen.add(value);
        this.unknown.examples.push({ path: value, why });
      }
      return { shape, located: null, materialized: null };
    }
    // Located first: a locate that throws (a symlink loop) leaves the counts untouched.
    const abs = this.locate(shape);
    const r = this.perRoot.get(shape.root)!;
    r.references++;
    if (abs === null) {
      if (!r.seen.has(shape.raw)) {
        r.seen.add(shape.raw);
        r.files++;
      }
      return { shape, located: null, materialized: null };
    }
    const present = exists(abs);
    if (!present) this.buckets[bucketOf(shape)] = (this.buckets[bucketOf(shape)] ?? 0) + 1;
    if (!r.seen.has(shape.raw)) {
      r.seen.add(shape.raw);
      r.files++;
      if (!present) {
        r.missing++;
        if (r.missingExamples.length < EXAMPLES_KEPT) r.missingExamples.push(shape.raw);
      }
    }
    r.materialized++;
    return { shape, located: abs, materialized: fileUri(abs) };
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
      missingByBucket: { ...this.buckets },
      unknownShape: { references: this.unknown.references, examples: [...this.unknown.examples] },
      unreadable: { count: this.unreadableValues.count, examples: [...this.unreadableValues.examples] },
    };
  }
}

/** One line per root with paths (and one for unknown shapes, one for unreadable values), for logs and import warnings. */
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
  if (report.unreadable.count > 0) {
    const ex = report.unreadable.examples.map((e) => `${e.at}: ${e.why}`).join("; ");
    lines.push(
      `unreadable: ${report.unreadable.count} value(s) left as they are, on which the reference materializer stops (e.g. ${ex})`,
    );
  }
  return lines;
}
