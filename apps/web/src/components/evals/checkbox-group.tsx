import { useId, type ReactNode } from "react";
import { cn } from "../ui/cn";

export interface CheckboxOption<T extends string | number> {
  value: T;
  label: string;
  hint?: ReactNode;
}

/**
 * A multi-select as a fieldset of checkboxes: the legend names the group (getByRole("group")),
 * each box is labelled by its option, and the error is linked to the group.
 */
export function CheckboxGroup<T extends string | number>({
  legend,
  options,
  selected,
  onChange,
  error,
  empty,
  inline = false,
  className,
}: {
  legend: string;
  options: readonly CheckboxOption<T>[];
  selected: readonly T[];
  onChange: (next: T[]) => void;
  error?: string | null;
  /** Shown instead of the boxes when there is nothing to pick. */
  empty?: ReactNode;
  /** Options side by side (short labels such as K values). */
  inline?: boolean;
  className?: string;
}) {
  const errorId = useId();
  const toggle = (v: T, on: boolean) =>
    // Keeps the options' order, which is the order of rows and columns in the results.
    onChange(options.map((o) => o.value).filter((x) => (x === v ? on : selected.includes(x))));
  return (
    <fieldset
      className={cn("flex min-w-0 flex-col gap-1.5 text-sm", className)}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="mb-1.5 font-medium text-fg">{legend}</legend>
      {options.length === 0 && <p className="text-xs text-muted">{empty}</p>}
      <div className={inline ? "flex flex-wrap gap-1.5" : "flex flex-col gap-1"}>
        {options.map((o) => (
          <label
            key={String(o.value)}
            className={cn(
              "flex cursor-pointer items-start gap-2 rounded-md border px-2.5 py-1.5",
              selected.includes(o.value) ? "border-accent/60 bg-accent/5" : "border-line hover:border-muted",
            )}
          >
            <input
              type="checkbox"
              className="mt-0.5 accent-[var(--accent)]"
              checked={selected.includes(o.value)}
              onChange={(e) => toggle(o.value, e.target.checked)}
            />
            <span className="flex min-w-0 flex-col">
              <span className="truncate">{o.label}</span>
              {o.hint && <span className="text-xs text-muted">{o.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <span id={errorId} className="text-xs text-danger">
          {error}
        </span>
      )}
    </fieldset>
  );
}
