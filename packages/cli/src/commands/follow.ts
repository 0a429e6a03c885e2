// `paravt follow <trackio|verl|trl|areal> <path>`: follows a trainer's own files and uploads
// their metrics and rollouts into an external run (src/follow/, docs/ingestion-format.md
// "Followers"). Auth is `paravt ingest`'s: the login of `paravt auth login` or PARAVT_URL /
// PARAVT_TOKEN / PARAVT_PROJECT.
import { parseArgs } from "node:util";
import { z } from "zod";
import { UsageError, type Command } from "../command";
import type { Converter } from "../follow/follow";
import type { RolloutDefaults } from "../follow/options";
import { readConfig } from "../remote/config";

const FOLLOW_HELP = `Usage: paravt follow <trackio|verl|trl|areal> PATH [options]

Follows a trainer's own files, with no change to the trainer, and uploads their metrics and
rollouts into an external run of the workbench: each point once (client ids derived from the
source), resuming where it stopped, following the files as they grow.

  trackio PATH   a trackio project database (PATH/<project>.db, PATH defaults to $HF_HOME/trackio
                 in trackio) or its directory with --project: metrics and trackio.Trace rollouts
  verl PATH      trainer.rollout_data_dir (<step>.jsonl dumps); --metrics FILE adds the file
                 logger's JSON Lines (trainer.logger=[...,"file"], $VERL_FILE_LOGGER_PATH)
  trl PATH       GRPOTrainer's output_dir: completions/completions_<step>.parquet
                 (log_completions=True) and the log history of its trainer_state.json files
  areal PATH     the stats logger's log path <fileroot>/logs/<user>/<experiment>/<trial>:
                 the step tables of main.log / trainer.log and rollout/<version>/<task>.jsonl
                 (rollout.dump_to_file, as ParaVT's recipe sets it)

Options:
  --project P          trackio: the trackio project when PATH is a directory
  --source-run R       trackio: the run of the project (name or run id; needed when it has several)
  --metrics FILE       verl: the file logger's JSON Lines
  --run RUN_ID         upload into this external run (default: create one from the source, once)
  --name N             name of the run created from the source
  --once               read what is there, upload it, stop (default: follow until the source
                       says the run is over, or Ctrl+C)
  --poll-ms MS         how often to look for more (default 2000)
  --k K                K (overview frames) of rollouts whose source does not record it (default 1)
  --question-type T    mcq, tvg or oe for samples whose source does not say (default oe)
  --rollouts-per-step N  rollouts kept per step, whole GRPO groups first (default and most 1000)
  --settle-ms MS       a dump file untouched this long is complete (default 2000)
  --state-dir DIR      where the spool and positions live (default $PARAVT_STATE_DIR or ~/.paravt)

GRPO groups (verl's uid or prompt, TRL's prompt, an AReaL task, a trace's group_id) go into
each rollout's rewardTerms as group, groupIndex and groupSize, with the advantage where the
source has it: the run's GRPO group view reads them.

Exit codes: 0 done, everything stored or already there; 3 done, but items were rejected
(named on stderr); 1 an error; 2 bad arguments.
`;

const intText = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

const argsSchema = z
  .object({
    framework: z.enum(["trackio", "verl", "trl", "areal"], { error: "the framework is trackio, verl, trl or areal" }),
    path: z.string().min(1),
    project: z.string().optional(),
    "source-run": z.string().optional(),
    metrics: z.string().optional(),
    run: z.string().min(1).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    once: z.boolean().optional(),
    "poll-ms": intText(10).optional(),
    k: intText(1, 256).optional(),
    "question-type": z.enum(["mcq", "tvg", "oe"]).optional(),
    "rollouts-per-step": intText(1, 1000).optional(),
    "settle-ms": intText(0).optional(),
    "state-dir": z.string().optional(),
  })
  .refine((a) => !(a.run && a.name), { message: "--run and --name exclude each other" })
  .refine((a) => a.framework === "trackio" || (!a.project && !a["source-run"]), {
    message: "--project and --source-run are trackio's",
  })
  .refine((a) => a.framework === "verl" || !a.metrics, { message: "--metrics is verl's" });

const OPTIONS = {
  project: { type: "string" },
  "source-run": { type: "string" },
  metrics: { type: "string" },
  run: { type: "string" },
  name: { type: "string" },
  once: { type: "boolean" },
  "poll-ms": { type: "string" },
  k: { type: "string" },
  "question-type": { type: "string" },
  "rollouts-per-step": { type: "string" },
  "settle-ms": { type: "string" },
  "state-dir": { type: "string" },
} as const;

function parse(argv: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (parsed.positionals.length !== 2) throw new UsageError("give the framework and one PATH");
  const [framework, path] = parsed.positionals;
  const r = argsSchema.safeParse({ framework, path, ...parsed.values });
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new UsageError(i.path.length ? `--${i.path.join(".")}: ${i.message}` : i.message);
  }
  return r.data;
}

export const followCommand: Command = {
  name: "follow",
  summary: "follow a trackio / verl / TRL / AReaL run's own files into the workbench, no trainer change",
  help: FOLLOW_HELP,
  async run(argv, io) {
    let a;
    try {
      a = parse(argv);
    } catch (e) {
      io.stderr.write(`paravt follow: ${(e as Error).message}\n\n${FOLLOW_HELP}`);
      return 2;
    }
    const log = (m: string) => io.stderr.write(`${m}\n`);
    try {
      const [{ rolloutDefaultsSchema }, { follow }, { stateRoot }, { createParavtClient }] = await Promise.all([
        import("../follow/options"),
        import("../follow/follow"),
        import("../follow/spool"),
        import("@paravt/client"),
      ]);
      const defaults = rolloutDefaultsSchema.parse({
        ...(a.k !== undefined ? { k: a.k } : {}),
        ...(a["question-type"] ? { questionType: a["question-type"] } : {}),
        ...(a["rollouts-per-step"] !== undefined ? { rolloutsPerStep: a["rollouts-per-step"] } : {}),
        ...(a["settle-ms"] !== undefined ? { settleMs: a["settle-ms"] } : {}),
      });
      const converter = await converterFor(a, { ...defaults, log });
      const config = await readConfig();
      const api = createParavtClient({ url: config.url, token: config.token });
      const projectId = config.projectId ?? (await api.whoami()).token?.projectId;
      if (!projectId) throw new Error("PARAVT_TOKEN is not a project API token");
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      const result = await follow({
        converter,
        api: api.ingestApi(projectId),
        ...(a.run ? { runId: a.run } : {}),
        ...(a.name ? { name: a.name } : {}),
        once: a.once ?? false,
        pollMs: a["poll-ms"] ?? 2000,
        root: stateRoot(a["state-dir"]),
        signal: controller.signal,
        log,
      }).finally(() => process.off("SIGINT", stop));
      const { upload } = result;
      io.stdout.write(
        `${JSON.stringify({ framework: a.framework, runId: upload.runId, finished: result.finished, spool: result.spoolDir, ...upload.counts })}\n`,
      );
      const c = upload.counts;
      return c.conflict + c.invalid + c.skipped > 0 ? 3 : 0;
    } catch (e) {
      io.stderr.write(`paravt follow: ${(e as Error).message}\n`);
      return 1;
    }
  },
};

async function converterFor(
  a: ReturnType<typeof parse>,
  o: RolloutDefaults & { log(m: string): void },
): Promise<Converter<unknown>> {
  // Each converter's state type is its own; the driver only saves and hands it back.
  switch (a.framework) {
    case "trackio": {
      const { trackioConverter } = await import("../follow/trackio");
      return (await trackioConverter({
        ...o,
        source: a.path,
        ...(a.project ? { project: a.project } : {}),
        ...(a["source-run"] ? { sourceRun: a["source-run"] } : {}),
      })) as Converter<unknown>;
    }
    case "verl": {
      const { verlConverter } = await import("../follow/verl");
      return verlConverter({
        ...o,
        source: a.path,
        ...(a.metrics ? { metricsFile: a.metrics } : {}),
      }) as Converter<unknown>;
    }
    case "trl": {
      const { trlConverter } = await import("../follow/trl");
      return trlConverter({ ...o, source: a.path }) as Converter<unknown>;
    }
    case "areal": {
      const { arealConverter } = await import("../follow/areal");
      return arealConverter({ ...o, source: a.path }) as Converter<unknown>;
    }
  }
}
