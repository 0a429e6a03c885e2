// RFC 4180 CSV cells: quoted only when they hold a comma, a quote or a line break.
export type CsvValue = string | number | boolean | null | undefined;

export interface CsvOptions {
  /**
   * Text that a spreadsheet would run as a formula (starting with = + - @ or a tab) gets a
   * leading apostrophe: free text written by users (comments, model outputs) must not execute
   * when an export is opened in Excel. Numbers are never changed.
   */
  guardFormulas?: boolean;
}

export function csvCell(v: CsvValue, o: CsvOptions = {}): string {
  let s = v === null || v === undefined ? "" : String(v);
  if (o.guardFormulas && typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvRow(cells: readonly CsvValue[], o: CsvOptions = {}): string {
  return cells.map((c) => csvCell(c, o)).join(",");
}
