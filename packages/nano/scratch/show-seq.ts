import { readFileSync } from "node:fs";
import { buildPrompt, defaultTokenizer, mainAgentTurns } from "../src/index";
const tok = defaultTokenizer();
const rows = readFileSync(`var/suites/heldout40/oracle.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const row = rows.find((r: any) => r.k === 8)!;
const turns = mainAgentTurns(row, { thinkPrefix: true }).slice(0, 1);
const p = buildPrompt(tok, turns, { forcedPrefix: "<think>\n" });
console.log(p.ids.length, tok.decode(Array.from(p.ids), { controls: "name" } as any));
console.log(Array.from(p.ids).map((i) => tok.label ? tok.label(i) : i).join("|"));
