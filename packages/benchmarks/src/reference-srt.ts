// The subtitle text the reference evaluator puts before a Video-MME question (videomme_wsub): a
// port of paravt/eval/utils.py::parse_srt (lines 178-195, EvolvingLMMs-Lab/ParaVT), kept apart from
// our own `srtToText` (./srt.ts), which reads cues differently (it keeps text of cues without a
// timing line, drops `{\…}` tags, splits on CRLF). Python's semantics are reproduced, not
// approximated:
// - `open(path, encoding="utf-8", errors="ignore")`: undecodable bytes are dropped, a BOM is KEPT
//   (the codec is utf-8, not utf-8-sig), and universal newlines turn "\r\n" and "\r" into "\n";
// - `str.strip()` and the `\s` of `re.split(r"\n\s*\n", …)` use Python's whitespace (str.isspace:
//   includes \x1c-\x1f and \x85, excludes the BOM), not JavaScript's `trim` / `\s`;
// - blocks with fewer than 3 lines are dropped; of the others, lines 3 onwards, `<…>` tags removed
//   and stripped, the non-empty ones joined with "\n".
// Pure: no Node built-ins (TextDecoder is a global).

/** Every code point for which Python 3's `str.isspace()` (and `re`'s Unicode `\s`) is true. */
const PY_WHITESPACE =
  "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_WHITESPACE_RE = new RegExp(`[${PY_WHITESPACE}]`);
const BLOCK_SEPARATOR_RE = new RegExp(`\\n[${PY_WHITESPACE}]*\\n`);
const TAG_RE = /<[^>]+>/g;

/** Python's `s.strip()` (no argument). Python's whitespace is all in the BMP. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_WHITESPACE_RE.test(s[start]!)) start++;
  while (end > start && PY_WHITESPACE_RE.test(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** U+FFFD encoded in UTF-8: the only bytes that decode to the replacement character legitimately. */
const REPLACEMENT_BYTES = [0xef, 0xbf, 0xbd] as const;

function decodeDroppingInvalid(bytes: Uint8Array): string {
  // A replacement character here can only stand for invalid bytes (the chunk has no EF BF BD), so
  // removing them drops exactly what Python's "ignore" drops: both decoders end an invalid sequence
  // at the first byte that cannot continue it (Unicode's "maximal subpart" practice).
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).replaceAll("\uFFFD", "");
}

/**
 * `bytes.decode("utf-8", errors="ignore")`: invalid bytes dropped, a leading BOM kept, genuine
 * U+FFFD characters kept.
 */
export function pyDecodeUtf8Ignore(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Split on genuine EF BF BD sequences: an invalid sequence never swallows one, because EF is
    // not a continuation byte, so each chunk decodes the same on its own.
    const parts: string[] = [];
    let start = 0;
    for (let i = 0; i + 2 < bytes.length; i++) {
      if (
        bytes[i] === REPLACEMENT_BYTES[0] &&
        bytes[i + 1] === REPLACEMENT_BYTES[1] &&
        bytes[i + 2] === REPLACEMENT_BYTES[2]
      ) {
        parts.push(decodeDroppingInvalid(bytes.subarray(start, i)));
        start = i + 3;
        i += 2;
      }
    }
    parts.push(decodeDroppingInvalid(bytes.subarray(start)));
    return parts.join("\uFFFD");
  }
}

/** What `open(path, encoding="utf-8", errors="ignore").read()` returns for these bytes. */
export function pyReadText(bytes: Uint8Array): string {
  return pyDecodeUtf8Ignore(bytes).replace(/\r\n?/g, "\n");
}

/** parse_srt's body on the text it read: the subtitle lines joined with "\n", or "". */
export function referenceSubtitleText(content: string): string {
  const lines: string[] = [];
  for (const block of pyStrip(content).split(BLOCK_SEPARATOR_RE)) {
    const parts = pyStrip(block).split("\n");
    if (parts.length < 3) continue;
    for (const line of parts.slice(2)) {
      const clean = pyStrip(line.replace(TAG_RE, ""));
      if (clean !== "") lines.push(clean);
    }
  }
  return lines.join("\n");
}

/** parse_srt on the bytes of an existing .srt file (a missing file is "" there too). */
export function referenceParseSrt(bytes: Uint8Array): string {
  return referenceSubtitleText(pyReadText(bytes));
}
