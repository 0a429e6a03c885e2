/**
 * One color per call index of a turn (the design tokens `--lane-1..5` of globals.css, with light
 * and dark values); a 6th+ call reuses them in order. Literal class names so Tailwind sees them.
 */
const BG = ["bg-lane-1", "bg-lane-2", "bg-lane-3", "bg-lane-4", "bg-lane-5"] as const;
const BORDER = ["border-lane-1", "border-lane-2", "border-lane-3", "border-lane-4", "border-lane-5"] as const;

export const laneBg = (call: number) => BG[call % BG.length]!;
export const laneBorder = (call: number) => BORDER[call % BORDER.length]!;
/** For inline styles (SVG, gradients). */
export const laneColor = (call: number) => `var(--lane-${(call % BG.length) + 1})`;
