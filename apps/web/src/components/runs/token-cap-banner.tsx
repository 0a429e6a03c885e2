"use client";
// The warning of issue 41 item 1: a run whose turns hit the generation cap measures the cap, not
// the method (a cut turn loses its answer and its format). RL: from the per-step
// `truncated_turn_rate` series; eval: from the stored turns' `finish` (runs.tokenCap). The rule
// (more than a tenth of the turns) is @paravt/shared's `tokenCapSteps` / `evalTokenCapShare`.
import { evalTokenCapShare, seriesPoints, TOKEN_CAP_WARN_SHARE, tokenCapSteps } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";

const pct = (x: number) => `${Math.round(x * 100)}%`;
const THRESHOLD = pct(TOKEN_CAP_WARN_SHARE);

/** RL run: steps where more than a tenth of the main-agent turns stopped at max new tokens. */
export function RlTokenCapBanner({ projectId, runId }: { projectId: string; runId: string }) {
  const trpc = useTRPC();
  const series = useQuery(
    trpc.runs.metrics.queryOptions({ projectId, runId, names: ["truncated_turn_rate"], maxPoints: 5000 }),
  );
  // The cap the run was launched with (its stored config; the launch fills the default in).
  const config = useQuery(trpc.runs.config.queryOptions({ projectId, runId }));
  const first = series.data?.[0];
  const warning = tokenCapSteps(first ? seriesPoints(first) : []);
  if (!warning) return null;
  // train.rl stores the launch's knobs under `overrides` (services/training.ts launchRl).
  const overrides = config.data?.config.overrides as { maxNewTokens?: unknown } | undefined;
  const launched = overrides?.maxNewTokens;
  const maxTokens = typeof launched === "number" ? launched : undefined;
  return (
    <div data-testid="token-cap-banner">
      <Alert>
        In {warning.over} of {warning.steps} steps more than {THRESHOLD} of the main-agent turns stopped at the max new
        tokens cap{maxTokens ? ` (${maxTokens})` : ""} instead of ending (worst: step {warning.worst.step},{" "}
        {pct(warning.worst.value)}). A cut turn loses its answer and its format, so reward, format compliance and
        tool-call rate here measure the cap, not the method. Relaunch with a larger Max new tokens (the launch form
        defaults to what the suite&apos;s turns need).
      </Alert>
    </div>
  );
}

/** Eval run: more than a tenth of its stored turns stopped at max tokens. */
export function EvalTokenCapBanner({
  projectId,
  runId,
  active,
}: {
  projectId: string;
  runId: string;
  active: boolean;
}) {
  const trpc = useTRPC();
  const cap = useQuery({
    ...trpc.runs.tokenCap.queryOptions({ projectId, runId }),
    refetchInterval: active ? 15_000 : false,
  });
  const share = evalTokenCapShare(cap.data);
  if (share === null || !cap.data) return null;
  return (
    <div data-testid="token-cap-banner">
      <Alert>
        {pct(share)} of this run&apos;s turns ({cap.data.cut} of {cap.data.turns}) stopped at max tokens
        {cap.data.maxTokens ? ` (${cap.data.maxTokens})` : ""} instead of ending. A cut turn loses its answer and its
        format, so accuracy, format compliance and tool usage here measure the cap, not the model. Evaluate again with a
        larger max tokens.
      </Alert>
    </div>
  );
}
