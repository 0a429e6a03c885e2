"use client";
// The report of a benchmark import (dataset.source.report, written by the worker): what loaded,
// what was skipped by reason, and the first skipped rows with their file, row and reason.
import { benchmarkImportReportSchema, type BenchmarkImportReport } from "@paravt/shared";
import { useMutation } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";

/** The stored report, or null while the first import has not finished. */
export function importReportOf(source: Record<string, unknown>): BenchmarkImportReport | null {
  const parsed = benchmarkImportReportSchema.safeParse(source.report);
  return parsed.success ? parsed.data : null;
}

const SHOWN_ROWS = 20;

export function BenchmarkImportReportCard({
  projectId,
  datasetId,
  source,
  canReimport,
}: {
  projectId: string;
  datasetId: string;
  source: Record<string, unknown>;
  canReimport: boolean;
}) {
  const trpc = useTRPC();
  const reimport = useMutation(trpc.datasets.reimportBenchmark.mutationOptions());
  const report = importReportOf(source);
  const reasons = Object.entries(report?.byReason ?? {}).sort((a, b) => b[1] - a[1]);
  return (
    <Card>
      <CardHeader
        title="Import report"
        description={`${String(source.benchmark)} from ${String(source.dir)}${source.split ? `, split ${String(source.split)}` : ""}${source.subtitles ? ", with subtitles" : ""}`}
      />
      {!report ? (
        <p className="text-sm text-muted">The import has not finished yet (see Runs).</p>
      ) : (
        <div className="flex flex-col gap-3 text-sm" data-testid="import-report">
          <div className="flex flex-wrap gap-2">
            <Badge tone="success">{report.loaded} loaded</Badge>
            <Badge tone={report.skipped ? "warning" : "neutral"}>{report.skipped} skipped</Badge>
            <Badge>{report.rows} rows read</Badge>
            <Badge>
              {report.videos} videos ({report.newVideos} new)
            </Badge>
            {Object.entries(report.byDurationCategory).map(([c, n]) => (
              <Badge key={c}>
                {c} {n}
              </Badge>
            ))}
            {report.subtitles && (
              <Badge>
                subtitles {report.subtitles.withText} / without {report.subtitles.missing}
              </Badge>
            )}
          </div>
          <p className="text-xs text-muted">
            Layout {report.variant}; files {report.files.join(", ")}; videos under {report.videoDir}; imported{" "}
            {new Date(report.importedAt).toLocaleString()}.
          </p>
          {report.warnings.map((w) => (
            <Alert key={w} tone="info">
              {w}
            </Alert>
          ))}
          {reasons.length > 0 && (
            <div className="flex flex-wrap gap-2" aria-label="Skipped by reason">
              {reasons.map(([r, n]) => (
                <Badge key={r} tone="warning">
                  {r} {n}
                </Badge>
              ))}
            </div>
          )}
          {report.skipped > 0 && (
            <Table label="Skipped rows">
              <thead>
                <tr>
                  <Th>File</Th>
                  <Th>Row</Th>
                  <Th>Key</Th>
                  <Th>Reason</Th>
                  <Th>Detail</Th>
                </tr>
              </thead>
              <tbody>
                {report.skippedRows.slice(0, SHOWN_ROWS).map((r, i) => (
                  <tr key={`${r.file}:${r.row}:${i}`}>
                    <Td className="font-mono text-xs">{r.file}</Td>
                    <Td className="tabular-nums">{r.row || "—"}</Td>
                    <Td className="font-mono text-xs">{r.key ?? "—"}</Td>
                    <Td>{r.reason}</Td>
                    <Td className="max-w-md text-xs text-muted">{r.detail}</Td>
                  </tr>
                ))}
                {report.skippedRows.length === 0 && <EmptyRow colSpan={5}>No rows kept.</EmptyRow>}
              </tbody>
            </Table>
          )}
          {report.skipped > SHOWN_ROWS && (
            <p className="text-xs text-muted">
              Showing {Math.min(SHOWN_ROWS, report.skippedRows.length)} of {report.skipped} skipped rows (the first{" "}
              {report.skippedRows.length} are stored).
            </p>
          )}
        </div>
      )}
      {canReimport && (
        <div className="mt-3 flex items-center gap-3">
          <Button
            variant="secondary"
            disabled={reimport.isPending}
            onClick={() => reimport.mutate({ projectId, datasetId })}
          >
            Re-import
          </Button>
          <span className="text-xs text-muted">
            {reimport.isSuccess ? "Re-import started (updates samples, duplicates nothing)." : ""}
          </span>
        </div>
      )}
      {reimport.error && (
        <div className="mt-3">
          <Alert>{errorMessage(reimport.error)}</Alert>
        </div>
      )}
    </Card>
  );
}
