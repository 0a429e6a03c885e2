"use client";
import { useState, type ReactNode } from "react";
import { errorMessage } from "@/trpc/client";
import { Button } from "../ui/button";
import { useFullText, type EpisodeTextRef } from "./use-episode";

/**
 * A text of an episode as the episode answer gives it: whole, or a preview (head and tail) when
 * `length` says the stored text is longer; then "Show all" fetches it (`evals.episodeText`).
 * `children` renders whichever text is shown.
 */
export function ClippedText({
  textRef,
  text,
  length,
  children,
}: {
  textRef: EpisodeTextRef;
  text: string;
  /** The stored text's length when `text` is a preview (the object's `clipped[field]`). */
  length: number | undefined;
  children: (text: string) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const full = useFullText(textRef, open && length !== undefined);
  if (length === undefined) return children(text);
  return (
    <div className="flex flex-col gap-1">
      {children(open && full.data !== undefined ? full.data : text)}
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
        {open && full.data !== undefined ? (
          <>
            <span>All {length.toLocaleString()} characters.</span>
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Show the preview
            </Button>
          </>
        ) : (
          <>
            <span>Preview: the start and the end of {length.toLocaleString()} characters.</span>
            <Button size="sm" variant="ghost" disabled={open && full.isFetching} onClick={() => setOpen(true)}>
              {open && full.isFetching ? "Loading…" : `Show all (${Math.ceil(length / 1024)} K characters)`}
            </Button>
          </>
        )}
        {full.error && <span className="text-danger">{errorMessage(full.error)}</span>}
      </div>
    </div>
  );
}
