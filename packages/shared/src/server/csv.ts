// RFC 4180 CSV cells: quoted only when they hold a comma, a quote or a line break.
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(v: CsvValue): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvRow(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(",");
}
