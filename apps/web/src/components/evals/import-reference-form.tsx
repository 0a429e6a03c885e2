"use client";
import { EVAL_MODES, importReferenceInput, type EvalMode, type importReferenceOutput } from "@paravt/shared";
import type { z } from "zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Field, Input, Select } from "../ui/input";
import { Progress } from "../ui/progress";
import { MODE_LABEL } from "./format";

/**
 * Imports one dataset's reference evaluator output (SPEC §6 `{summary, results}`) into this
 * group as a run, so published numbers sit in the same matrix as ours.
 */
export function ImportReferenceForm({ projectId, groupId }: { projectId: string; groupId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const [problem, setProblem] = useState<string | null>(null);
  const importRef = useMutation(
    trpc.evals.importReference.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.evals.pathKey() }),
    }),
  );

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setProblem(null);
    importRef.reset();
    const f = new FormData(e.currentTarget);
    const upload = f.get("file");
    if (!(upload instanceof File) || upload.size === 0) return setProblem("Choose the reference output file (.json)");
    let file: unknown;
    try {
      file = JSON.parse(await upload.text());
    } catch (err) {
      return setProblem(`${upload.name} is not JSON: ${(err as Error).message}`);
    }
    const input = importReferenceInput.safeParse({
      projectId,
      groupId,
      name: String(f.get("name") ?? ""),
      datasetId: String(f.get("datasetId") ?? ""),
      modelId: String(f.get("modelId") ?? ""),
      mode: String(f.get("mode")) as EvalMode,
      k: Number(f.get("k")),
      file,
    });
    if (!input.success) return setProblem(input.error.issues.map((i) => i.message).join("; "));
    importRef.mutate(input.data);
  }

  const result = importRef.data;
  const externalFirst = [...(models.data ?? [])].sort(
    (a, b) => Number(b.kind === "EXTERNAL") - Number(a.kind === "EXTERNAL"),
  );
  return (
    <Card>
      <CardHeader
        title="Import reference output"
        description="One dataset's output of the reference evaluator ({summary, results}, SPEC §6); rows are matched to samples by the reference's row id (or key), rows with an error or an [API error: …] answer stay errors."
      />
      <form onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-3" aria-label="Import reference output">
        <div className="grid gap-3 md:grid-cols-3 xl:grid-cols-[1.5fr_2fr_2fr_1.4fr_0.7fr]">
          <Field label="Run name">
            <Input name="name" required maxLength={120} defaultValue="reference" />
          </Field>
          <Field label="Dataset">
            <Select name="datasetId" required>
              {datasets.data?.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Model" hint="Usually an external model: the reference's own.">
            <Select name="modelId" required>
              {externalFirst.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Mode">
            <Select name="mode" defaultValue="agentic_general">
              {EVAL_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABEL[m]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="K">
            <Input name="k" type="number" min={1} max={256} defaultValue={64} />
          </Field>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-72 flex-1">
            <Field label="Reference file">
              <Input
                name="file"
                type="file"
                accept=".json,application/json"
                className="w-full py-1.5 file:mr-3 file:rounded file:border-0 file:bg-surface-2 file:px-3 file:py-1 file:text-sm file:text-fg"
              />
            </Field>
          </div>
          <Button type="submit" variant="secondary" disabled={importRef.isPending}>
            {importRef.isPending ? "Importing…" : "Import"}
          </Button>
        </div>
      </form>
      <div className="mt-3 flex flex-col gap-2" aria-live="polite">
        {problem && <Alert>{problem}</Alert>}
        {importRef.error && <Alert>{errorMessage(importRef.error)}</Alert>}
        {result && <ImportReport projectId={projectId} report={result} />}
      </div>
    </Card>
  );
}

type ImportResult = z.infer<typeof importReferenceOutput>;

/** What a skip reason of @paravt/benchmarks reference-match.ts means, for the report. */
const SKIP_REASON: Record<string, string> = {
  unmatched: "no sample has the row's id",
  ambiguous: "the id names several questions and the row does not say which",
  key_mismatch: "the row's key differs from the sample's (another release or order of the dataset)",
  duplicate: "an earlier row already matched the same sample",
};
/** Skipped rows shown as examples (the service returns up to 100). */
const EXAMPLES = 5;

/**
 * The import report: rows stored and how many as errors, rows skipped per reason with a few
 * examples. A file of more than one batch is stored by a job (issue 42): the report follows its
 * run live (the page's run events update `runs.byId`) with a progress bar and `n/total rows`.
 */
function ImportReport({ projectId, report: r }: { projectId: string; report: ImportResult }) {
  const trpc = useTRPC();
  const asJob = r.run.status === "QUEUED" || r.run.status === "RUNNING";
  const live = useQuery({ ...trpc.runs.byId.queryOptions({ projectId, runId: r.run.id }), enabled: asJob });
  const run = live.data ?? r.run;
  const active = run.status === "QUEUED" || run.status === "RUNNING";
  const failed = run.status === "FAILED" || run.status === "CANCELLED";
  const reasons = Object.entries(r.skippedByReason).filter(([, n]) => n > 0);
  const errors =
    r.errors > 0
      ? ` (${r.errors} stored as errors: ${r.errorKinds.rowError} with an error field, ${r.errorKinds.apiError} [API error] answers)`
      : "";
  const lead = active ? "Importing" : failed ? `Import ${run.status.toLowerCase()}:` : "Imported";
  return (
    <Alert tone={failed ? "danger" : r.skipped || r.errors || active ? "info" : "success"}>
      <p data-testid="import-result">{`${lead} ${r.matched} of ${r.rows} rows${failed ? " matched" : ""}${errors}; skipped ${r.skipped}.`}</p>
      {active && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs" data-testid="import-progress">
          <Progress value={run.progress} label="Import progress" />
          <span className="tabular-nums text-muted">{run.status === "QUEUED" ? "queued" : run.message}</span>
          <span className="text-muted">stored in batches by a background job; you can leave this page.</span>
        </div>
      )}
      {failed && (
        <p className="mt-1 text-xs">
          {run.error}{" "}
          <Link href={`/projects/${projectId}/runs/${run.id}`} className="underline">
            Open the run
          </Link>{" "}
          to resume it.
        </p>
      )}
      {reasons.length > 0 && (
        <ul className="mt-1 list-inside list-disc text-xs" aria-label="Skipped rows by reason">
          {reasons.map(([reason, n]) => (
            <li key={reason}>
              <span className="font-mono">{reason}</span> {n}: {SKIP_REASON[reason] ?? reason}
            </li>
          ))}
        </ul>
      )}
      {r.skippedRows.length > 0 && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer">
            Skipped rows ({Math.min(EXAMPLES, r.skippedRows.length)} of {r.skipped})
          </summary>
          <ul className="mt-1 flex flex-col gap-0.5 font-mono break-all">
            {r.skippedRows.slice(0, EXAMPLES).map((row) => (
              <li key={row.index}>
                results[{row.index}] {row.id} · {row.reason}: {row.detail}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Alert>
  );
}
