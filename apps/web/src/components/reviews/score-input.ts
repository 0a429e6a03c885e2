// The score field of the review panel (issue 41 item 15), its pure part: the arrow keys' step for
// a range and the check of a typed value, so the field says what is wrong before the server does.
// The field is a text box with the spin button's keys (not <input type="number">, whose value is
// "" while the text is not a number: leaving such a field would read as clearing the score).

/** A step of about a twentieth of the range, rounded to 1, 2 or 5 times a power of ten (0-1: 0.05, 1-5: 0.2). */
export function scoreStep(min: number, max: number): number {
  const raw = (max - min) / 20;
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].find((m) => m * power >= raw * 0.999) ?? 10;
  // Rounded to the power's decimals, so 0.05 is not 0.05000000000000001.
  return Number((nice * power).toPrecision(1));
}

export type ParsedScore = { ok: true; value: number | null } | { ok: false; error: string };

/** A typed value: empty clears the score; otherwise a number inside [min, max]. */
export function parseScore(text: string, range: { min: number; max: number }): ParsedScore {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  const value = Number(t);
  if (!Number.isFinite(value)) return { ok: false, error: "Type a number" };
  if (value < range.min || value > range.max) {
    return { ok: false, error: `Between ${range.min} and ${range.max}` };
  }
  return { ok: true, value };
}

/**
 * ArrowUp / ArrowDown: the value one step up or down, on the grid of steps from `min`, kept in
 * the range; from an empty or unreadable field, the minimum (up) or the maximum (down).
 */
export function stepScore(text: string, range: { min: number; max: number }, direction: 1 | -1): number {
  const step = scoreStep(range.min, range.max);
  const current = text.trim() === "" ? NaN : Number(text);
  if (!Number.isFinite(current)) return direction === 1 ? range.min : range.max;
  const onGrid = range.min + Math.round((current + direction * step - range.min) / step) * step;
  // toPrecision drops the float noise of the grid (0.1 + 0.2); the clamp keeps the bounds exact.
  return Math.min(range.max, Math.max(range.min, Number(onGrid.toPrecision(12))));
}

/** A mean for the overview: at most three decimals, trailing zeros dropped. */
export function formatScore(value: number): string {
  return String(Number(value.toFixed(3)));
}
