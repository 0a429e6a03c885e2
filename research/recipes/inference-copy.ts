// Writes the inference copy of a training checkpoint: the same weights, config, tokenizer and
// data cursor, without the AdamW moments (half the bytes; `training.optimizer` becomes null, so
// training from it starts fresh moments). How packages/nano/checkpoints/default is made.
//
//   npx tsx research/recipes/inference-copy.ts var/checkpoints/nano-warm300/step-004500 \
//     packages/nano/checkpoints/default
import { loadCheckpoint, saveCheckpoint } from "@paravt/nano";

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  process.stderr.write("usage: inference-copy.ts FROM_CHECKPOINT_DIR TO_DIR (TO_DIR is replaced)\n");
  process.exit(2);
}
const c = await loadCheckpoint(from);
await saveCheckpoint(to, { ...c, training: { ...c.training, optimizer: null }, moments: null }, { overwrite: true });
process.stdout.write(`${to}: step ${c.training.step}, inference copy of ${from}\n`);
