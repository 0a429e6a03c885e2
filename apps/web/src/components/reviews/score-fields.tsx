"use client";
import type { ReviewOutput, ReviewScoreOutput, ScoreConfigOutput } from "@paravt/shared";
import { useMutation } from "@tanstack/react-query";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { Input } from "../ui/input";
import { parseScore, stepScore } from "./score-input";

interface FieldProps {
  projectId: string;
  episodeId: string;
  config: ScoreConfigOutput;
  score: ReviewScoreOutput | undefined;
  canWrite: boolean;
  onSaved(review: ReviewOutput): void;
}

/**
 * One score: a spin button in the config's range (a text box, see score-input.ts). Enter or
 * leaving the field saves a changed value, an emptied field clears it, Esc puts the stored value
 * back; ArrowUp / ArrowDown step by about a twentieth of the range. Until edited, the field
 * follows the stored value (another reviewer's change shows through the live refresh).
 */
const ScoreField = forwardRef<HTMLInputElement, FieldProps>(function ScoreField(
  { projectId, episodeId, config, score, canWrite, onSaved },
  ref,
) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<string | null>(null);
  // Esc blurs the field to give the page its keys back; that blur must not save the dropped draft.
  const dropped = useRef(false);
  const set = useMutation(trpc.reviews.setScore.mutationOptions({ onSuccess: onSaved }));
  const stored = score ? String(score.value) : "";
  const parsed = draft === null ? null : parseScore(draft, config);
  const commit = () => {
    if (dropped.current) {
      dropped.current = false;
      return;
    }
    if (draft === null || !parsed?.ok || set.isPending) return;
    if (draft.trim() === stored) {
      setDraft(null);
      return;
    }
    set.mutate({ projectId, episodeId, configId: config.id, value: parsed.value }, { onSuccess: () => setDraft(null) });
  };
  const error = parsed && !parsed.ok ? parsed.error : set.error ? errorMessage(set.error) : null;
  const id = `score-${config.id}`;

  return (
    <li className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="min-w-0 flex-1 truncate text-sm" title={config.description || config.name}>
          {config.name}{" "}
          <span className="text-xs text-muted">
            ({config.min}–{config.max})
          </span>
        </label>
        <Input
          ref={ref}
          id={id}
          type="text"
          role="spinbutton"
          inputMode="decimal"
          autoComplete="off"
          aria-valuemin={config.min}
          aria-valuemax={config.max}
          aria-valuenow={parsed?.ok && parsed.value !== null ? parsed.value : score?.value}
          value={draft ?? stored}
          disabled={!canWrite}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          placeholder="—"
          className="h-8 w-24 text-right tabular-nums"
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "ArrowUp" || e.key === "ArrowDown") {
              e.preventDefault();
              setDraft(String(stepScore(draft ?? stored, config, e.key === "ArrowUp" ? 1 : -1)));
            }
            if (e.key === "Enter") {
              e.preventDefault();
              commit();
            }
            if (e.key === "Escape") {
              dropped.current = true;
              setDraft(null);
              e.currentTarget.blur();
            }
          }}
        />
      </div>
      {error ? (
        <span id={`${id}-error`} className="text-xs text-danger" role="alert">
          {error}
        </span>
      ) : (
        score && (
          <span className="text-xs text-muted" data-testid="score-set-by">
            set by {score.setBy?.name ?? "a former member"} {timeAgo(score.setAt)}
          </span>
        )
      )}
    </li>
  );
});

export interface ScoreFieldsControl {
  focusFirst(): void;
}

/** The review's scores, one field per score config of the project. */
export const ScoreFields = forwardRef<
  ScoreFieldsControl,
  Omit<FieldProps, "config" | "score"> & { configs: ScoreConfigOutput[]; scores: ReviewScoreOutput[] }
>(function ScoreFields({ configs, scores, ...rest }, ref) {
  const first = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({ focusFirst: () => first.current?.focus() }));
  const byConfig = new Map(scores.map((s) => [s.configId, s]));
  return (
    <ul className="flex flex-col gap-2" aria-label="Scores">
      {configs.map((c, i) => (
        <ScoreField key={c.id} ref={i === 0 ? first : undefined} config={c} score={byConfig.get(c.id)} {...rest} />
      ))}
    </ul>
  );
});
