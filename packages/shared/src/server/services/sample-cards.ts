// What the eval and dataset sample grids share on the server (contracts/sample-grid.ts): the
// card's video and the bounded texts.
import type { Prisma } from "@paravt/db";
import { GRID_TEXT_CAP, type GridVideo } from "../../contracts/sample-grid";
import { videoAssets } from "./videos";

/** The sample's video as a card needs it (duration for the mini timeline, sprites or not). */
export function cardVideo(
  v: { id: string; durationS: number | null; assets: Prisma.JsonValue } | null,
): GridVideo | null {
  if (!v) return null;
  return { id: v.id, durationS: v.durationS, hasFilmstrip: Boolean(videoAssets(v).filmstrip) };
}

/**
 * At most `max` characters of `text`, with "…" when cut; never ends on the first half of a
 * surrogate pair (JSON would carry it as an unpaired \ud8xx).
 */
export function clipText(text: string, max = GRID_TEXT_CAP): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The question's first line (a card's title), clipped. */
export const questionLine = (question: string) => clipText(question.split("\n")[0] ?? "");
