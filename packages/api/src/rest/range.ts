// HTTP Range requests (RFC 9110 §14) for video files: browsers seek by asking for byte ranges.

export type RangeResult =
  { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable"; reason: string };

/**
 * Parses a Range header against a file of `size` bytes. One range only: several ranges would
 * need a multipart/byteranges body that no video player asks for, so they are refused with
 * 416 rather than answered wrongly. A header we cannot read is ignored (full response), as the
 * RFC allows.
 */
export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: "full" };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: "full" };
  const specs = m[1]!.split(",").map((s) => s.trim());
  if (specs.length > 1)
    return { kind: "unsatisfiable", reason: "multiple ranges are not supported; ask for one range" };
  const r = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!r || (r[1] === "" && r[2] === "")) return { kind: "full" };
  if (r[1] === "") {
    // Suffix range: the last N bytes.
    const n = Number(r[2]);
    if (n === 0) return { kind: "unsatisfiable", reason: "empty suffix range" };
    if (size === 0) return { kind: "unsatisfiable", reason: "the file is empty" };
    return { kind: "partial", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
  if (r[2] !== "" && Number(r[2]) < start) return { kind: "full" }; // invalid: ignore it
  if (start >= size)
    return { kind: "unsatisfiable", reason: `range starts at ${start} but the file has ${size} bytes` };
  return { kind: "partial", start, end };
}
