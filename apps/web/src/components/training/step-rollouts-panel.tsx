"use client";
import type { StepRolloutOutput } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";
import { groupInspectorHref, groupOf, rewardTermEntries } from "./rollout-step";

function Outcome({ r }: { r: StepRolloutOutput }) {
  if (r.status === "ERROR") return <Badge tone="danger">error</Badge>;
  if (r.correct === true) return <Badge tone="success">correct</Badge>;
  if (r.correct === false) return <Badge tone="warning">wrong</Badge>;
  return <Badge>score {r.score == null ? "—" : r.score.toFixed(2)}</Badge>;
}

/** The SPEC §2 reward terms of one rollout (or of an episode of a training run), one chip each. */
export function RewardTerms({ terms }: { terms: StepRolloutOutput["rewardTerms"] }) {
  const entries = rewardTermEntries(terms);
  if (entries.length === 0) return <span className="text-muted">—</span>;
  return (
    <dl className="flex flex-wrap gap-x-3 gap-y-0.5 font-mono text-xs" aria-label="Reward terms">
      {entries.map((t) => (
        <div key={t.key} className="flex gap-1" data-testid={`reward-term-${t.key}`}>
          <dt className="text-muted">{t.label}</dt>
          <dd>{t.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const Kbd = ({ children }: { children: string }) => (
  <kbd className="rounded border border-line bg-surface-2 px-1 font-mono text-xs">{children}</kbd>
);

/**
 * "Rollouts of step N" of an RL run, docked at the bottom of the run page: each stored rollout
 * with its sample, K, prediction vs answer, reward terms and tool calls, linking to the episode
 * viewer. `[` / `]` (or the buttons) go to the previous / next step that has rollouts, Esc closes.
 */
export function StepRolloutsPanel({
  projectId,
  runId,
  step,
  onStep,
  onClose,
}: {
  projectId: string;
  runId: string;
  step: number;
  onStep: (step: number) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.runs.stepRollouts.queryOptions({ projectId, runId, step }),
    // Stepping with [ / ] keeps the last step's rows on screen until the next one arrives.
    placeholderData: (prev) => prev,
  });
  const data = q.data?.step === step ? q.data : undefined;

  // Latest neighbours without re-subscribing the key listener on every render.
  const keys = useRef({ prev: data?.prev ?? null, next: data?.next ?? null, onStep, onClose });
  useEffect(() => {
    keys.current = { prev: data?.prev ?? null, next: data?.next ?? null, onStep, onClose };
  });
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      const k = keys.current;
      if (e.key === "[" && k.prev !== null) k.onStep(k.prev);
      else if (e.key === "]" && k.next !== null) k.onStep(k.next);
      else if (e.key === "Escape") k.onClose();
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const title = `Rollouts of step ${step}`;
  return (
    <section
      aria-label={title}
      className="fixed inset-x-0 bottom-0 z-30 flex max-h-[45vh] flex-col gap-3 overflow-y-auto border-t border-line bg-surface px-6 py-4 shadow-lg"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold" data-testid="rollouts-step">
          {title}
        </h2>
        <span className="text-xs text-muted">
          <Kbd>[</Kbd> / <Kbd>]</Kbd> previous / next step with rollouts · <Kbd>Esc</Kbd> closes
        </span>
        <span className="ml-auto flex items-center gap-2">
          {data && data.items.length > 0 && (
            <Link
              href={groupInspectorHref(projectId, runId, step, null)}
              className="text-sm font-medium text-accent hover:underline"
            >
              Inspect GRPO groups
            </Link>
          )}
          <Button
            size="sm"
            variant="secondary"
            disabled={data?.prev == null}
            onClick={() => data?.prev != null && onStep(data.prev)}
          >
            {data?.prev != null ? `Previous step (${data.prev})` : "Previous step"}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={data?.next == null}
            onClick={() => data?.next != null && onStep(data.next)}
          >
            {data?.next != null ? `Next step (${data.next})` : "Next step"}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClose}>
            Close
          </Button>
        </span>
      </div>
      {q.error && <Alert>{errorMessage(q.error)}</Alert>}
      {!q.error && !data && <p className="text-sm text-muted">Loading the rollouts of step {step}…</p>}
      {data && data.items.length === 0 && (
        <p className="flex flex-wrap items-center gap-3 text-sm" data-testid="rollouts-none">
          <span className="text-muted">Step {step} kept no rollouts.</span>
          {data.nearest !== null ? (
            <Button size="sm" onClick={() => onStep(data.nearest!)}>
              Show step {data.nearest}, the nearest with rollouts
            </Button>
          ) : (
            <span className="text-muted">This run has stored no rollouts yet.</span>
          )}
        </p>
      )}
      {data && data.items.length > 0 && (
        <Table label={title}>
          <thead>
            <tr>
              <Th>Rollout</Th>
              <Th>Group</Th>
              <Th>Sample</Th>
              <Th>K</Th>
              <Th>Prediction / answer</Th>
              <Th>Outcome</Th>
              <Th>Reward terms</Th>
              <Th>Tool calls</Th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((r) => (
              <tr key={r.episodeId} data-testid="rollout-row">
                <Td>
                  <Link
                    href={`/projects/${projectId}/episodes/${r.episodeId}`}
                    className="font-medium text-accent hover:underline"
                  >
                    rollout {r.rollout}
                  </Link>
                </Td>
                <Td>
                  <Link
                    href={groupInspectorHref(projectId, runId, step, groupOf(r.rewardTerms))}
                    className="font-mono text-xs text-accent hover:underline"
                    title="Open the rollout's GRPO group side by side"
                  >
                    {groupOf(r.rewardTerms) ?? "—"}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{r.sample.key}</Td>
                <Td className="font-mono">{r.k}</Td>
                <Td className="max-w-xs">
                  <span className="block truncate font-mono text-xs" title={r.prediction ?? r.error ?? ""}>
                    {r.status === "ERROR" ? (r.error ?? "error") : (r.prediction ?? "—")}
                  </span>
                  <span className="block truncate font-mono text-xs text-muted">vs {r.sample.answer}</span>
                </Td>
                <Td>
                  <Outcome r={r} />
                </Td>
                <Td>
                  <RewardTerms terms={r.rewardTerms} />
                </Td>
                <Td className="font-mono">{r.toolCallCount}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
