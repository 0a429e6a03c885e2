"use client";
import { useEffect, useRef } from "react";

/** Where j and k are text being typed. */
const TYPING = "input, textarea, select, [contenteditable='true']";
/** Where Enter already means something (follow the link, press the button). */
const ACTIVATES = "a, button, summary, [role='radio']";

/**
 * j / k move a row selection and Enter opens the selected row, like a mail client. Keys typed in
 * a form control (or with a modifier) are left alone, so filters keep working.
 */
export function useRowKeys({
  count,
  selected,
  onSelect,
  onOpen,
  onPastEnd,
}: {
  count: number;
  selected: number;
  onSelect: (index: number) => void;
  onOpen: (index: number) => void;
  /** j on the last row (e.g. to load the next page). */
  onPastEnd?: () => void;
}) {
  // Latest values without re-subscribing the listener on every render.
  const state = useRef({ count, selected, onSelect, onOpen, onPastEnd });
  useEffect(() => {
    state.current = { count, selected, onSelect, onOpen, onPastEnd };
  });
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(TYPING)) return;
      const s = state.current;
      if (e.key === "j") {
        e.preventDefault();
        if (s.selected + 1 < s.count) s.onSelect(s.selected + 1);
        else s.onPastEnd?.();
      } else if (e.key === "k") {
        e.preventDefault();
        if (s.count > 0) s.onSelect(Math.max(0, s.selected - 1));
      } else if (e.key === "Enter" && !target?.closest(ACTIVATES) && s.selected >= 0 && s.selected < s.count) {
        e.preventDefault();
        s.onOpen(s.selected);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
