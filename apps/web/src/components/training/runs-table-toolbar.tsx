"use client";
// The runs table's controls: the filter (written to the URL after a pause in typing, or on Enter),
// group by a setting, the column picker and the overlay link of the picked runs.
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { MAX_OVERLAY_RUNS, overlayHref } from "./overlay";
import { columnOf, DEFAULT_COLUMNS, RUN_COLUMNS } from "./runs-table-columns";

const FILTER_HELP =
  "Words match a run's name, kind or status. key=value, key!=value, key>x, key>=x, key<x, key<=x compare a " +
  "setting (preset=tiny), else a metric's last value (loss<0.5), or a column key (best:loss<0.4, " +
  'eval:accuracy>0.5). Quote a value with spaces: name="my run". A run without the value matches no comparison.';

/** How long typing pauses before the filter is written to the URL. */
const FILTER_WRITE_MS = 250;

export function FilterInput({
  value,
  problems,
  onChange,
}: {
  value: string;
  problems: string[];
  onChange: (filter: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  // The last filter written, and the last one the URL had: when the URL changes to anything but
  // our own write (back / forward, a link), the input shows it.
  const [sent, setSent] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) {
      setDraft(value);
      setSent(value);
    }
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const write = (v: string) => {
    clearTimeout(timer.current);
    setSent(v);
    onChange(v);
  };
  const problemsId = useId();
  const helpId = useId();
  return (
    <div className="flex min-w-72 flex-1 flex-col gap-1">
      <Input
        type="search"
        aria-label="Filter runs"
        aria-describedby={problems.length ? `${helpId} ${problemsId}` : helpId}
        placeholder="Filter: sft preset=tiny loss<0.5 config:lr>=0.001"
        title={FILTER_HELP}
        value={draft}
        onChange={(e) => {
          const v = e.target.value;
          setDraft(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => write(v), FILTER_WRITE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") write(draft);
        }}
      />
      <span id={helpId} className="sr-only">
        {FILTER_HELP}
      </span>
      {problems.length > 0 && (
        <ul id={problemsId} className="text-xs text-danger">
          {problems.map((p) => (
            <li key={p}>Not applied: {p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function GroupSelect({
  value,
  configKeys,
  onChange,
}: {
  value: string | null;
  configKeys: string[];
  onChange: (group: string | null) => void;
}) {
  // A link may group by a setting no listed run has: it stays offered so the select shows it.
  const keys = value && !configKeys.includes(value) ? [value, ...configKeys] : configKeys;
  return (
    <Select
      aria-label="Group by"
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value || null)}
      className="w-56"
    >
      <option value="">No grouping</option>
      {keys.map((k) => (
        <option key={k} value={k}>
          {`Group by ${columnOf(k)?.label ?? k}`}
        </option>
      ))}
    </Select>
  );
}

/** The column picker: run fields, settings, metric summaries and evaluation figures as checkboxes. */
export function ColumnPicker({
  shown,
  available,
  onToggle,
  onReset,
}: {
  shown: string[];
  available: { config: string[]; summary: string[]; eval: string[] };
  onToggle: (key: string) => void;
  /** Back to the default columns. */
  onReset: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [find, setFind] = useState("");
  const buttonId = useId();
  const panelId = useId();
  const close = () => {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  };
  const matches = (key: string) =>
    `${key} ${columnOf(key)?.label ?? ""}`.toLowerCase().includes(find.trim().toLowerCase());
  // Columns a link asked for that no listed run fills are still listed, so they can be removed.
  const extra = shown.filter(
    (k) =>
      !RUN_COLUMNS.some((c) => c.key === k) &&
      !available.config.includes(k) &&
      !available.summary.includes(k) &&
      !available.eval.includes(k),
  );
  const sections: { title: string; keys: string[] }[] = [
    { title: "Run", keys: RUN_COLUMNS.map((c) => c.key) },
    { title: "Summary", keys: available.summary },
    { title: "Evaluation", keys: available.eval },
    { title: "Settings", keys: available.config },
    { title: "Not in these runs", keys: extra },
  ];
  return (
    <div className="relative">
      <Button
        id={buttonId}
        size="sm"
        variant="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
      >
        Columns ({shown.length})
      </Button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Columns"
          onKeyDown={(e) => {
            if (e.key === "Escape") close();
          }}
          className="absolute right-0 z-20 mt-2 flex max-h-[28rem] w-96 flex-col gap-3 overflow-y-auto rounded-lg border border-line bg-surface p-4 text-sm shadow-lg"
        >
          <div className="flex items-center gap-2">
            <Input
              aria-label="Find a column"
              placeholder="Find a column"
              value={find}
              onChange={(e) => setFind(e.target.value)}
              className="h-8 w-full"
              autoFocus
            />
            <Button size="sm" variant="ghost" onClick={onReset}>
              Default
            </Button>
            <Button size="sm" variant="ghost" onClick={close}>
              Close
            </Button>
          </div>
          {sections.map(({ title, keys }) => {
            const listed = keys.filter(matches);
            if (listed.length === 0) return null;
            return (
              <fieldset key={title} className="flex flex-col gap-1">
                <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">{title}</legend>
                {listed.map((key) => (
                  <label key={key} className="flex items-center gap-2 break-all">
                    <input type="checkbox" checked={shown.includes(key)} onChange={() => onToggle(key)} />
                    <span className={title === "Settings" ? "font-mono text-xs" : undefined}>
                      {columnOf(key)?.label ?? key}
                    </span>
                  </label>
                ))}
              </fieldset>
            );
          })}
          <p className="text-xs text-muted">
            Default: {DEFAULT_COLUMNS.map((k) => columnOf(k)?.label ?? k).join(", ")}.
          </p>
        </div>
      )}
    </div>
  );
}

/** "Overlay N runs" once two or more training runs are ticked. */
export function OverlayLink({
  projectId,
  selected,
  onClear,
}: {
  projectId: string;
  selected: string[];
  onClear: () => void;
}) {
  if (selected.length === 0) {
    return (
      <span className="text-xs text-muted">Tick 2 to {MAX_OVERLAY_RUNS} training runs to overlay their charts</span>
    );
  }
  return (
    <div className="flex items-center gap-2">
      {selected.length >= 2 ? (
        <Link
          href={overlayHref(projectId, selected)}
          className="rounded-md bg-accent px-3 py-1 text-sm font-medium text-accent-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          Overlay {selected.length} runs
        </Link>
      ) : (
        <span className="text-xs text-muted">1 run ticked: tick another to overlay</span>
      )}
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
