"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/client";
import { relaunchFrom } from "./run-config";

/**
 * "Relaunch with changes": the `from=<runId>` of the launch page's URL, and once that run's config
 * has loaded, `apply` is called once with it (the form turns it into its state).
 */
export function useRelaunch(projectId: string, kind: string, apply: (config: unknown) => void): string | null {
  const trpc = useTRPC();
  // Read after mount: the server render and the first client render agree (no hydration mismatch).
  const [from, setFrom] = useState<string | null>(null);
  useEffect(() => setFrom(relaunchFrom(window.location.search)), []);
  const run = useQuery({ ...trpc.runs.config.queryOptions({ projectId, runId: from ?? "" }), enabled: from !== null });
  const applied = useRef<string | null>(null);
  const applyRef = useRef(apply);
  applyRef.current = apply;
  useEffect(() => {
    const r = run.data;
    if (!r || r.kind !== kind || applied.current === r.id) return;
    applied.current = r.id;
    applyRef.current(r.config);
  }, [run.data, kind]);
  return run.data && run.data.kind === kind ? run.data.name : null;
}
