// Typed TypeScript client of the workbench's REST API (/api/v1, issue 11). Types come from the
// API's own OpenAPI document (src/schema.ts, generated), calls go through openapi-fetch, and
// every failure becomes an ApiError with the status and the server's message.
import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };

export interface ParavtClientOptions {
  /** The workbench, e.g. http://localhost:3000 (the client adds /api/v1). */
  url: string;
  /** A project API token, `pvt_…`. */
  token: string;
  fetch?: typeof globalThis.fetch;
}

/** An HTTP error answer, or a request that never got one (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
    /** From Retry-After on 429 / 503. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Worth trying again: no answer, rate limited, or a server-side failure. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

function messageOf(body: unknown, status: number): string {
  const m =
    (body as { message?: unknown; error?: unknown } | null)?.message ?? (body as { error?: unknown } | null)?.error;
  return typeof m === "string" && m ? `${m} (HTTP ${status})` : `HTTP ${status}`;
}

function retryAfter(res: Response): number | undefined {
  const v = res.headers.get("retry-after");
  if (!v) return undefined;
  const s = Number(v);
  return Number.isFinite(s) ? s * 1000 : Math.max(0, Date.parse(v) - Date.now()) || undefined;
}

/** The data of a successful answer with the answer itself (its headers), or an ApiError. */
async function unwrapWithResponse<T>(
  p: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; response: Response }> {
  let out: { data?: T; error?: unknown; response: Response };
  try {
    out = await p;
  } catch (e) {
    throw new ApiError(0, `no answer from the workbench: ${(e as Error).message}`);
  }
  if (out.response.ok && out.data !== undefined) return { data: out.data, response: out.response };
  throw new ApiError(
    out.response.status,
    messageOf(out.error, out.response.status),
    out.error ?? null,
    retryAfter(out.response),
  );
}

/** The data of a successful answer, or an ApiError. */
async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  return (await unwrapWithResponse(p)).data;
}

type Body<P extends keyof paths, M extends "post" | "put" | "patch"> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

type RunStatus = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
const FINISHED: ReadonlySet<string> = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);
export type RunSummary = operations["runs-byId"]["responses"][200]["content"]["application/json"];

export type MetricItem = Body<"/projects/{projectId}/external-runs/{runId}/metrics", "post">["items"][number];
export type RolloutItem = Body<"/projects/{projectId}/external-runs/{runId}/rollouts", "post">["items"][number];

export function createParavtClient(o: ParavtClientOptions) {
  const raw: Client<paths> = createClient<paths>({
    baseUrl: `${o.url.replace(/\/+$/, "")}/api/v1`,
    headers: { authorization: `Bearer ${o.token}` },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });

  const api = {
    /** openapi-fetch itself, for operations without a helper here (every path is typed). */
    raw,
    whoami: () => unwrap(raw.GET("/whoami", {})),

    // ----- ingestion (docs/ingestion-format.md) -----
    createExternalRun: (projectId: string, body: Body<"/projects/{projectId}/external-runs", "post">) =>
      unwrap(raw.POST("/projects/{projectId}/external-runs", { params: { path: { projectId } }, body })),
    setExternalRunStatus: (
      projectId: string,
      runId: string,
      body: Body<"/projects/{projectId}/external-runs/{runId}/status", "post">,
    ) =>
      unwrap(
        raw.POST("/projects/{projectId}/external-runs/{runId}/status", {
          params: { path: { projectId, runId } },
          body,
        }),
      ),
    ingestMetrics: (projectId: string, runId: string, items: MetricItem[]) =>
      unwrap(
        raw.POST("/projects/{projectId}/external-runs/{runId}/metrics", {
          params: { path: { projectId, runId } },
          body: { items },
        }),
      ),
    ingestRollouts: (projectId: string, runId: string, items: RolloutItem[]) =>
      unwrap(
        raw.POST("/projects/{projectId}/external-runs/{runId}/rollouts", {
          params: { path: { projectId, runId } },
          body: { items },
        }),
      ),

    /** Every episode of a run with its full trajectory, page by page. */
    async *episodes(projectId: string, runId: string, pageSize = 50) {
      let cursor: string | undefined;
      do {
        const page = await unwrap(
          raw.GET("/projects/{projectId}/runs/{runId}/episodes", {
            params: { path: { projectId, runId }, query: { limit: pageSize, ...(cursor ? { cursor } : {}) } },
          }),
        );
        yield* page.items;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },

    // ----- runs, evaluations, datasets -----
    listRuns: (projectId: string, query: { status?: RunStatus; limit?: number } = {}) =>
      unwrap(raw.GET("/projects/{projectId}/runs", { params: { path: { projectId }, query } })),
    getRun: (projectId: string, runId: string) =>
      unwrap(raw.GET("/projects/{projectId}/runs/{runId}", { params: { path: { projectId, runId } } })),
    metricNames: (projectId: string, runId: string) =>
      unwrap(raw.GET("/projects/{projectId}/runs/{runId}/metric-names", { params: { path: { projectId, runId } } })),
    /**
     * Every point of the named series, all pages of the export concatenated (CSV or JSON rows).
     * CSV pages come as text/csv, the next page's afterStep in X-Next-After-Step.
     */
    async exportMetrics(projectId: string, runId: string, names: string[], format: "csv" | "json") {
      const parts: string[] = [];
      let afterStep: number | undefined;
      for (;;) {
        const request = {
          params: {
            path: { projectId, runId },
            query: { names, format, ...(afterStep !== undefined ? { afterStep } : {}) },
          },
        };
        let next: number | null;
        if (format === "csv") {
          const { data, response } = await unwrapWithResponse(
            raw.GET("/projects/{projectId}/runs/{runId}/metrics/export", { ...request, parseAs: "text" }),
          );
          parts.push(data);
          const header = response.headers.get("x-next-after-step");
          next = header ? Number(header) : null;
        } else {
          const page = await unwrap(raw.GET("/projects/{projectId}/runs/{runId}/metrics/export", request));
          // The document lists the CSV text beside the JSON object; format=json answers the object.
          if (typeof page === "string") throw new ApiError(200, "the JSON export answered text");
          parts.push(page.content);
          next = page.nextAfterStep;
        }
        if (next === null) break;
        afterStep = next;
      }
      if (format === "csv") return parts.join("");
      return JSON.stringify(parts.flatMap((p) => (p ? (JSON.parse(p) as unknown[]) : [])));
    },
    launchEval: (projectId: string, body: Body<"/projects/{projectId}/evals", "post">) =>
      unwrap(raw.POST("/projects/{projectId}/evals", { params: { path: { projectId } }, body })),
    listDatasets: (projectId: string) =>
      unwrap(raw.GET("/projects/{projectId}/datasets", { params: { path: { projectId } } })),
    importSuite: (projectId: string, body: Body<"/projects/{projectId}/datasets/import-suite", "post">) =>
      unwrap(raw.POST("/projects/{projectId}/datasets/import-suite", { params: { path: { projectId } }, body })),
    importBenchmark: (projectId: string, body: Body<"/projects/{projectId}/datasets/import-benchmark", "post">) =>
      unwrap(raw.POST("/projects/{projectId}/datasets/import-benchmark", { params: { path: { projectId } }, body })),

    /**
     * Polls runs until each is finished (SUCCEEDED, FAILED or CANCELLED), reporting every change;
     * resolves with their final state.
     */
    async waitForRuns(
      projectId: string,
      runIds: string[],
      onChange: (runs: RunSummary[]) => void,
      opts: { intervalMs?: number; signal?: AbortSignal } = {},
    ): Promise<RunSummary[]> {
      let last = "";
      for (;;) {
        const runs: RunSummary[] = [];
        for (const id of runIds) runs.push(await api.getRun(projectId, id));
        const key = JSON.stringify(runs.map((r) => [r.status, r.progress, r.message]));
        if (key !== last) onChange(runs);
        last = key;
        if (runs.every((r) => FINISHED.has(r.status))) return runs;
        if (opts.signal?.aborted) throw new Error("stopped waiting");
        await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
      }
    },

    /** The uploader's view of the ingestion endpoints of one project (paravt ingest). */
    ingestApi(projectId: string) {
      return {
        createRun: async (input: Body<"/projects/{projectId}/external-runs", "post">) => {
          const r = await api.createExternalRun(projectId, input);
          return { runId: r.run.id, created: r.created };
        },
        metrics: (runId: string, items: MetricItem[]) => api.ingestMetrics(projectId, runId, items),
        rollouts: (runId: string, items: RolloutItem[]) => api.ingestRollouts(projectId, runId, items),
        setStatus: async (runId: string, body: Body<"/projects/{projectId}/external-runs/{runId}/status", "post">) => {
          await api.setExternalRunStatus(projectId, runId, body);
        },
      };
    },
  };
  return api;
}

export type ParavtClient = ReturnType<typeof createParavtClient>;
