// Where picked training runs are overlaid: the compare page (`/runs/compare?runs=a,b`), one line
// per run in every chart. Pure, so the runs table's model and the run page's picker share it.

/** The most runs one overlay draws (the dashboard has this many run colours). */
export const MAX_OVERLAY_RUNS = 5;

export function overlayHref(projectId: string, runIds: readonly string[]): string {
  return `/projects/${projectId}/runs/compare?runs=${runIds.join(",")}`;
}
