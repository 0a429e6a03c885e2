// The commands that talk to a running workbench through its REST API (issue 11), with the typed
// client of @paravt/client: auth, ingest, runs, metrics, episodes, eval, dataset. Each reads the
// login saved by `paravt auth login` (or PARAVT_URL / PARAVT_TOKEN / PARAVT_PROJECT).
import { once } from "node:events";
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import type { CliIo, Command } from "../command";
import { maskToken, readConfig, removeConfig, writeConfig, type RemoteConfig } from "../remote/config";

class UsageError extends Error {}

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

async function client(config: RemoteConfig) {
  // Loaded on use: the local commands (reward, parse) never pay for the HTTP client.
  const { createParavtClient } = await import("@paravt/client");
  return createParavtClient({ url: config.url, token: config.token });
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
    const config = await readConfig();
    const me = await (await client(config)).whoami();
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

Exit codes: 0 done, 1 an error (message on stderr), 2 bad arguments.
`;

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
    } catch (e) {
      io.stderr.write(`paravt ingest: ${(e as Error).message}\n\n${INGEST_HELP}`);
      return 2;
    }
    const file = parsed.positionals[0]!;
    try {
      await fs.access(file);
      const config = await readConfig();
      const api = await client(config);
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
      return 0;
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
`;

export const metricsCommand = group(
  "metrics",
  "push metric steps (JSON Lines on stdin) into an external run",
  METRICS_HELP,
  {
    async push(argv, io) {
      const { values } = args(argv, { run: { type: "string" } });
      const runId = required(values.run, "--run");
      const config = await readConfig();
      const api = await client(config);
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
      return 0;
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
      const config = await readConfig();
      const api = await client(config);
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
