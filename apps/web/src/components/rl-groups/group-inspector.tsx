"use client";
import type { GroupRolloutOutput, StepGroupOutput, StepGroupSummary } from "@paravt/shared";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { useHotkeys } from "@/lib/use-hotkeys";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { laneGroupOf, LanesPlayer, type LaneGroup } from "../viewer";
import { RolloutColumn } from "./rollout-column";
import { groupViewFrom, groupViewSearch, orderRollouts, type GroupView } from "./group-params";

const Kbd = ({ children }: { children: string }) => (
  <kbd className="rounded border border-line bg-surface-2 px-1 font-mono text-xs">{children}</kbd>
);

const fmt = (v: number | null, digits = 3) => (v === null ? "—" : v.toFixed(digits));

/** The label of a rollout's lane group: its place in the group and its advantage. */
export function rolloutLabel(r: GroupRolloutOutput): string {
  const place = r.groupIndex !== null ? `#${r.groupIndex}` : `r${r.rollout}`;
  return r.advantage === null
    ? place
    : `${place} · A ${r.advantage >= 0 ? "+" : "−"}${Math.abs(r.advantage).toFixed(2)}`;
}

function GroupTabs({
  groups,
  open,
  onOpen,
}: {
  groups: StepGroupSummary[];
  open: number | null;
  onOpen: (g: number) => void;
}) {
  return (
    <div role="tablist" aria-label="Groups of the step" className="flex flex-wrap gap-2">
      {groups.map((g) => (
        <button
          key={g.group}
          type="button"
          role="tab"
          aria-selected={g.group === open}
          data-testid="group-tab"
          onClick={() => onOpen(g.group)}
          className={cn(
            "flex flex-col items-start rounded-md border px-3 py-1.5 text-left text-xs",
            g.group === open ? "border-accent bg-surface-2" : "border-line hover:bg-surface-2",
          )}
        >
          <span className="font-medium">
            group {g.group} · <span className="font-mono">{g.sampleKey}</span>
          </span>
          <span className="text-muted">
            K={g.k} · {g.stored}
            {g.groupSize !== null && g.groupSize !== g.stored ? ` of ${g.groupSize}` : ""} rollouts · R{" "}
            {fmt(g.rewardMean, 2)} ± {fmt(g.rewardStd, 2)}
          </span>
        </button>
      ))}
    </div>
  );
}

/**
 * The GRPO group inspector (issue 41 item 14): one prompt's group of rollouts of one training step
 * side by side. The prompt and answer; one player with every rollout's crop windows on one shared
 * timeline (a lane group per rollout); then a column per rollout: outcome, the SPEC §2 reward
 * terms, the SPEC §3 advantage the update used (a bar on the group's scale), and each main-agent
 * turn's text. `[` / `]` step to the previous / next step with rollouts, `p` / `n` to the previous
 * / next group; the view lives in the URL.
 */
export function GroupInspector({ projectId, runId }: { projectId: string; runId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = groupViewFrom(params);
  const go = (patch: Partial<GroupView>) =>
    router.replace(`${pathname}${groupViewSearch(view, patch)}`, { scroll: false });

  const q = useQuery({
    ...trpc.runs.stepGroup.queryOptions({
      projectId,
      runId,
      step: view.step ?? 1,
      ...(view.group !== null ? { group: view.group } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const data: StepGroupOutput | undefined = q.data;
  const open = data?.group?.group ?? null;
  const groupAt = (delta: 1 | -1) => {
    if (!data || open === null) return;
    const i = data.groups.findIndex((g) => g.group === open);
    const next = data.groups[i + delta];
    if (next) go({ group: next.group });
  };
  useHotkeys({
    "[": () => data?.prev != null && go({ step: data.prev }),
    "]": () => data?.next != null && go({ step: data.next }),
    p: () => groupAt(-1),
    n: () => groupAt(1),
  });

  const rollouts = useMemo(() => orderRollouts(data?.rollouts ?? [], view.order), [data, view.order]);
  const lanes: LaneGroup[] = useMemo(() => rollouts.map((r) => laneGroupOf(r.episode, rolloutLabel(r))), [rollouts]);
  const maxAdvantage = Math.max(0, ...rollouts.map((r) => Math.abs(r.advantage ?? 0)));
  const step = view.step ?? 1;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold" data-testid="group-inspector-title">
          Step {step}
          {open !== null && ` · group ${open}`}
        </h2>
        <span className="text-xs text-muted">
          <Kbd>[</Kbd> / <Kbd>]</Kbd> previous / next step · <Kbd>p</Kbd> / <Kbd>n</Kbd> previous / next group
        </span>
        <span className="ml-auto flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-1 text-xs text-muted">
            Order
            <select
              className="rounded border border-line bg-surface px-1 py-0.5 text-xs text-fg"
              value={view.order}
              onChange={(e) => go({ order: e.target.value === "advantage" ? "advantage" : "group" })}
            >
              <option value="group">as trained</option>
              <option value="advantage">by advantage</option>
            </select>
          </label>
          <Button size="sm" variant="secondary" disabled={data?.prev == null} onClick={() => go({ step: data!.prev! })}>
            {data?.prev != null ? `Previous step (${data.prev})` : "Previous step"}
          </Button>
          <Button size="sm" variant="secondary" disabled={data?.next == null} onClick={() => go({ step: data!.next! })}>
            {data?.next != null ? `Next step (${data.next})` : "Next step"}
          </Button>
        </span>
      </div>
      {q.error && <Alert>{errorMessage(q.error)}</Alert>}
      {!q.error && !data && <p className="text-sm text-muted">Loading step {step}…</p>}
      {data && data.groups.length === 0 && (
        <p className="text-sm text-muted" data-testid="group-none">
          Step {step} stored no rollouts
          {data.prev !== null || data.next !== null
            ? `; steps with rollouts: ${[data.prev, data.next].filter((s) => s !== null).join(" and ")}.`
            : "."}
        </p>
      )}
      {data && data.groups.length > 0 && (
        <>
          <GroupTabs groups={data.groups} open={open} onOpen={(g) => go({ group: g })} />
          {!data.recorded && (
            <Alert tone="info">
              This run was stored before train.rl recorded each rollout&apos;s group and advantage: its rollouts are
              grouped by prompt and their advantages are not shown.
            </Alert>
          )}
          {data.sample && (
            <section aria-label="Prompt" className="rounded-lg border border-line bg-surface p-3 text-sm">
              <p>{data.sample.question}</p>
              {data.sample.options && (
                <ol className="mt-1 list-[upper-alpha] pl-6 text-muted">
                  {data.sample.options.map((o, i) => (
                    <li key={i}>{o}</li>
                  ))}
                </ol>
              )}
              <p className="mt-1 text-xs text-muted">
                answer <span className="font-mono text-fg">{data.sample.answer}</span> · {data.sample.questionType} · K=
                {data.group?.k}
              </p>
            </section>
          )}
          <LanesPlayer
            video={data.sample?.video ?? null}
            groups={lanes}
            label="Lanes per rollout"
            empty="No rollout of this group looked at the video."
            windowKeys={false}
          />
          <div
            className="grid auto-cols-[minmax(16rem,1fr)] grid-flow-col gap-3 overflow-x-auto pb-2"
            role="list"
            aria-label="Rollouts of the group"
          >
            {rollouts.map((r) => (
              <RolloutColumn key={r.episode.id} projectId={projectId} rollout={r} maxAdvantage={maxAdvantage} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
