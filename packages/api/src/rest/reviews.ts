// Download of a review queue with its tags and comments: a plain GET (a link the browser saves,
// or `curl -H "Authorization: Bearer pvt_…"` from a script), CSV by default or `?format=json`.
import { reviewExportFormatSchema } from "@paravt/shared";
import { projectAccess, reviewExport } from "@paravt/shared/server";
import { HttpError, restRoute } from "./handler";

export const exportQueue = restRoute<{ projectId: string; queueId: string }>(
  async (req, ctx, { projectId, queueId }) => {
    const access = await projectAccess(ctx.principal, projectId, "READ");
    const format = reviewExportFormatSchema.safeParse(new URL(req.url).searchParams.get("format") ?? "csv");
    if (!format.success) throw new HttpError(400, 'format must be "csv" or "json"');
    const data = await reviewExport.collectQueueExport(access, queueId);
    const name = reviewExport.exportFileName(data, format.data);
    const headers = {
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    };
    if (format.data === "json") {
      return new Response(`${JSON.stringify(data, null, 2)}\n`, {
        headers: { ...headers, "content-type": "application/json; charset=utf-8" },
      });
    }
    return new Response(reviewExport.queueExportCsv(data), {
      headers: { ...headers, "content-type": "text/csv; charset=utf-8" },
    });
  },
);
