"use client";
import { EVAL_QUANTITIES, headlineOf, type EvalRunOutput } from "@paravt/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Badge, StatusBadge } from "../ui/badge";
import { Button } from "../ui/button";
import { Progress } from "../ui/progress";
import { EmptyRow, Table, Td, Th } from "../ui/table";
import { MODE_LABEL, pct, seText } from "./format";

/** The runs of an evaluation group: settings, live status and progress, headline so far, Cancel. */
export function EvalRunsTable({
  projectId,
  runs,
  canCancel,
  label = "Evaluation runs",
}: {
  projectId: string;
  runs: readonly EvalRunOutput[];
  canCancel: boolean;
  label?: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.runs.cancel.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.evals.pathKey() }),
    }),
  );
  return (
    <div className="flex flex-col gap-2">
      {cancel.error && <Alert>{errorMessage(cancel.error)}</Alert>}
      <Table label={label}>
        <thead>
          <tr>
            <Th>Model</Th>
            <Th>Dataset</Th>
            <Th>Mode</Th>
            <Th className="text-right">K</Th>
            <Th>Status</Th>
            <Th>Progress</Th>
            <Th className="text-right">Headline</Th>
            <Th className="text-right">Errors</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const head = headlineOf(r.summary);
            const words = EVAL_QUANTITIES[head.quantity];
            const active = r.status === "QUEUED" || r.status === "RUNNING";
            return (
              <tr key={r.id} data-testid={`eval-run-${r.id}`}>
                <Td>
                  <Link
                    href={`/projects/${projectId}/runs/${r.id}`}
                    className="font-medium hover:text-accent hover:underline"
                  >
                    {r.model?.name ?? "deleted model"}
                  </Link>
                  {r.imported && (
                    <span className="ml-2">
                      <Badge>imported</Badge>
                    </span>
                  )}
                </Td>
                <Td className="text-muted">{r.dataset?.name ?? "deleted dataset"}</Td>
                <Td>
                  <Badge tone={r.withTool ? "accent" : "neutral"}>{MODE_LABEL[r.mode]}</Badge>
                </Td>
                <Td className="text-right tabular-nums">{r.k}</Td>
                <Td>
                  <StatusBadge status={r.status} />
                  {r.error && (
                    <p className="mt-1 max-w-xs text-xs text-danger" title={r.error}>
                      {r.error.length > 120 ? `${r.error.slice(0, 120)}…` : r.error}
                    </p>
                  )}
                </Td>
                <Td>
                  <Progress value={r.progress} label={`Progress of ${r.name}`} />
                  <span className="text-xs tabular-nums text-muted">
                    {r.summary.stored}/{r.summary.samples} samples
                  </span>
                </Td>
                <Td className="text-right tabular-nums" title={words.definition}>
                  {pct(head.value)}
                  {head.value !== null && (
                    <span className="ml-0.5 text-xs text-muted">
                      {seText(head.se) && ` ${seText(head.se)}`} {words.short} n={head.n}
                    </span>
                  )}
                </Td>
                <Td
                  className={
                    r.summary.errors ? "text-right text-danger tabular-nums" : "text-right text-muted tabular-nums"
                  }
                >
                  {r.summary.errors}
                </Td>
                <Td className="text-right">
                  {canCancel && active && (
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={cancel.isPending}
                      onClick={() => cancel.mutate({ projectId, runId: r.id })}
                      aria-label={`Cancel ${r.name}`}
                    >
                      Cancel
                    </Button>
                  )}
                </Td>
              </tr>
            );
          })}
          {runs.length === 0 && <EmptyRow colSpan={9}>No runs.</EmptyRow>}
        </tbody>
      </Table>
    </div>
  );
}
