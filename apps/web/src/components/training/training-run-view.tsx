"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { RunConfigPanel } from "../runs/run-config-panel";
import { RlTokenCapBanner } from "../runs/token-cap-banner";
import { rolloutStepFrom, rolloutStepSearch } from "./rollout-step";
import { StepRolloutsPanel } from "./step-rollouts-panel";
import { TrainingDashboard } from "./training-dashboard";

/**
 * A training run's charts; for an RL run a click on any chart opens that step's rollouts. The
 * step lives in the URL (`?step=N`) next to the dashboard's own state, so the link reopens the
 * panel and Back from an episode returns to it.
 */
export function TrainingRunView({
  projectId,
  run,
  canLaunch = false,
}: {
  projectId: string;
  run: { id: string; name: string; kind: string };
  /** EDITOR and up: "Relaunch with changes". */
  canLaunch?: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // Only train.rl keeps rollouts per step (SFT runs have none to show).
  const rl = run.kind === "rl";
  const step = rl ? rolloutStepFrom(new URLSearchParams(params.toString())) : null;
  const setStep = useCallback(
    (next: number | null) =>
      router.replace(`${pathname}${rolloutStepSearch(new URLSearchParams(window.location.search), next)}`, {
        scroll: false,
      }),
    [pathname, router],
  );
  return (
    <>
      {rl && <RlTokenCapBanner projectId={projectId} runId={run.id} />}
      <RunConfigPanel projectId={projectId} runId={run.id} canLaunch={canLaunch} />
      <TrainingDashboard
        projectId={projectId}
        runs={[{ id: run.id, name: run.name }]}
        {...(rl ? { onPickStep: setStep, pickedStep: step } : {})}
      />
      {step !== null && (
        <>
          {/* Room to scroll the last charts above the docked panel. */}
          <div aria-hidden className="h-[45vh]" />
          <StepRolloutsPanel
            projectId={projectId}
            runId={run.id}
            step={step}
            onStep={setStep}
            onClose={() => setStep(null)}
          />
        </>
      )}
    </>
  );
}
