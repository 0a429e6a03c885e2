"use client";
import type { QueryClient } from "@tanstack/react-query";
import type { useTRPC } from "@/trpc/client";

/**
 * Downloads every point of a run's series (not downsampled): pages of steps are fetched until the
 * server says there is no next page, concatenated (the CSV header comes with the first page only;
 * JSON pages are arrays merged into one) and saved through a Blob link.
 */
export async function exportRunMetrics({
  queryClient,
  trpc,
  projectId,
  run,
  names,
  format,
}: {
  queryClient: QueryClient;
  trpc: ReturnType<typeof useTRPC>;
  projectId: string;
  run: { id: string; name: string };
  names: string[];
  format: "csv" | "json";
}): Promise<void> {
  const parts: string[] = [];
  const rows: unknown[] = [];
  let afterStep: number | undefined;
  do {
    const page = await queryClient.fetchQuery({
      ...trpc.runs.metricsExport.queryOptions({ projectId, runId: run.id, names, format, afterStep }),
      staleTime: 0,
      gcTime: 0,
    });
    if (format === "csv") parts.push(page.content);
    else rows.push(...(JSON.parse(page.content) as unknown[]));
    afterStep = page.nextAfterStep ?? undefined;
  } while (afterStep !== undefined);
  const body = format === "csv" ? parts.join("") : JSON.stringify({ run: run.name, runId: run.id, rows }, null, 1);
  const blob = new Blob([body], { type: format === "csv" ? "text/csv" : "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${run.name.replace(/[^\w.-]+/g, "_")}-metrics.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
