// The comparison page's state lives in the URL (`?sample=<id>&runs=a,b`) so a link reproduces the
// view. Values the API would refuse are dropped here instead of failing the page.
import { MAX_COMPARED_RUNS } from "@paravt/shared";

export interface CompareParams {
  sampleId: string | null;
  runIds: string[];
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function compareParamsFrom(params: URLSearchParams): CompareParams {
  const sample = params.get("sample");
  const runs = (params.get("runs") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => ID.test(s));
  return {
    sampleId: sample && ID.test(sample) ? sample : null,
    runIds: [...new Set(runs)].slice(0, MAX_COMPARED_RUNS),
  };
}

/** `/projects/<p>/compare?sample=…&runs=…` for a state (an empty part is left out). */
export function compareHref(projectId: string, state: CompareParams): string {
  const q = new URLSearchParams();
  if (state.sampleId) q.set("sample", state.sampleId);
  if (state.runIds.length) q.set("runs", state.runIds.join(","));
  const s = q.toString().replace(/%2C/g, ",");
  return `/projects/${projectId}/compare${s ? `?${s}` : ""}`;
}

/** Adds or removes a run, keeping at most MAX_COMPARED_RUNS (the oldest choice drops out). */
export function toggleRun(runIds: readonly string[], runId: string): string[] {
  if (runIds.includes(runId)) return runIds.filter((r) => r !== runId);
  return [...runIds, runId].slice(-MAX_COMPARED_RUNS);
}
