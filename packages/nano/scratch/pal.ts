import { defaultTokenizer, paletteTokenIds, PALETTE_WORDS } from "../src/index";
const tok = defaultTokenizer();
const ids = paletteTokenIds(tok);
console.log(PALETTE_WORDS.length, ids.length, ids.map((i) => JSON.stringify(tok.decode([i]))).join(" "));
