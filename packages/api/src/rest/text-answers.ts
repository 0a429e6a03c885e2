// REST operations that answer some requests with a text body instead of JSON (issue 41 item 10:
// a CSV export came back as a JSON string). Declared on the procedure as `meta.restText`; the
// tRPC answer is unchanged, and the REST handler (openapi.ts) sends `render(output)` when it is
// not null, with its content type and headers, and documents it beside the JSON answer.
import type { MetricExportOutput } from "@paravt/shared";

export interface RestTextAnswer {
  body: string;
  headers: Record<string, string>;
}

export interface RestText<Output = never> {
  /** The media type in the OpenAPI document, e.g. text/csv (charset utf-8 is added on the wire). */
  mediaType: string;
  /** When the text answer is sent, for the document's 200 response. */
  description: string;
  /** Headers of the text answer, for the document. */
  headers: Record<string, { description: string; schema: Record<string, unknown> }>;
  /** The text answer for this output, or null to answer JSON as usual. */
  render: (output: Output) => RestTextAnswer | null;
}

/** runs.metricsExport with format=csv: the page's CSV itself; the page's place in the headers. */
export const metricExportCsv: RestText<MetricExportOutput> = {
  mediaType: "text/csv",
  description:
    "format=csv: the page's rows as CSV (`step,time_s,<names…>`, the header line on the first page only, so pages " +
    "concatenate into one file); X-Next-After-Step gives the next page's afterStep (absent on the last page). " +
    "format=json: the JSON object.",
  headers: {
    "X-Next-After-Step": {
      description: "format=csv: afterStep of the next page; absent on the last page",
      schema: { type: "integer" },
    },
    "X-Rows": { description: "format=csv: the number of rows (steps) in this page", schema: { type: "integer" } },
  },
  render: (out) =>
    out.format === "csv"
      ? {
          body: out.content,
          headers: {
            "x-rows": String(out.rows),
            ...(out.nextAfterStep !== null ? { "x-next-after-step": String(out.nextAfterStep) } : {}),
          },
        }
      : null,
};
