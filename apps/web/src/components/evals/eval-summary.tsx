import { DURATION_CATEGORIES, type EvalSummary } from "@paravt/shared";
import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { pct } from "./format";

function Stat({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  tone?: "danger";
}) {
  return (
    <div className="rounded-lg border border-line bg-surface p-3">
      <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className={cn("mt-1 text-xl font-semibold tabular-nums", tone === "danger" && "text-danger")}>{value}</dd>
      {detail && <dd className="mt-0.5 text-xs text-muted tabular-nums">{detail}</dd>}
    </div>
  );
}

/**
 * SPEC §5 summary of one run: accuracy (and by duration), grounding mIoU and R@0.3/0.5/0.7,
 * errors (never counted as wrong), format compliance, average tool calls and tool usage rate.
 */
export function EvalSummaryPanel({ summary }: { summary: EvalSummary }) {
  const s = summary;
  return (
    <dl
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3"
      aria-label="Summary"
      data-testid="eval-summary"
    >
      <Stat label="Stored" value={`${s.stored}/${s.samples}`} detail={`${s.answered} answered`} />
      <Stat
        label="Errors"
        value={s.errors}
        detail="infrastructure, not wrong answers"
        {...(s.errors ? { tone: "danger" as const } : {})}
      />
      {s.mcq && (
        <Stat
          label="Accuracy"
          value={`${pct(s.mcq.accuracy)}%`}
          detail={`${s.mcq.correct}/${s.mcq.n} answered multiple choice${s.errors ? "; errors left out" : ""}`}
        />
      )}
      {s.grounding && (
        <Stat
          label="Grounding mIoU"
          value={pct(s.grounding.mIoU)}
          detail={`R@0.3 ${pct(s.grounding.r03)} · R@0.5 ${pct(s.grounding.r05)} · R@0.7 ${pct(s.grounding.r07)} (n=${s.grounding.n})`}
        />
      )}
      {s.openEnded && (
        <Stat label="Open-ended score" value={s.openEnded.meanScore.toFixed(3)} detail={`mean of ${s.openEnded.n}`} />
      )}
      <Stat
        label="Format compliance"
        value={s.formatCompliance ? `${pct(s.formatCompliance.rate)}%` : "—"}
        detail={
          s.formatCompliance
            ? `${s.formatCompliance.compliant}/${s.formatCompliance.n} answered episodes`
            : "not judged: no stored turns (imported)"
        }
      />
      <Stat label="Avg tool calls" value={s.avgToolCalls == null ? "—" : s.avgToolCalls.toFixed(2)} />
      <Stat
        label="Tool usage rate"
        value={s.toolUsageRate == null ? "—" : `${pct(s.toolUsageRate)}%`}
        detail="answered samples with ≥ 1 call"
      />
      {s.byDuration && (
        <Stat
          label="By duration"
          value={
            <span className="flex gap-3 text-base">
              {DURATION_CATEGORIES.map((c) => (
                <span key={c} title={`${s.byDuration![c].correct}/${s.byDuration![c].n}`}>
                  <span className="text-xs font-normal text-muted">{c} </span>
                  {pct(s.byDuration![c].accuracy)}
                </span>
              ))}
            </span>
          }
          detail="VideoMME-style accuracy (%)"
        />
      )}
    </dl>
  );
}
