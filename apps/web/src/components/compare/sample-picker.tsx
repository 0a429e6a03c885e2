"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/client";
import { Badge } from "../ui/badge";
import { Field, Input } from "../ui/input";

/** Finds a sample of the project by key (or question text) and hands its id to `onPick`. */
export function SamplePicker({ projectId, onPick }: { projectId: string; onPick: (sampleId: string) => void }) {
  const trpc = useTRPC();
  const [query, setQuery] = useState("");
  const found = useQuery(trpc.evals.findSamples.queryOptions({ projectId, query, limit: 20 }));
  return (
    <div className="flex flex-col gap-2">
      <Field label="Find a sample" hint="Part of its key or of its question">
        <Input
          type="search"
          value={query}
          placeholder="e.g. q12"
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
      </Field>
      <ul
        aria-label="Matching samples"
        className="flex max-h-72 flex-col overflow-y-auto rounded-md border border-line"
      >
        {(found.data ?? []).map((s) => (
          <li key={s.id} className="border-b border-line last:border-b-0">
            <button
              type="button"
              onClick={() => onPick(s.id)}
              className="flex w-full items-start gap-2 px-3 py-2 text-left text-sm hover:bg-surface-2"
            >
              <span className="max-w-[12rem] shrink-0 truncate font-mono text-xs text-accent" title={s.key}>
                {s.key}
              </span>
              <span className="line-clamp-1 min-w-0 flex-1" title={s.question}>
                {s.question.split("\n")[0]}
              </span>
              <span className="max-w-[10rem] truncate text-xs text-muted" title={s.datasetName}>
                {s.datasetName}
              </span>
              <Badge>{s.questionType}</Badge>
            </button>
          </li>
        ))}
        {found.data?.length === 0 && <li className="px-3 py-2 text-sm text-muted">No sample matches.</li>}
      </ul>
    </div>
  );
}
