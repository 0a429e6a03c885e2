// Tool necessity, measured from the annotations (SPEC §1.1 overview sampling).
//
// An event is VISIBLE at K when some overview timestamp t_i = i * duration / K falls inside its
// interval [start, end). Durations are multiples of 64/fps seconds, so every t_i is exactly a
// frame time and the decoded overview frame shows what the annotation says (config.ts).
// A question's evidence is visible at K when ALL its evidence events are (templates.ts):
//   scene_color, when, scene_position: the one target shape;
//   count: every occurrence of the counted shape (a missed one changes the count);
//   order: all four option shapes (their relative order is read off the frame times);
//   after: the anchor and the shape right after it.
// Because t_i for K is t_{2i} for 2K, visibility never decreases from K to 2K.

import { overviewTimestamps } from "@paravt/video/sampling";
import { OVERVIEW_KS, TEMPLATES, type OverviewK } from "./config";
import type { SuiteEvent, SuiteQuestion, VisibilityRow, VisibleAtK } from "./schemas";

/** Whether some of the K overview timestamps of a `duration`-second video falls in [start, end). */
export function visibleInOverview(event: Pick<SuiteEvent, "start" | "end">, duration: number, k: number): boolean {
  return overviewTimestamps(duration, k).some((t) => t >= event.start && t < event.end);
}

/** `visibleAtK` of a question with these evidence events. */
export function evidenceVisibility(evidence: readonly SuiteEvent[], duration: number): VisibleAtK {
  const entry = (k: OverviewK) => [String(k), evidence.every((e) => visibleInOverview(e, duration, k))] as const;
  return Object.fromEntries(OVERVIEW_KS.map(entry)) as VisibleAtK;
}

/** Per K: whether the oracle answered question `id` without a crop (absent = not settled). */
export type NoCropByQuestion = ReadonlyMap<string, Partial<Record<OverviewK, boolean>>>;

function shares(values: readonly (readonly boolean[])[]): VisibilityRow["visible"] {
  const entries = OVERVIEW_KS.map((k, j) => {
    const n = values.length;
    return [String(k), n === 0 ? 0 : values.filter((v) => v[j]).length / n] as const;
  });
  return Object.fromEntries(entries) as VisibilityRow["visible"];
}

/**
 * Shares per K of questions whose evidence is visible in the overview, and of questions the
 * oracle answered from the overview alone, for all questions, each question type and each
 * template (groups with no question are left out).
 */
export function visibilityTable(questions: readonly SuiteQuestion[], noCrop: NoCropByQuestion): VisibilityRow[] {
  const groups: [string, SuiteQuestion[]][] = [
    ["all", [...questions]],
    ...(["mcq", "tvg", "oe"] as const).map((t): [string, SuiteQuestion[]] => [
      `type ${t}`,
      questions.filter((q) => q.type === t),
    ]),
    ...TEMPLATES.map((t): [string, SuiteQuestion[]] => [`template ${t}`, questions.filter((q) => q.template === t)]),
  ];
  return groups
    .filter(([, qs]) => qs.length > 0)
    .map(([group, qs]) => ({
      group,
      questions: qs.length,
      visible: shares(qs.map((q) => OVERVIEW_KS.map((k) => q.visibleAtK[k]))),
      noCrop: shares(qs.map((q) => OVERVIEW_KS.map((k) => noCrop.get(q.id)?.[k] === true))),
    }));
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The table as Markdown: "visible / answered without a crop" per K. */
export function formatVisibilityTable(rows: readonly VisibilityRow[]): string {
  const head = `| questions | n | ${OVERVIEW_KS.map((k) => `K=${k}`).join(" | ")} |`;
  const rule = `| --- | ---: | ${OVERVIEW_KS.map(() => "---:").join(" | ")} |`;
  const body = rows.map(
    (r) =>
      `| ${r.group} | ${r.questions} | ${OVERVIEW_KS.map((k) => `${pct(r.visible[k])} / ${pct(r.noCrop[k])}`).join(" | ")} |`,
  );
  return [head, rule, ...body].join("\n");
}
