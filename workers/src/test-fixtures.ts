// Rows and files several worker integration tests start from (the polling helpers are in
// test-support.ts): a project with its owner's access, the import report of a dataset, and a
// tiny freshly initialised nano checkpoint for RL jobs.
import { createProjectWithRoles } from "@paravt/db/factories";
import { defaultTokenizer, initParameters, modelConfig, Mulberry32, saveCheckpoint } from "@paravt/nano";
import { benchmarkImportReportSchema } from "@paravt/shared";
import { db, projectAccess } from "@paravt/shared/server";

/** A new project (owner, editor, viewer) and the owner's access to it. */
export async function projectWithOwnerAccess() {
  const fx = await createProjectWithRoles(db());
  return { fx, access: await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id) };
}

/** The skip report a benchmark import stored on its dataset. */
export async function importReportOf(datasetId: string) {
  const source = (await db().dataset.findUniqueOrThrow({ where: { id: datasetId } })).source as { report: unknown };
  return benchmarkImportReportSchema.parse(source.report);
}

/** A freshly initialised tiny nano (width 32, one layer) saved as a checkpoint: about a second per RL step. */
export async function tinyCheckpoint(dir: string): Promise<string> {
  const tok = defaultTokenizer();
  const config = modelConfig(tok, { contextLength: 1024, width: 32, layers: 1, heads: 2, seed: 5 });
  await saveCheckpoint(
    dir,
    {
      config,
      tokenizer: tok,
      params: initParameters(config),
      training: {
        step: 0,
        seed: 5,
        rng: { algorithm: Mulberry32.algorithm, state: [5] },
        dataCursor: { epoch: 0, position: 0, datasetHash: "0".repeat(64) },
        optimizer: null,
      },
      moments: null,
    },
    { overwrite: true },
  );
  return dir;
}
