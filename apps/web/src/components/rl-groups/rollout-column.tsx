"use client";
import type { GroupRolloutOutput } from "@paravt/shared";
import Link from "next/link";
import { OutcomeBadge } from "../evals/episode-overview";
import { RewardTerms } from "../training/step-rollouts-panel";
import { cn } from "../ui/cn";
import { advantageBar, formatAdvantage } from "./group-params";

/** The advantage on a centred bar scaled to the group's largest magnitude (right: pushed up). */
function AdvantageBar({ advantage, max }: { advantage: number | null; max: number }) {
  const bar = advantage === null ? null : advantageBar(advantage, max);
  return (
    <div className="flex items-center gap-2" data-testid="rollout-advantage">
      <span className="w-24 shrink-0 text-xs text-muted">advantage</span>
      <div className="relative h-2 flex-1 rounded bg-surface-2" aria-hidden>
        <div className="absolute inset-y-0 left-1/2 w-px bg-line" />
        {bar && (
          <div
            className={cn(
              "absolute inset-y-0",
              bar.side === "positive" ? "left-1/2 bg-success" : "right-1/2 bg-danger",
            )}
            style={{ width: `${bar.pct}%` }}
          />
        )}
      </div>
      <span className="w-20 shrink-0 text-right font-mono text-xs" data-testid="rollout-advantage-value">
        {formatAdvantage(advantage)}
      </span>
    </div>
  );
}

/**
 * One rollout of a GRPO group: its outcome, reward terms, advantage and every main-agent turn's
 * text (previews of at most 2 Ki characters each; the episode page has them whole).
 */
export function RolloutColumn({
  projectId,
  rollout: r,
  maxAdvantage,
}: {
  projectId: string;
  rollout: GroupRolloutOutput;
  maxAdvantage: number;
}) {
  const e = r.episode;
  const title = r.groupIndex !== null ? `Rollout #${r.groupIndex}` : `Rollout ${r.rollout}`;
  return (
    <article
      role="listitem"
      aria-label={title}
      data-testid="group-rollout"
      className="flex min-w-0 flex-col gap-2 rounded-lg border border-line bg-surface p-3"
    >
      <header className="flex flex-wrap items-center gap-2">
        <Link href={`/projects/${projectId}/episodes/${e.id}`} className="font-medium text-accent hover:underline">
          {title}
        </Link>
        <OutcomeBadge e={e} />
        <span className="ml-auto text-xs text-muted">
          {e.toolCallCount} tool call{e.toolCallCount === 1 ? "" : "s"} · {e.turnCount} turn
          {e.turnCount === 1 ? "" : "s"}
        </span>
      </header>
      <AdvantageBar advantage={r.advantage} max={maxAdvantage} />
      {/* The advantage has its bar above; the other terms as the step panel shows them. */}
      <RewardTerms
        terms={r.rewardTerms && Object.fromEntries(Object.entries(r.rewardTerms).filter(([k]) => k !== "advantage"))}
      />
      <p className="font-mono text-xs">
        <span className="text-muted">answer </span>
        {e.status === "ERROR" ? (e.error ?? "error") : (e.prediction ?? "—")}
      </p>
      <div className="flex flex-col gap-1">
        {e.turns.map((t) => (
          <details key={t.index} open={t.index === 0} className="rounded border border-line">
            <summary className="cursor-pointer px-2 py-1 text-xs text-muted">
              turn {t.index + 1}
              {t.completionTokens !== null && ` · ${t.completionTokens} tokens`}
              {t.toolCalls.length > 0 && ` · ${t.toolCalls.length} call${t.toolCalls.length === 1 ? "" : "s"}`}
              {t.forcedFinal && " · forced final"}
            </summary>
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words px-2 pb-2 font-mono text-xs">
              {(t.forcedPrefix ?? "") + t.rawText}
            </pre>
            {t.clipped?.rawText !== undefined && (
              <p className="px-2 pb-1 text-xs text-muted">
                a preview of {t.clipped.rawText.toLocaleString()} characters; the episode page has the whole text
              </p>
            )}
          </details>
        ))}
        {e.nextCursor !== null && (
          <Link href={`/projects/${projectId}/episodes/${e.id}`} className="text-xs text-accent hover:underline">
            more turns on the episode page
          </Link>
        )}
      </div>
    </article>
  );
}
