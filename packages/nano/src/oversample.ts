// Oversampling a question template's main-agent trajectories in SFT (`paravt nano train
// --repeat-template when=4`): a template that is one question in six, and whose answer turn is the
// hardest to learn (`when`: copy the target's times from the tool responses), otherwise gets one
// example in a few hundred of a batch-2 stage.
import type { OracleRow } from "@paravt/suite";

/**
 * The oracle rows with those of each named template repeated `n` times in all, each copy right
 * after its original and named `<id>~<copy>` (copy 2..n), so `--alias-video-paths` draws each copy
 * its own path and a copy is a distinct example of the dataset fingerprint. `templateOf` maps a
 * row's question id to its template; a question it does not know is an error (a row of another
 * suite). Sub-agent samples of the copies are dropped again by `sftExamples`' de-duplication.
 */
export function repeatTemplates(
  oracle: readonly OracleRow[],
  templateOf: ReadonlyMap<string, string>,
  repeats: Readonly<Record<string, number>>,
): OracleRow[] {
  const known = new Set(templateOf.values());
  for (const name of Object.keys(repeats)) {
    if (!known.has(name)) throw new RangeError(`no question of this suite has the template ${name}`);
  }
  const out: OracleRow[] = [];
  for (const row of oracle) {
    const template = templateOf.get(row.questionId);
    if (template === undefined) throw new RangeError(`oracle row ${row.id}: unknown question ${row.questionId}`);
    out.push(row);
    for (let copy = 2; copy <= (repeats[template] ?? 1); copy++) out.push({ ...row, id: `${row.id}~${copy}` });
  }
  return out;
}
