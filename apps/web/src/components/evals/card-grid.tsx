"use client";
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useSessionValue } from "@/lib/session-value";
import { GRID_KEYS, gridMove, type GridKey } from "./sample-grid-model";

/** Where the focused card of a grid view is remembered, so Back returns to the same card. */
const memoryKey = (scope: string) => `paravt:grid-selection:${scope}`;

export interface CardProps {
  tabIndex: number;
  current: boolean;
  linkRef: (el: HTMLAnchorElement | null) => void;
  onFocus: () => void;
}

/** Cards on the first row: how many columns the responsive grid has right now. */
function columnsOf(links: readonly (HTMLAnchorElement | null)[]): number {
  const first = links[0]?.getBoundingClientRect().top;
  if (first === undefined) return 1;
  let n = 0;
  for (const l of links) {
    if (!l || Math.abs(l.getBoundingClientRect().top - first) > 1) break;
    n++;
  }
  return Math.max(1, n);
}

/**
 * A responsive grid of card links with one tab stop: arrow keys (and Home / End) move the focus
 * between cards, Enter follows the focused card's link, and moving down or right past the last
 * row asks for the next page (`onPastEnd`), then continues there. The focused card survives a
 * round trip to the page it opens (sessionStorage, per `scope`: the view and its filters).
 */
export function CardGrid({
  label,
  count,
  scope,
  loading,
  empty,
  hint,
  onPastEnd,
  renderCard,
}: {
  label: string;
  count: number;
  scope: string;
  loading: boolean;
  empty: string;
  /** What Enter opens, for the keys' hint line. */
  hint: string;
  onPastEnd?: () => void;
  renderCard: (index: number, props: CardProps) => ReactNode;
}) {
  // From sessionStorage after hydration (useSessionValue): the server knows no remembered card.
  const [stored, store] = useSessionValue(memoryKey(scope));
  const active = stored === null ? -1 : Number(stored);
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  const restored = useRef(false);
  const pending = useRef<{ from: number; key: GridKey } | null>(null);

  function focusCard(i: number) {
    const el = links.current[i];
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  }

  function remember(i: number) {
    store(String(i));
  }

  useEffect(() => {
    // Back from an episode: the remembered card takes the focus once its page is loaded again.
    if (!restored.current && active >= 0 && active < count) {
      restored.current = true;
      focusCard(active);
    }
    // A move past the end waited for the next page: finish it on the new cards.
    const p = pending.current;
    if (p && p.from + 1 < count) {
      pending.current = null;
      const next = gridMove(p.from, p.key, columnsOf(links.current), count);
      if (typeof next === "number") focusCard(next);
    }
  }, [active, count]);

  function onKeyDown(e: KeyboardEvent<HTMLUListElement>) {
    if (!GRID_KEYS.has(e.key) || e.metaKey || e.ctrlKey || e.altKey || e.shiftKey) return;
    e.preventDefault();
    const from = links.current.findIndex((l) => l === document.activeElement);
    if (from < 0) {
      focusCard(active >= 0 && active < count ? active : 0);
      return;
    }
    const next = gridMove(from, e.key as GridKey, columnsOf(links.current), count);
    if (next === "past-end") {
      if (onPastEnd) {
        pending.current = { from, key: e.key as GridKey };
        onPastEnd();
      }
    } else if (next !== null) {
      focusCard(next);
    }
  }

  const tabStop = active >= 0 && active < count ? active : 0;
  return (
    <div className="flex flex-col gap-2">
      <p id="grid-keys" className="text-xs text-muted">
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">←</kbd>{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">→</kbd>{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">↑</kbd>{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">↓</kbd> move ·{" "}
        <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">Enter</kbd> {hint}
      </p>
      <ul
        aria-label={label}
        aria-describedby="grid-keys"
        aria-busy={loading}
        onKeyDown={onKeyDown}
        className="grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-3"
      >
        {Array.from({ length: count }, (_, i) =>
          renderCard(i, {
            tabIndex: i === tabStop ? 0 : -1,
            current: i === active,
            linkRef: (el) => {
              links.current[i] = el;
            },
            onFocus: () => remember(i),
          }),
        )}
      </ul>
      {!loading && count === 0 && (
        <p className="rounded-lg border border-line bg-surface px-4 py-6 text-center text-sm text-muted">{empty}</p>
      )}
    </div>
  );
}
