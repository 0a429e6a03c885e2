// The README's figures, computed: vocabulary make-up, tokens per oracle trajectory, SFT sequence
// lengths per overview size K and the default model's size. `readme.test.ts` fails when the
// README's block no longer matches; `npx tsx packages/nano/scripts/figures.ts` prints it.

import { OVERVIEW_KS, planSuite } from "@paravt/suite";
import { modelConfig, parameterCount } from "../src/config";
import { sftExamples } from "../src/sequence";
import { PIECE_OFFSET } from "../src/tokenizer";
import { defaultTokenizer, PROTOCOL_PIECES } from "../src/vocabulary";

export const FIGURES_SEED = 1;
export const FIGURES_COUNT = 20;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function figuresMarkdown(): string {
  const tok = defaultTokenizer();
  const plan = planSuite({ seed: FIGURES_SEED, count: FIGURES_COUNT });
  const lines: string[] = [];
  const suiteWords = tok.size - PIECE_OFFSET - PROTOCOL_PIECES.length;
  lines.push(
    `- Vocabulary: **${tok.size} tokens** = 4 control + 256 byte + ${PROTOCOL_PIECES.length} protocol pieces + ${suiteWords} suite words; version ${tok.version}, hash \`${tok.hash.slice(0, 16)}…\`.`,
  );
  const texts = plan.oracle.map((r) =>
    r.turns
      .slice(1)
      .map((t) => t.content)
      .join("\n"),
  );
  const counts = texts.map((t) => tok.encode(t).length);
  const chars = texts.reduce((n, t) => n + t.length, 0);
  lines.push(
    `- Oracle trajectories (seed ${FIGURES_SEED}, ${FIGURES_COUNT} videos, ${plan.oracle.length} trajectories; all turns after the prompt, as the suite scores them): **${mean(counts).toFixed(1)} tokens** on average (max ${Math.max(...counts)}), ${(chars / counts.reduce((a, b) => a + b, 0)).toFixed(2)} characters per token.`,
  );
  const set = sftExamples(plan, { contextLength: Number.MAX_SAFE_INTEGER });
  lines.push("", "| SFT example | n | mean tokens | max tokens | frame slots |", "| --- | ---: | ---: | ---: | ---: |");
  for (const k of OVERVIEW_KS) {
    const e = set.examples.filter((x) => x.kind === "main" && x.k === k).map((x) => x.ids.length);
    lines.push(`| main agent, K = ${k} | ${e.length} | ${mean(e).toFixed(0)} | ${Math.max(...e)} | ${k} |`);
  }
  const subs = set.examples.filter((x) => x.kind === "sub");
  const sl = subs.map((x) => x.ids.length);
  const sf = subs.map((x) => x.frames.length);
  lines.push(
    `| sub-agent (distinct samples) | ${subs.length} | ${mean(sl).toFixed(0)} | ${Math.max(...sl)} | ${Math.min(...sf)}–${Math.max(...sf)} |`,
  );
  const c = modelConfig(tok);
  lines.push(
    "",
    `- Default model (\`modelConfig(defaultTokenizer())\`): V = ${c.vocabSize}, T = ${c.contextLength}, C = ${c.width}, L = ${c.layers}, H = ${c.heads}, P = ${c.frameFeatures} (${c.thumbnail.width}x${c.thumbnail.height} RGB): **${(parameterCount(c) / 1e6).toFixed(2)} M parameters** (${((parameterCount(c) * 4) / 2 ** 20).toFixed(1)} MiB as F32).`,
  );
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(figuresMarkdown());
