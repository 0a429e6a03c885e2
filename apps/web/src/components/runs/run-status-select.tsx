"use client";
// The run-status filter of the Jobs and Training pages: "" is every status.
import { RUN_STATUSES, type RunStatus } from "@paravt/shared";
import { Select } from "../ui/input";

export function RunStatusSelect({
  value,
  onChange,
}: {
  value: RunStatus | "";
  onChange: (status: RunStatus | "") => void;
}) {
  return (
    <Select
      aria-label="Filter by status"
      value={value}
      onChange={(e) => onChange(e.target.value as RunStatus | "")}
      className="w-40"
    >
      <option value="">All statuses</option>
      {RUN_STATUSES.map((s) => (
        <option key={s} value={s}>
          {s.toLowerCase()}
        </option>
      ))}
    </Select>
  );
}
