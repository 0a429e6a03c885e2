"use client";
import { isResumableJob } from "@paravt/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage, useTRPC } from "@/trpc/client";

/**
 * "Resume" on a failed or cancelled evaluation or training run (runs.resume): an evaluation runs
 * only its samples without a stored result, a training run continues from its last checkpoint.
 * Renders nothing for runs that cannot resume.
 */
export function ResumeRunButton({
  projectId,
  run,
}: {
  projectId: string;
  run: { id: string; jobName: string; status: string };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resume = useMutation(
    trpc.runs.resume.mutationOptions({
      onSuccess: () =>
        void Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.runs.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.evals.pathKey() }),
        ]),
    }),
  );
  if (!isResumableJob(run.jobName) || (run.status !== "FAILED" && run.status !== "CANCELLED")) return null;
  const what =
    run.jobName === "eval.run" ? "Runs only the samples without a stored result" : "Continues from the last checkpoint";
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        title={what}
        disabled={resume.isPending}
        onClick={() => resume.mutate({ projectId, runId: run.id })}
      >
        {resume.isPending ? "Resuming…" : "Resume"}
      </Button>
      {resume.error && <Alert>{errorMessage(resume.error)}</Alert>}
    </>
  );
}
