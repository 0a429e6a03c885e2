// A small RFC 4180 reader: Charades_v1_test.csv quotes its free-text columns (descriptions, scripts),
// which contain commas and line breaks, so splitting lines on commas would misplace `length`.

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  line: number;
  fields: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      touched = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      touched = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      if (touched || field !== "") out.push({ line: start, fields: [...fields, field] });
      fields = [];
      field = "";
      touched = false;
      line++;
      start = line;
    } else {
      field += c;
      touched = true;
    }
  }
  if (touched || field !== "") out.push({ line: start, fields: [...fields, field] });
  return out;
}
