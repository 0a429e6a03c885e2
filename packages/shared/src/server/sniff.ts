// Container type from the first bytes of a file, never from its name or the client's
// Content-Type. Returns null for anything we do not accept as a video upload.

export interface SniffedType {
  container: "mp4" | "webm" | "avi" | "mpegts" | "flv" | "ogg";
  extension: string;
}

export const SNIFF_BYTES = 376;

export function sniffVideoType(head: Uint8Array): SniffedType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  // ISO base media (mp4, mov, m4v, 3gp): a box of type "ftyp" (or a leading moov/mdat/free box).
  if (head.length >= 12 && ["ftyp", "moov", "mdat", "free", "wide", "skip"].includes(ascii(4, 8))) {
    return { container: "mp4", extension: ascii(8, 10) === "qt" ? "mov" : "mp4" };
  }
  // EBML magic: Matroska / WebM.
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return { container: "webm", extension: "mkv" };
  }
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "AVI ") return { container: "avi", extension: "avi" };
  if (ascii(0, 3) === "FLV") return { container: "flv", extension: "flv" };
  if (ascii(0, 4) === "OggS") return { container: "ogg", extension: "ogv" };
  // MPEG transport stream: sync byte every 188 bytes.
  if (head.length >= 189 && head[0] === 0x47 && head[188] === 0x47) return { container: "mpegts", extension: "ts" };
  return null;
}
