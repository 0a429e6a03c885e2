"use client";
import type { EvalEpisodeOutput } from "@paravt/shared";
import { Badge } from "../ui/badge";
import { cn } from "../ui/cn";
import { laneBg } from "../viewer/lane-colors";
import { windowId } from "../viewer/lane-model";
import { clock, ms } from "./format";

type ToolCall = EvalEpisodeOutput["turns"][number]["toolCalls"][number];

const STATUS_TONE = { OK: "success", ERROR: "danger", REJECTED: "warning" } as const;

/**
 * The crop_video calls of one turn in the viewer's transcript pane (SPEC §1.4): the window used
 * (end clamped to the duration), frames, status, time and the sub-agent output or tool response.
 * Selecting a call selects its window on the timeline (and seeks there); the selected call is
 * marked and scrolled into view when the timeline selects it.
 */
export function EpisodeCalls({
  turn,
  calls,
  selected,
  onSelect,
}: {
  turn: number;
  calls: ToolCall[];
  selected: string | null;
  onSelect(id: string): void;
}) {
  return (
    <ol className="flex flex-col gap-1.5" aria-label={`Tool calls of turn ${turn + 1}`}>
      {calls.map((c) => {
        const id = windowId(turn, c.index);
        const hasWindow = c.startS !== null && c.endS !== null && c.endS > c.startS;
        const isSel = selected === id;
        const response =
          c.subAgentOutput ??
          (c.details &&
          typeof c.details === "object" &&
          typeof (c.details as { response?: unknown }).response === "string"
            ? (c.details as { response: string }).response
            : null);
        return (
          <li
            key={c.index}
            data-call={id}
            aria-current={isSel ? "true" : undefined}
            className={cn("rounded-md border p-2 text-xs", isSel ? "border-fg bg-surface-2" : "border-line")}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className={cn("inline-block size-2.5 shrink-0 rounded-sm", laneBg(c.index))} aria-hidden />
              <button
                type="button"
                disabled={!hasWindow}
                onClick={() => onSelect(id)}
                className="font-mono tabular-nums text-accent hover:underline disabled:text-muted disabled:no-underline"
                aria-label={`Select call ${c.index + 1} of turn ${turn + 1}`}
              >
                #{c.index + 1} {clock(c.startS)} – {clock(c.endS)}
              </button>
              {c.startS !== null && c.endS !== null && (
                <span className="text-muted">{(c.endS - c.startS).toFixed(1)} s</span>
              )}
              <span className="text-muted">
                {c.frameTimestamps.length} frame{c.frameTimestamps.length === 1 ? "" : "s"}
              </span>
              {c.clamped && <Badge tone="warning">clamped</Badge>}
              <Badge tone={STATUS_TONE[c.status]}>{c.status.toLowerCase()}</Badge>
              <span className="ml-auto tabular-nums text-muted">{ms(c.durationMs)}</span>
            </div>
            {c.error && <p className="mt-1 text-danger">{c.error}</p>}
            {response && <p className="mt-1 line-clamp-4 whitespace-pre-wrap text-fg/90">{response}</p>}
          </li>
        );
      })}
    </ol>
  );
}
