// The ParaVT-nano tokenizer: a fixed, versioned vocabulary encoded by greedy longest match over
// WTF-8 bytes, with one token per byte as fallback, so `decode(encode(s)) === s` for every JS
// string (unknown words, Unicode, paths, lone surrogates included).
//
// Id layout (a pure function of the piece list, so a hash of that list identifies it):
//   0 .. 3                     control tokens: <|pad|>, <|bos|>, <|eos|>, <frame> (never produced
//                              by `encode`; text spelling "<frame>" encodes as ordinary text)
//   4 .. 259                   one token per byte value (byte b = id 4 + b); ASCII characters,
//                              digits 0-9 in particular, are these single-byte tokens
//   260 .. 260+n-1             pieces: multi-byte strings (protocol tags, JSON fragments of tool
//                              calls, the needle suite's words), matched longest first
//   260+n .. 260+n+599         version 2 only: time pieces, one per MM:SS below 10:00 ("00:00" is
//                              260+n, "0M:SS" is 260+n+60·M+S)
//
// No piece contains a digit, so numbers are always spelled digit by digit (timestamps, crop
// windows and answers stay compositional for a small model) — except, in version 2, a whole MM:SS
// time, which is one token. Why version 2: a `when` answer copies the times the target's sentence
// states; spelt as five tokens the small model never learnt to find them (teacher-forced first
// time 0.03), as one token in time-first sentences it did in 4,500 steps (0.63; research/LOG.md,
// nano, "Word order and time tokens"). A time piece starts with "0" and no other piece holds a digit, so the
// greedy match takes one exactly where the five bytes spell a time: the same tokens as collapsing
// version 1's digits left to right (`collapse_times` in gpu/nano_data.py, which trained them).
// The default checkpoint is version 2 since 2026-11-26, trained with its sub-agents' own times
// spelled (`encode(text, {spellTimes})`; research/LOG.md, nano, "Spelled sub-agent times").
//
// Encoding is segment-wise in the sequence builder (prompt, forced prefix, generated text are
// encoded separately), which is exactly what generation sees: the model continues after the
// prefix's last token.

import { createHash } from "node:crypto";
import { z } from "zod";
import { wtf8Decode, wtf8Encode } from "./wtf8";

export const TOKENIZER_FORMAT = "paravt-nano-tokenizer";
/**
 * The version `new Tokenizer(pieces)` builds, the default vocabulary's. Versions are bumped when
 * the id layout or the encoding algorithm changes (the pieces are hashed separately).
 */
export const TOKENIZER_VERSION = 1;
/** Version 1's layout plus TIME_PIECE_COUNT time pieces after the pieces. */
export const TIME_TOKENIZER_VERSION = 2;
export const TOKENIZER_VERSIONS: readonly number[] = [TOKENIZER_VERSION, TIME_TOKENIZER_VERSION];
/** Time pieces of version 2: "00:00" .. "09:59". */
export const TIME_PIECE_COUNT = 600;

/** The text of time piece k (0 ≤ k < TIME_PIECE_COUNT): "0M:SS" with M = ⌊k/60⌋, SS = k mod 60. */
export function timePieceText(k: number): string {
  return `0${Math.floor(k / 60)}:${String(k % 60).padStart(2, "0")}`;
}

export const CONTROL_TOKENS = ["<|pad|>", "<|bos|>", "<|eos|>", "<frame>"] as const;
export type ControlToken = (typeof CONTROL_TOKENS)[number];
export const BYTE_OFFSET = CONTROL_TOKENS.length;
export const PIECE_OFFSET = BYTE_OFFSET + 256;

export class TokenizerError extends Error {
  override name = "TokenizerError";
}

/** vocab.json: everything needed to rebuild the tokenizer, plus its identity. */
export interface VocabJson {
  format: typeof TOKENIZER_FORMAT;
  version: number;
  /** sha256 (hex) of the canonical JSON of [format, version, controls, pieces]. */
  hash: string;
  size: number;
  controls: string[];
  byteOffset: number;
  pieceOffset: number;
  /** The word pieces; version 2's time pieces follow them implicitly (not listed). */
  pieces: string[];
}

const VocabJsonSchema = z.strictObject({
  format: z.literal(TOKENIZER_FORMAT),
  version: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 hex digest"),
  size: z.number().int().positive(),
  controls: z.array(z.string()),
  byteOffset: z.number().int(),
  pieceOffset: z.number().int(),
  pieces: z.array(z.string()),
});

export function vocabHash(version: number, controls: readonly string[], pieces: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([TOKENIZER_FORMAT, version, controls, pieces]))
    .digest("hex");
}

interface TrieNode {
  id: number;
  next: Map<number, TrieNode>;
}

export type ControlMode = "throw" | "skip" | "name";

export class Tokenizer {
  readonly version: number;
  readonly hash: string;
  readonly size: number;
  readonly pieces: readonly string[];
  readonly pad = 0;
  readonly bos = 1;
  readonly eos = 2;
  /** Frame slot: the model replaces this position's embedding with a projected thumbnail. */
  readonly frame = 3;
  private readonly pieceBytes: Uint8Array[];
  private readonly root: TrieNode = { id: -1, next: new Map() };
  private readonly byText = new Map<string, number>();

  /** Time pieces (version 2) start at this id; equal to `size` in version 1. */
  readonly timeOffset: number;

  /**
   * Validates the pieces (unique, at least 2 bytes, no digit) and builds the matcher; version 2
   * appends the time pieces after them.
   */
  constructor(pieces: readonly string[], version = TOKENIZER_VERSION) {
    if (!TOKENIZER_VERSIONS.includes(version)) {
      throw new TokenizerError(
        `tokenizer version ${version} is not supported (this code reads ${TOKENIZER_VERSIONS.join(", ")})`,
      );
    }
    this.version = version;
    this.pieces = [...pieces];
    this.timeOffset = PIECE_OFFSET + this.pieces.length;
    const times =
      version === TIME_TOKENIZER_VERSION ? Array.from({ length: TIME_PIECE_COUNT }, (_, k) => timePieceText(k)) : [];
    this.pieceBytes = [...this.pieces, ...times].map((p, i) => {
      const bytes = wtf8Encode(p);
      const isTime = i >= this.pieces.length;
      if (bytes.length < 2) throw new TokenizerError(`piece ${i} ${JSON.stringify(p)} is shorter than 2 bytes`);
      if (!isTime && /\d/.test(p)) throw new TokenizerError(`piece ${i} ${JSON.stringify(p)} contains a digit`);
      if (this.byText.has(p)) throw new TokenizerError(`piece ${i} ${JSON.stringify(p)} is listed twice`);
      const id = PIECE_OFFSET + i;
      this.byText.set(p, id);
      let node = this.root;
      for (const b of bytes) {
        let child = node.next.get(b);
        if (!child) {
          child = { id: -1, next: new Map() };
          node.next.set(b, child);
        }
        node = child;
      }
      node.id = id;
      return bytes;
    });
    this.size = PIECE_OFFSET + this.pieceBytes.length;
    this.hash = vocabHash(version, CONTROL_TOKENS, this.pieces);
  }

  /** Rebuilds a tokenizer from its vocab.json, checking the recorded hash and size. */
  static fromVocabJson(json: unknown): Tokenizer {
    const r = VocabJsonSchema.safeParse(json);
    if (!r.success) {
      const i = r.error.issues[0]!;
      throw new TokenizerError(`invalid vocab JSON at ${i.path.join(".") || "(root)"}: ${i.message}`);
    }
    const v = r.data;
    if (JSON.stringify(v.controls) !== JSON.stringify(CONTROL_TOKENS) || v.byteOffset !== BYTE_OFFSET) {
      throw new TokenizerError(
        `vocab JSON has another control/byte layout than versions ${TOKENIZER_VERSIONS.join(", ")}`,
      );
    }
    if (v.pieceOffset !== PIECE_OFFSET) throw new TokenizerError(`vocab JSON pieceOffset must be ${PIECE_OFFSET}`);
    const tok = new Tokenizer(v.pieces, v.version);
    if (tok.hash !== v.hash) {
      throw new TokenizerError(`vocab JSON hash ${v.hash} does not match its pieces (${tok.hash})`);
    }
    if (tok.size !== v.size)
      throw new TokenizerError(`vocab JSON size ${v.size} does not match its pieces (${tok.size})`);
    return tok;
  }

  /**
   * The same pieces with time pieces (version 2): what a version-1 checkpoint becomes when its
   * `wte` grows by TIME_PIECE_COUNT rows (gpu/train_sft.py --time-tokens, importGpuModel).
   */
  withTimePieces(): Tokenizer {
    if (this.version === TIME_TOKENIZER_VERSION) return this;
    return new Tokenizer(this.pieces, TIME_TOKENIZER_VERSION);
  }

  /** Whether the vocabulary has one token per MM:SS below 10:00 (version 2). */
  get hasTimePieces(): boolean {
    return this.size > this.timeOffset;
  }

  vocabJson(): VocabJson {
    return {
      format: TOKENIZER_FORMAT,
      version: this.version,
      hash: this.hash,
      size: this.size,
      controls: [...CONTROL_TOKENS],
      byteOffset: BYTE_OFFSET,
      pieceOffset: PIECE_OFFSET,
      pieces: [...this.pieces],
    };
  }

  /**
   * Greedy longest match over the WTF-8 bytes; bytes no piece covers become byte tokens.
   * `spellTimes` (version 2) matches no time piece, so an MM:SS stays five tokens as in version 1:
   * how a sub-agent's own summary is trained when its times are spelled (SftOptions.spellSubAgentTimes).
   */
  encode(text: string, opts: { spellTimes?: boolean } = {}): number[] {
    const limit = opts.spellTimes ? this.timeOffset : this.size;
    const bytes = wtf8Encode(text);
    const out: number[] = [];
    let i = 0;
    while (i < bytes.length) {
      let node: TrieNode | undefined = this.root;
      let best = -1;
      let bestEnd = i + 1;
      for (let j = i; j < bytes.length; j++) {
        node = node.next.get(bytes[j]!);
        if (!node) break;
        if (node.id >= 0 && node.id < limit) {
          best = node.id;
          bestEnd = j + 1;
        }
      }
      out.push(best >= 0 ? best : BYTE_OFFSET + bytes[i]!);
      i = bestEnd;
    }
    return out;
  }

  /**
   * Text of token ids. Control tokens have no text: by default they are an error (decoded model
   * output is exactly protocol text); `skip` drops them, `name` writes their names (for display).
   */
  decode(ids: ArrayLike<number>, opts: { controls?: ControlMode } = {}): string {
    const mode = opts.controls ?? "throw";
    const bytes: number[] = [];
    let text = "";
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      if (!Number.isInteger(id) || id < 0 || id >= this.size) {
        throw new TokenizerError(`token id ${id} at position ${k} is outside the vocabulary [0, ${this.size})`);
      }
      if (id < BYTE_OFFSET) {
        if (mode === "throw") {
          throw new TokenizerError(`control token ${CONTROL_TOKENS[id]} at position ${k} has no text`);
        }
        if (mode === "name") {
          text += wtf8Decode(bytes) + CONTROL_TOKENS[id]!;
          bytes.length = 0;
        }
      } else if (id < PIECE_OFFSET) bytes.push(id - BYTE_OFFSET);
      else for (const b of this.pieceBytes[id - PIECE_OFFSET]!) bytes.push(b);
    }
    return text + wtf8Decode(bytes);
  }

  /** Id of a piece or control token by its exact text, or undefined. */
  idOf(text: string): number | undefined {
    const c = CONTROL_TOKENS.indexOf(text as ControlToken);
    return c >= 0 ? c : this.byText.get(text);
  }

  isControl(id: number): boolean {
    return id >= 0 && id < BYTE_OFFSET;
  }

  isByte(id: number): boolean {
    return id >= BYTE_OFFSET && id < PIECE_OFFSET;
  }

  /** A readable label for one token: the control name, `<0x0A>` for a non-printable byte, else its text. */
  label(id: number): string {
    if (this.isControl(id)) return CONTROL_TOKENS[id]!;
    if (this.isByte(id)) {
      const b = id - BYTE_OFFSET;
      return b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`;
    }
    const bytes = this.pieceBytes[id - PIECE_OFFSET];
    if (bytes === undefined) throw new TokenizerError(`token id ${id} is outside the vocabulary [0, ${this.size})`);
    return this.pieces[id - PIECE_OFFSET] ?? timePieceText(id - this.timeOffset);
  }
}
