// The Training tab's pure logic (issue 41 item 8): filters kept in the URL, and what a row shows.
import {
  RUN_STATUSES,
  TRAINING_RUN_KINDS,
  type RunStatus,
  type TrainingRunKind,
  type TrainingRunRow,
} from "@paravt/shared";
import { formatDuration } from "../format";

export type TrainingFilters = { kind?: TrainingRunKind; status?: RunStatus };

/** `?kind=sft|rl&status=RUNNING`; unknown values are dropped (the list then shows everything). */
export function parseTrainingFilters(params: { get(name: string): string | null }): TrainingFilters {
  const kind = params.get("kind");
  const status = params.get("status");
  return {
    ...((TRAINING_RUN_KINDS as readonly string[]).includes(kind ?? "") ? { kind: kind as TrainingRunKind } : {}),
    ...((RUN_STATUSES as readonly string[]).includes(status ?? "") ? { status: status as RunStatus } : {}),
  };
}

/** The query string of `filters` ("" when none, else starting with "?"). */
export function trainingFiltersQuery(filters: TrainingFilters): string {
  const q = new URLSearchParams();
  if (filters.kind) q.set("kind", filters.kind);
  if (filters.status) q.set("status", filters.status);
  const s = q.toString();
  return s ? `?${s}` : "";
}

export type TrainingRowView = {
  /** "SFT" / "RL". */
  kind: string;
  /** "loss 1.250" (SFT) / "reward 0.500" (RL); "—" before the first step. */
  headline: string;
  /** "3 / 10" steps done of configured; "— / 10" before the first. */
  steps: string;
  /** Wall time from start to finish (to `now` while running); "—" before the start. */
  duration: string;
};

function figure(v: number): string {
  return Math.abs(v) >= 1000 || (v !== 0 && Math.abs(v) < 0.001) ? v.toExponential(2) : v.toFixed(3);
}

export function trainingRowView(row: TrainingRunRow, now: Date): TrainingRowView {
  const headline =
    row.kind === "sft"
      ? row.lastLoss === null
        ? "—"
        : `loss ${figure(row.lastLoss)}`
      : row.lastReward === null
        ? "—"
        : `reward ${figure(row.lastReward)}`;
  const done = row.lastStep === null ? "—" : String(row.lastStep);
  const steps = row.totalSteps === null ? done : `${done} / ${row.totalSteps}`;
  const end = row.finishedAt ?? (row.status === "RUNNING" ? now : null);
  const duration =
    row.startedAt && end ? formatDuration(Math.max(0, (end.getTime() - row.startedAt.getTime()) / 1000)) : "—";
  return { kind: row.kind === "sft" ? "SFT" : "RL", headline, steps, duration };
}
