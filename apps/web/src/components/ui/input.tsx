import { cloneElement, useId, type ComponentProps, type ReactElement } from "react";
import { cn } from "./cn";

// Full width unless the caller sets a width.
const width = (className?: string) => (className && /(^|\s)w-/.test(className) ? "" : "w-full");
const field =
  "h-10 rounded-md border border-line bg-surface px-3 text-sm text-fg placeholder:text-muted focus:border-accent focus:outline-none aria-[invalid=true]:border-danger";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(field, width(className), className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(field, width(className), "pr-8", className)} {...props} />;
}

/**
 * A labelled form control. The label points at the control with htmlFor (instead of wrapping
 * it) so the control's accessible name is exactly the label, not the label plus option texts.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  /** A validation message shown under the control and linked to it (aria-describedby). */
  error?: string | null;
  children: ReactElement<{ id?: string; "aria-invalid"?: boolean; "aria-describedby"?: string }>;
}) {
  const generated = useId();
  const id = children.props.id ?? generated;
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5 text-sm">
      <label htmlFor={id} className="font-medium text-fg">
        {label}
      </label>
      {cloneElement(children, error ? { id, "aria-invalid": true, "aria-describedby": errorId } : { id })}
      {error && (
        <span id={errorId} className="text-xs text-danger">
          {error}
        </span>
      )}
      {hint && <span className="text-xs text-muted">{hint}</span>}
    </div>
  );
}
