import { DURATION_CATEGORIES, EVAL_QUANTITIES, EVAL_TERMS, figuresOf, type EvalSummary } from "@paravt/shared";
import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { pct, seText } from "./format";

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
 * SPEC §5 summary of one run: its figure per question type (accuracy, score, mIoU: the glossary
 * of eval-quantities.ts) with standard error and n, accuracy by duration, R@0.3/0.5/0.7, errors
 * (never counted as wrong), format compliance, average tool calls and tool usage rate.
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
      {figuresOf(s).map((f) => {
        const words = EVAL_QUANTITIES[f.quantity];
        const detail =
          f.quantity === "accuracy"
            ? `${s.mcq!.correct}/${f.n} answered multiple choice${s.errors ? "; errors left out" : ""}`
            : f.quantity === "mIoU"
              ? `R@0.3 ${pct(s.grounding!.r03)} · R@0.5 ${pct(s.grounding!.r05)} · R@0.7 ${pct(s.grounding!.r07)} (n=${f.n})`
              : `mean over n=${f.n} open-ended`;
        return (
          <Stat
            key={f.quantity}
            label={words.label}
            value={
              <span title={words.definition}>
                {pct(f.value)}
                {f.quantity === "accuracy" && f.value !== null ? "%" : ""}
                {seText(f.se) && <span className="ml-1 text-sm font-normal text-muted">{seText(f.se)}</span>}
              </span>
            }
            detail={detail}
          />
        );
      })}
      <Stat
        label={EVAL_TERMS.formatCompliance}
        value={s.formatCompliance ? `${pct(s.formatCompliance.rate)}%` : "—"}
        detail={
          s.formatCompliance
            ? `${s.formatCompliance.compliant}/${s.formatCompliance.n} answered episodes`
            : "not judged: no stored turns (imported)"
        }
      />
      <Stat label={EVAL_TERMS.avgToolCalls} value={s.avgToolCalls == null ? "—" : s.avgToolCalls.toFixed(2)} />
      <Stat
        label={EVAL_TERMS.toolUsage}
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
