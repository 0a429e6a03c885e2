// SubRip (.srt) to the plain subtitle text that SPEC §5 prefixes to VideoMME questions. VideoMME's
// SRT files wrap every cue in `<font color="white" size=".72c">…</font>` (the official evaluation
// and lmms-eval extract the text inside those tags); we strip any markup the same way, drop cue
// numbers and timing lines, and keep one line per subtitle line in file order.

const TIMING_RE = /^\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/;

export function srtToText(srt: string): string {
  const lines: string[] = [];
  const blocks = srt.replace(/^\uFEFF/, "").split(/\r?\n\s*\r?\n/);
  for (const block of blocks) {
    const rows = block.split(/\r?\n/);
    let i = 0;
    // A cue is: optional number line, timing line, text lines. Text before any timing line
    // (malformed files) is kept rather than lost.
    if (rows.length > 1 && /^\s*\d+\s*$/.test(rows[0]!) && TIMING_RE.test(rows[1]!)) i = 2;
    else if (TIMING_RE.test(rows[0] ?? "")) i = 1;
    for (; i < rows.length; i++) {
      const text = rows[i]!.replace(/<[^>]*>/g, "")
        .replace(/\{\\[^}]*\}/g, "")
        .trim();
      if (text !== "") lines.push(text);
    }
  }
  return lines.join("\n");
}

/** SPEC §5 "VideoMME with subtitles": the SRT text before the question, in the Video-MME evaluation's wording. */
export function withSubtitles(subtitleText: string, question: string): string {
  return `This video's subtitles are listed below:\n${subtitleText}\n${question}`;
}
