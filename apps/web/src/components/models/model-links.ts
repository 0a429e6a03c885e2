// Where a model row links to (issue 41 item 7): the run that produced it, the evaluations that ran
// it, and the eval launch form with it pre-selected (`/evals?model=<id>`, read by the form).
import type { ModelOutput } from "@paravt/shared";

export type ModelLinks = {
  /** The train.sft / train.rl run page; null for a model added by hand. */
  producedBy: string | null;
  evaluations: { href: string; label: string }[];
  evaluate: string;
};

export function modelLinks(
  projectId: string,
  m: Pick<ModelOutput, "id" | "producedByRunId" | "evaluations">,
): ModelLinks {
  const base = `/projects/${projectId}`;
  return {
    producedBy: m.producedByRunId ? `${base}/runs/${m.producedByRunId}` : null,
    evaluations: m.evaluations.map((e) => ({ href: `${base}/evals/${e.groupId}`, label: e.name })),
    evaluate: `${base}/evals?model=${encodeURIComponent(m.id)}`,
  };
}

/** The model ids `?model=` pre-selects in the eval launch form (repeatable; blanks dropped). */
export function preselectedModelIds(params: { getAll(name: string): string[] }): string[] {
  return [
    ...new Set(
      params
        .getAll("model")
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
