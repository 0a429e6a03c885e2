"use client";
import { NANO_PRESETS, type NanoPreset } from "@paravt/shared";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { sftFormFromRun } from "./runs/run-config";
import { useRelaunch } from "./runs/use-relaunch";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Card, CardHeader } from "./ui/card";
import { Field, Input, Select } from "./ui/input";

/** Launches cold-start SFT of ParaVT-nano on this suite's oracle trajectories. */
export function TrainSftForm({
  projectId,
  datasetId,
  datasetName,
}: {
  projectId: string;
  datasetId: string;
  datasetName: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const launch = useMutation(
    trpc.training.launchSft.mutationOptions({
      onSuccess: (run) => router.push(`/projects/${projectId}/runs/${run.id}`),
    }),
  );
  // "Relaunch with changes" (?from=<runId>): the inputs start from that run's settings.
  const [prefill, setPrefill] = useState<ReturnType<typeof sftFormFromRun>>(null);
  const relaunched = useRelaunch(projectId, "sft", (config) => setPrefill(sftFormFromRun(config)));
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    launch.mutate({
      projectId,
      datasetId,
      name: String(f.get("name") ?? ""),
      preset: String(f.get("preset")) as NanoPreset,
      steps: Number(f.get("steps")),
      batchSize: Number(f.get("batchSize")),
      lr: Number(f.get("lr")),
      seed: 1,
      checkpointEvery: Math.max(1, Math.round(Number(f.get("steps")) / 4)),
    });
  }
  return (
    <Card>
      <CardHeader
        title="Train ParaVT-nano on this suite (cold-start SFT)"
        description="Main-agent and sub-agent oracle trajectories, loss on assistant tokens only (SPEC §3); runs on the C++ core of a worker."
      />
      <form
        key={prefill ? "relaunch" : "fresh"}
        onSubmit={onSubmit}
        className="grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] md:items-end"
      >
        <Field label="Model name">
          <Input
            name="name"
            required
            maxLength={120}
            defaultValue={prefill?.name ?? `nano-sft-${datasetName}`.slice(0, 120)}
          />
        </Field>
        <Field label="Size">
          <Select name="preset" defaultValue={prefill?.preset ?? "tiny"}>
            {(Object.keys(NANO_PRESETS) as NanoPreset[]).map((p) => (
              <option key={p} value={p}>
                {p} ({NANO_PRESETS[p].width}×{NANO_PRESETS[p].layers})
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Steps">
          <Input name="steps" type="number" min={1} max={100000} defaultValue={prefill?.steps ?? 200} />
        </Field>
        <Field label="Batch">
          <Input name="batchSize" type="number" min={1} max={64} defaultValue={prefill?.batchSize ?? 4} />
        </Field>
        <Field label="Learning rate">
          <Input name="lr" type="number" step="any" min={0} defaultValue={prefill?.lr ?? 0.001} />
        </Field>
        <Button type="submit" disabled={launch.isPending}>
          Start training
        </Button>
      </form>
      {relaunched && (
        <p className="mt-2 text-sm text-muted" data-testid="relaunch-note">
          Pre-filled from run “{relaunched}”: change what you want and launch.
        </p>
      )}
      {launch.error && (
        <div className="mt-3">
          <Alert>{errorMessage(launch.error)}</Alert>
        </div>
      )}
    </Card>
  );
}
