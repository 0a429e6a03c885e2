// Layout and liveness choices of the comparison page, kept pure so they are unit-tested.
import type { RunStatus } from "@paravt/shared";

/** How long a "still running" comparison waits between polls (a safety net under the SSE events). */
export const ACTIVE_POLL_MS = 3000;

const ACTIVE: readonly RunStatus[] = ["QUEUED", "RUNNING"];

/** True while a run may still change (queued or running). */
export const isActiveStatus = (s: RunStatus): boolean => ACTIVE.includes(s);

/**
 * The comparison query's refetch interval: poll while any compared run is queued or running (a run
 * just started by "Run now" may change before the page watches its id, or while the live
 * connection reconnects), and stop once every run has finished.
 */
export function compareRefetchMs(columns: readonly { run: { status: RunStatus } }[] | undefined): number | false {
  return columns?.some((c) => isActiveStatus(c.run.status)) ? ACTIVE_POLL_MS : false;
}

/**
 * Where the side-by-side table goes: beside the player ("side", wide screens) for up to two
 * models, where its columns stay readable at half the page; above the player ("stacked") for three
 * or four, so that it keeps the full width. Either way it starts within the first viewport.
 */
export function comparisonLayout(columnCount: number): "side" | "stacked" {
  return columnCount <= 2 ? "side" : "stacked";
}

/**
 * Whether the run pickers start unfolded: yes while nothing is compared (picking is the next
 * step); folded when the page opens on a comparison (a link, or after "Run now"), so that the
 * comparison is above the fold.
 */
export const pickersStartOpen = (runIds: readonly string[]): boolean => runIds.length === 0;

/**
 * The pickers' fold state as the URL changes: always unfolded while no run is compared; folded
 * once the runs a "Run now" started are in the URL (`foldPending`, set on launch, since the URL
 * changes a render later); otherwise as the user left it.
 */
export function nextPickers(
  s: { open: boolean; foldPending: boolean },
  runCount: number,
): { open: boolean; foldPending: boolean } {
  if (runCount === 0) return { open: true, foldPending: s.foldPending };
  if (s.foldPending) return { open: false, foldPending: false };
  return s;
}
