// Strings <-> bytes for the byte-level tokenizer. JavaScript strings are sequences of UTF-16
// code units and may hold lone surrogates, which UTF-8 cannot express (TextEncoder replaces them
// with U+FFFD, so "\uD800" would not round-trip). WTF-8 (https://simonsapin.github.io/wtf-8/) is
// UTF-8 extended with the 3-byte form of surrogate code points: every well-formed string encodes
// exactly as UTF-8, and every JS string — lone surrogates included — decodes back to itself.
//
// Decoding accepts ANY byte sequence (a model may emit byte tokens in any order): it is the
// WHATWG UTF-8 decoder (same U+FFFD replacement per maximal ill-formed subpart as TextDecoder)
// with the one WTF-8 change that 0xED may be followed by 0xA0..0xBF (surrogates).

/** WTF-8 bytes of a string (UTF-8 for well-formed strings). */
export function wtf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 0x3f);
        out[n++] = 0x80 | ((c >> 6) & 0x3f);
        out[n++] = 0x80 | (c & 0x3f);
        continue;
      }
    }
    // BMP code point, or a lone surrogate (WTF-8's generalized 3-byte form).
    out[n++] = 0xe0 | (c >> 12);
    out[n++] = 0x80 | ((c >> 6) & 0x3f);
    out[n++] = 0x80 | (c & 0x3f);
  }
  return out.slice(0, n);
}

/** Decodes WTF-8 (so UTF-8 too); ill-formed sequences become U+FFFD exactly as TextDecoder does. */
export function wtf8Decode(bytes: ArrayLike<number>): string {
  const units: number[] = [];
  let chunks = "";
  const flush = () => {
    chunks += String.fromCharCode(...units);
    units.length = 0;
  };
  const emit = (cp: number) => {
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else units.push(cp);
    if (units.length >= 8192) flush();
  };
  let needed = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (needed === 0) {
      if (b <= 0x7f) emit(b);
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        // UTF-8 would set upper = 0x9f after 0xed (no surrogates); WTF-8 allows them.
        if (b === 0xe0) lower = 0xa0;
        needed = 2;
        cp = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3;
        cp = b & 0x07;
      } else emit(0xfffd);
      continue;
    }
    if (b < lower || b > upper) {
      needed = seen = cp = 0;
      lower = 0x80;
      upper = 0xbf;
      emit(0xfffd);
      i--; // the byte starts a new sequence
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === needed) {
      emit(cp);
      needed = seen = cp = 0;
    }
  }
  if (needed !== 0) emit(0xfffd);
  flush();
  return chunks;
}
