// The commands that talk to a running workbench through its REST API (issue 11), with the typed
// client of @paravt/client: auth, ingest, runs, metrics, episodes, eval, dataset. Each reads the
// login saved by `paravt auth login` (or PARAVT_URL / PARAVT_TOKEN / PARAVT_PROJECT).
import { once } from "node:events";
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { UsageError, type CliIo, type Command } from "../command";
import { maskToken, readConfig, removeConfig, writeConfig, type RemoteConfig } from "../remote/config";

/** parseArgs with our error type; `positionals` are allowed only where a command says so. */
function args<T extends Record<string, { type: "string" | "boolean"; multiple?: boolean }>>(
  argv: readonly string[],
  options: T,
  positionals = false,
) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

async function client(config: Pick<RemoteConfig, "url" | "token">) {
  // Loaded on use: the local commands (reward, parse) never pay for the HTTP client.
  const { createParavtClient } = await import("@paravt/client");
  return createParavtClient({ url: config.url, token: config.token });
}

/** The saved login and a client; a token given only by PARAVT_TOKEN learns its project from /whoami. */
async function session(): Promise<{
  config: RemoteConfig & { projectId: string };
  api: Awaited<ReturnType<typeof client>>;
}> {
  const saved = await readConfig();
  const api = await client(saved);
  if (saved.projectId) return { config: { ...saved, projectId: saved.projectId }, api };
  const me = await api.whoami();
  if (!me.token) throw new Error("PARAVT_TOKEN is not a project API token");
  return { config: { ...saved, projectId: me.token.projectId }, api };
}

/** Wraps a subcommand table: usage errors exit 2 with the help, API errors exit 1 with their message. */
function group(
  name: string,
  summary: string,
  help: string,
  subs: Record<string, (a: readonly string[], io: CliIo) => Promise<number>>,
): Command {
  return {
    name,
    summary,
    help,
    async run(argv, io) {
      const [sub, ...rest] = argv;
      const fn = sub ? subs[sub] : undefined;
      if (!fn) {
        io.stderr.write(`paravt ${name}: ${sub ? `unknown subcommand "${sub}"` : "which subcommand?"}\n\n${help}`);
        return 2;
      }
      try {
        return await fn(rest, io);
      } catch (e) {
        if (e instanceof UsageError) {
          io.stderr.write(`paravt ${name} ${sub}: ${e.message}\n\n${help}`);
          return 2;
        }
        io.stderr.write(`paravt ${name} ${sub}: ${(e as Error).message}\n`);
        return 1;
      }
    },
  };
}

// ----- auth ---------------------------------------------------------------------------------------

const AUTH_HELP = `Usage:
  paravt auth login --url URL --token pvt_…   check the token against the workbench, then save both
  paravt auth status                          the saved login (token masked) and what the token may do
  paravt auth logout                          forget the saved login

The token is a project API token (Project > API tokens in the workbench): READ reads, WRITE also
reviews and ingests external runs, LAUNCH also starts evaluations and training. The login is saved
in $PARAVT_CONFIG or ~/.config/paravt/config.json (mode 600); PARAVT_URL, PARAVT_TOKEN and
PARAVT_PROJECT override it.
`;

export const authCommand = group("auth", "log in to a workbench with a project API token", AUTH_HELP, {
  async login(argv, io) {
    const { values } = args(argv, { url: { type: "string" }, token: { type: "string" } });
    const url = required(values.url, "--url").replace(/\/+$/, "");
    const token = required(values.token, "--token");
    const { createParavtClient } = await import("@paravt/client");
    const me = await createParavtClient({ url, token }).whoami();
    if (!me.token) throw new Error("That credential is not a project API token");
    const file = await writeConfig({ url, token, projectId: me.token.projectId });
    io.stderr.write(
      `logged in to ${url}, project ${me.token.projectId}, scopes ${me.token.scopes.join(", ")} (saved in ${file})\n`,
    );
    io.stdout.write(`${JSON.stringify({ url, projectId: me.token.projectId, scopes: me.token.scopes })}\n`);
    return 0;
  },
  async status(argv, io) {
    args(argv, {});
    const { config, api } = await session();
    const me = await api.whoami();
    io.stdout.write(
      `${JSON.stringify({ url: config.url, token: maskToken(config.token), projectId: config.projectId, scopes: me.token?.scopes ?? [] })}\n`,
    );
    return 0;
  },
  async logout(argv, io) {
    args(argv, {});
    io.stderr.write((await removeConfig()) ? "logged out\n" : "was not logged in\n");
    return 0;
  },
});

// ----- ingest -------------------------------------------------------------------------------------

const INGEST_HELP = `Usage: paravt ingest FILE.jsonl [--run RUN_ID] [--follow] [--poll-ms 1000]

Uploads an external trainer's JSON Lines log (docs/ingestion-format.md: run / metrics / rollout /
status lines) into the workbench, in batches, each item once (client ids). The position is saved in
FILE.jsonl.paravt-state.json after every acknowledged batch: run it again and it resumes there.
--follow keeps reading as the file grows until a final status line (Ctrl+C saves and stops).
Without a run line in the file, --run names the external run to upload into.

Exit codes: 0 done, every line stored or already there; 3 done, but some lines or items were
rejected (skipped, invalid or conflict: counted in the summary, each named on stderr); 1 an error
(message on stderr); 2 bad arguments.
`;

/** Exit code of a finished upload: 3 when anything was rejected, so scripts notice (0 otherwise). */
const uploadExitCode = (counts: { conflict: number; invalid: number; skipped: number }) =>
  counts.conflict + counts.invalid + counts.skipped > 0 ? 3 : 0;

export const ingestCommand: Command = {
  name: "ingest",
  summary: "upload an external run's JSON Lines log (metrics, rollouts), resumable, --follow",
  help: INGEST_HELP,
  async run(argv, io) {
    let parsed;
    try {
      parsed = args(
        argv,
        { run: { type: "string" }, follow: { type: "boolean" }, "poll-ms": { type: "string" } },
        true,
      );
      if (parsed.positionals.length !== 1) throw new UsageError("give exactly one FILE");
      const poll = parsed.values["poll-ms"];
      if (poll !== undefined && !(Number.isInteger(Number(poll)) && Number(poll) >= 10)) {
        throw new UsageError("--poll-ms must be an integer of at least 10");
      }
    } catch (e) {
      io.stderr.write(`paravt ingest: ${(e as Error).message}\n\n${INGEST_HELP}`);
      return 2;
    }
    const file = parsed.positionals[0]!;
    try {
      await fs.access(file);
      const { config, api } = await session();
      const { uploadFile } = await import("../remote/ingest-file");
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      const state = await uploadFile({
        file,
        api: api.ingestApi(config.projectId),
        ...(parsed.values.run ? { runId: parsed.values.run } : {}),
        follow: parsed.values.follow ?? false,
        pollMs: parsed.values["poll-ms"] ? Number(parsed.values["poll-ms"]) : 1000,
        signal: controller.signal,
        log: (m) => io.stderr.write(`${m}\n`),
      }).finally(() => process.off("SIGINT", stop));
      io.stdout.write(
        `${JSON.stringify({ runId: state.runId, lines: state.line, finished: state.finished, ...state.counts })}\n`,
      );
      return uploadExitCode(state.counts);
    } catch (e) {
      io.stderr.write(`paravt ingest: ${(e as Error).message}\n`);
      return 1;
    }
  },
};

// ----- metrics / episodes -------------------------------------------------------------------------

const METRICS_HELP = `Usage:
  paravt metrics push --run RUN_ID < steps.jsonl
      one line per step: {"id": "step-12", "step": 12, "values": {"reward_mean": 0.6, ...}, "at"?: ISO time}
      (the "metrics" lines of docs/ingestion-format.md; a "type" field is ignored). Sent in batches
      of 1000 into an external run; prints the per-status counts. Idempotent by id.
      Exit code 3 when a line or item was rejected (skipped, invalid or conflict), 0 when all are stored.
`;

export const metricsCommand = group(
  "metrics",
  "push metric steps (JSON Lines on stdin) into an external run",
  METRICS_HELP,
  {
    async push(argv, io) {
      const { values } = args(argv, { run: { type: "string" } });
      const runId = required(values.run, "--run");
      const { config, api } = await session();
      const { parseLine } = await import("../remote/ingest-file");
      const readline = await import("node:readline");
      const counts = { stored: 0, duplicate: 0, conflict: 0, invalid: 0, skipped: 0 };
      let batch: Parameters<typeof api.ingestMetrics>[2] = [];
      const send = async () => {
        if (!batch.length) return;
        const out = await api.ingestMetrics(config.projectId, runId, batch);
        for (const k of ["stored", "duplicate", "conflict", "invalid"] as const) counts[k] += out.counts[k];
        for (const i of out.items) if (i.reason) io.stderr.write(`item ${i.id}: ${i.status} — ${i.reason}\n`);
        batch = [];
      };
      let n = 0;
      for await (const line of readline.createInterface({ input: io.stdin, crlfDelay: Infinity })) {
        n++;
        let raw: unknown;
        try {
          raw = JSON.parse(line || "null");
        } catch {
          raw = undefined;
        }
        if (line.trim() === "") continue;
        const parsed = parseLine(JSON.stringify({ ...(raw as object), type: "metrics" }));
        if (raw === undefined || parsed.kind !== "metrics") {
          counts.skipped++;
          io.stderr.write(
            `line ${n}: skipped, ${parsed.kind === "bad" && raw !== undefined ? parsed.reason : "not JSON"}\n`,
          );
          continue;
        }
        batch.push(parsed.value);
        if (batch.length >= 1000) await send();
      }
      await send();
      io.stdout.write(`${JSON.stringify({ runId, ...counts })}\n`);
      return uploadExitCode(counts);
    },
  },
);

const EPISODES_HELP = `Usage:
  paravt episodes export --run RUN_ID [--out FILE]
      every episode of the run (evaluation, training or ingested) with its full trajectory: one JSON
      object per line (turns, raw text, tool calls with windows and sub-agent outputs, score).
`;

export const episodesCommand = group(
  "episodes",
  "export a run's episodes with full trajectories (JSON Lines)",
  EPISODES_HELP,
  {
    async export(argv, io) {
      const { values } = args(argv, { run: { type: "string" }, out: { type: "string" } });
      const runId = required(values.run, "--run");
      const { config, api } = await session();
      const { createWriteStream } = await import("node:fs");

      const file = values.out ? createWriteStream(values.out) : null;
      const out = file ?? io.stdout;
      let n = 0;
      for await (const e of api.episodes(config.projectId, runId)) {
        if (!out.write(`${JSON.stringify(e)}\n`)) await once(out, "drain");
        n++;
      }
      if (file) {
        file.end();
        await once(file, "finish");
      }
      io.stderr.write(`exported ${n} episodes${values.out ? ` to ${values.out}` : ""}\n`);
      return 0;
    },
  },
);

// ----- waiting with a progress bar ------------------------------------------------------------------

/** `[#######.............]  35%` */
export function progressBar(fraction: number, width = 24): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const done = Math.round(f * width);
  return `[${"#".repeat(done)}${".".repeat(width - done)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

type RunLike = {
  id: string;
  name: string;
  status: string;
  progress: number;
  message: string | null;
  error: string | null;
};

/** Waits for runs, drawing one progress line per change on stderr; exit code 0 only if all succeeded. */
async function waitAndReport(api: Awaited<ReturnType<typeof client>>, projectId: string, runIds: string[], io: CliIo) {
  const final = await api.waitForRuns(projectId, runIds, (runs: RunLike[]) => {
    const mean = runs.reduce((s, r) => s + (r.status === "SUCCEEDED" ? 1 : r.progress), 0) / runs.length;
    const done = runs.filter((r) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(r.status)).length;
    const active = runs.find((r) => r.status === "RUNNING");
    io.stderr.write(
      `${progressBar(mean)} ${done}/${runs.length} runs done${active?.message ? ` · ${active.message}` : ""}\n`,
    );
  });
  for (const r of final)
    io.stdout.write(
      `${JSON.stringify({ id: r.id, name: r.name, status: r.status, message: r.message, error: r.error })}\n`,
    );
  return final.every((r) => r.status === "SUCCEEDED") ? 0 : 1;
}

// ----- runs ---------------------------------------------------------------------------------------

const RUNS_HELP = `Usage:
  paravt runs list [--status QUEUED|RUNNING|SUCCEEDED|FAILED|CANCELLED] [--limit 50]
      one JSON line per run, newest first
  paravt runs export --run RUN_ID [--names a,b,...] [--format csv|json] [--out FILE]
      every point of the run's metric series (all of them unless --names), not downsampled
  paravt runs wait --run RUN_ID [--run RUN_ID ...]
      waits for runs to finish with a progress bar; exit 0 when all succeeded, 1 otherwise
`;

export const runsCommand = group("runs", "list runs, export their metrics, wait for them", RUNS_HELP, {
  async list(argv, io) {
    const { values } = args(argv, { status: { type: "string" }, limit: { type: "string" } });
    const { config, api } = await session();
    const status = values.status as "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | undefined;
    const runs = await api.listRuns(config.projectId, {
      ...(status ? { status } : {}),
      ...(values.limit ? { limit: Number(values.limit) } : {}),
    });
    for (const r of runs) io.stdout.write(`${JSON.stringify(r)}\n`);
    return 0;
  },
  async export(argv, io) {
    const { values } = args(argv, {
      run: { type: "string" },
      names: { type: "string" },
      format: { type: "string" },
      out: { type: "string" },
    });
    const runId = required(values.run, "--run");
    const format = (values.format ?? "csv") as "csv" | "json";
    if (format !== "csv" && format !== "json") throw new UsageError("--format is csv or json");
    const { config, api } = await session();
    const names = values.names
      ? values.names
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean)
      : (await api.metricNames(config.projectId, runId)).map((m) => m.name);
    if (names.length === 0) throw new Error("The run has no metrics yet");
    const content = await api.exportMetrics(config.projectId, runId, names, format);
    if (values.out) await fs.writeFile(values.out, content);
    else io.stdout.write(format === "json" ? `${content}\n` : content);
    io.stderr.write(`exported ${names.length} series${values.out ? ` to ${values.out}` : ""}\n`);
    return 0;
  },
  async wait(argv, io) {
    const { values } = args(argv, { run: { type: "string", multiple: true } });
    const ids = values.run ?? [];
    if (ids.length === 0) throw new UsageError("--run is required");
    const { config, api } = await session();
    return waitAndReport(api, config.projectId, ids, io);
  },
});

// ----- eval ---------------------------------------------------------------------------------------

const EVAL_HELP = `Usage:
  paravt eval launch --name NAME --model MODEL_ID [--model …] --dataset DATASET_ID [--dataset …]
                     [--mode direct|reasoning|agentic_general|agentic_minimal …] [--k 64 …]
                     [--limit N] [--knobs '{"temperature": 0, "maxTurns": 3}'] [--wait]
      one run per model x dataset x mode x K (SPEC §5; default mode agentic_general, K 64);
      prints the group and its runs; --wait follows them with a progress bar (exit 1 if one fails).
      Needs a token with the LAUNCH scope.
`;

export const evalCommand = group("eval", "launch an evaluation (and wait for it)", EVAL_HELP, {
  async launch(argv, io) {
    const { values } = args(argv, {
      name: { type: "string" },
      model: { type: "string", multiple: true },
      dataset: { type: "string", multiple: true },
      mode: { type: "string", multiple: true },
      k: { type: "string", multiple: true },
      limit: { type: "string" },
      knobs: { type: "string" },
      wait: { type: "boolean" },
    });
    let knobs: Record<string, unknown> = {};
    if (values.knobs) {
      try {
        knobs = JSON.parse(values.knobs) as Record<string, unknown>;
      } catch {
        throw new UsageError("--knobs must be a JSON object");
      }
    }
    const ks = (values.k ?? ["64"]).map(Number);
    if (ks.some((k) => !Number.isInteger(k))) throw new UsageError("--k takes integers");
    const { config, api } = await session();
    const launched = await api.launchEval(config.projectId, {
      name: required(values.name, "--name"),
      modelIds: values.model ?? [],
      datasetIds: values.dataset ?? [],
      modes: (values.mode ?? ["agentic_general"]) as ("direct" | "reasoning" | "agentic_general" | "agentic_minimal")[],
      ks,
      knobs,
      ...(values.limit ? { sampleLimit: Number(values.limit) } : {}),
    });
    io.stderr.write(`launched "${launched.group.name}": ${launched.runs.length} runs (group ${launched.group.id})\n`);
    if (!values.wait) {
      io.stdout.write(`${JSON.stringify(launched)}\n`);
      return 0;
    }
    return waitAndReport(
      api,
      config.projectId,
      launched.runs.map((r) => r.id),
      io,
    );
  },
});

// ----- dataset ------------------------------------------------------------------------------------

const DATASET_HELP = `Usage:
  paravt dataset list
  paravt dataset import --name NAME --path DIR                      a needle suite directory
  paravt dataset import --name NAME --benchmark ID --path PATH [--video-dir DIR] [--split S] [--subtitles]
      a benchmark copy in its published layout (videomme, longvideobench, lvbench, mlvu, mmvu,
      charades_sta, custom, paravt-parquet); paths are on the workbench's machine, inside its
      MEDIA_ROOTS. Add --wait to follow the import job.
`;

export const datasetCommand = group("dataset", "list datasets, import a suite or a benchmark", DATASET_HELP, {
  async list(argv, io) {
    args(argv, {});
    const { config, api } = await session();
    for (const d of await api.listDatasets(config.projectId)) io.stdout.write(`${JSON.stringify(d)}\n`);
    return 0;
  },
  async import(argv, io) {
    const { values } = args(argv, {
      name: { type: "string" },
      path: { type: "string" },
      benchmark: { type: "string" },
      "video-dir": { type: "string" },
      split: { type: "string" },
      subtitles: { type: "boolean" },
      wait: { type: "boolean" },
    });
    const name = required(values.name, "--name");
    const dir = required(values.path, "--path");
    const { config, api } = await session();
    const out = values.benchmark
      ? await api.importBenchmark(config.projectId, {
          name,
          path: dir,
          benchmark: values.benchmark as Parameters<typeof api.importBenchmark>[1]["benchmark"],
          ...(values["video-dir"] ? { videoDir: values["video-dir"] } : {}),
          ...(values.split ? { split: values.split } : {}),
          ...(values.subtitles ? { subtitles: true } : {}),
        })
      : await api.importSuite(config.projectId, { name, path: dir });
    io.stderr.write(`importing into dataset ${out.dataset.id} (run ${out.runId})\n`);
    if (!values.wait) {
      io.stdout.write(`${JSON.stringify(out)}\n`);
      return 0;
    }
    return waitAndReport(api, config.projectId, [out.runId], io);
  },
});
