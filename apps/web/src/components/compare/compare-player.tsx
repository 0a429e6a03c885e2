"use client";
import type { CompareColumnOutput, CompareSampleOutput } from "@paravt/shared";
import { useMemo } from "react";
import { MODE_LABEL } from "../evals/format";
import { laneGroupOf, LanesPlayer, type LaneGroup } from "../viewer";

/** The label of a model's lane group: its position in the table, the model, mode and K. */
export function columnLabel(c: CompareColumnOutput, i: number): string {
  return `${i + 1}. ${c.run.model?.name ?? "deleted model"} · ${MODE_LABEL[c.run.mode]} · K=${c.run.k}`;
}

/**
 * The comparison's player: the sample's video and every compared model's lanes on one shared time
 * axis (the viewer's LanesPlayer, one lane group per model, in the table's order).
 */
export function ComparePlayer({ sample, columns }: { sample: CompareSampleOutput; columns: CompareColumnOutput[] }) {
  const groups: LaneGroup[] = useMemo(
    () => columns.flatMap((c, i) => (c.episode ? [laneGroupOf(c.episode, columnLabel(c, i))] : [])),
    [columns],
  );
  return (
    <LanesPlayer
      video={sample.video}
      groups={groups}
      label="Lanes per model"
      empty="No episode stored yet: lanes appear as each model finishes."
    />
  );
}
