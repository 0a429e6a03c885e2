"use client";
import { DURATION_CATEGORIES, QUESTION_TYPES, SAMPLE_OUTCOMES } from "@paravt/shared";
import { cn } from "../ui/cn";
import { Field, Input, Select } from "../ui/input";
import { FILTER_PARAMS, hasFilters, type SampleFilters } from "./sample-filters";

type Patch = Partial<Record<keyof SampleFilters, string | number | undefined>>;

const OUTCOME_LABEL = { correct: "Correct", wrong: "Wrong", error: "Error" } as const;

/** Filter controls of the samples table; every change goes to the URL (`onChange`). */
export function SampleFiltersBar({
  filters,
  onChange,
  onClear,
}: {
  filters: SampleFilters;
  onChange: (patch: Patch) => void;
  onClear: () => void;
}) {
  const numeric = (v: string) => (v.trim() === "" ? undefined : v);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1.5 text-sm">
        <span className="font-medium" id="outcome-label">
          Outcome
        </span>
        <div
          role="radiogroup"
          aria-labelledby="outcome-label"
          className="flex h-10 rounded-md border border-line p-0.5"
        >
          {[undefined, ...SAMPLE_OUTCOMES].map((o) => {
            const on = filters.outcome === o;
            return (
              <button
                key={o ?? "all"}
                type="button"
                role="radio"
                aria-checked={on}
                onClick={() => onChange({ outcome: o })}
                className={cn(
                  "rounded px-3 text-sm",
                  on ? "bg-accent text-accent-fg" : "text-muted hover:bg-surface-2 hover:text-fg",
                )}
              >
                {o ? OUTCOME_LABEL[o] : "All"}
              </button>
            );
          })}
        </div>
      </div>
      <div className="w-36">
        <Field label="Question type">
          <Select value={filters.questionType ?? ""} onChange={(e) => onChange({ questionType: e.target.value })}>
            <option value="">any</option>
            {QUESTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="w-28">
        <Field label="Min tool calls">
          <Input
            type="number"
            min={0}
            name={FILTER_PARAMS.minToolCalls}
            value={filters.minToolCalls ?? ""}
            onChange={(e) => onChange({ minToolCalls: numeric(e.target.value) })}
          />
        </Field>
      </div>
      <div className="w-28">
        <Field label="Max tool calls">
          <Input
            type="number"
            min={0}
            name={FILTER_PARAMS.maxToolCalls}
            value={filters.maxToolCalls ?? ""}
            onChange={(e) => onChange({ maxToolCalls: numeric(e.target.value) })}
          />
        </Field>
      </div>
      <div className="w-24">
        <Field label="K">
          <Input
            type="number"
            min={1}
            name={FILTER_PARAMS.k}
            value={filters.k ?? ""}
            onChange={(e) => onChange({ k: numeric(e.target.value) })}
          />
        </Field>
      </div>
      <div className="w-32">
        <Field label="Duration">
          <Select value={filters.duration ?? ""} onChange={(e) => onChange({ duration: e.target.value })}>
            <option value="">any</option>
            {DURATION_CATEGORIES.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {hasFilters(filters) && (
        <button type="button" onClick={onClear} className="h-10 text-sm text-accent hover:underline">
          Clear filters
        </button>
      )}
    </div>
  );
}
