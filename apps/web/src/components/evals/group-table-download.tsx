"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { errorMessage, useTRPC } from "@/trpc/client";

type Format = "csv" | "md";

const TYPES: Record<Format, string> = { csv: "text/csv", md: "text/markdown" };

function saveText(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads the group as the paper's main table (evals.table: models x benchmarks + average), as
 * CSV or Markdown. Fetched when clicked, so the file has the figures of that moment.
 */
export function GroupTableDownload({ projectId, groupId }: { projectId: string; groupId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function download(format: Format) {
    setBusy(format);
    setError(null);
    try {
      const t = await queryClient.fetchQuery({
        ...trpc.evals.table.queryOptions({ projectId, groupId }),
        staleTime: 0,
        gcTime: 0,
      });
      saveText(format === "csv" ? t.csv : t.markdown, `${t.fileName}.${format}`, TYPES[format]);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="flex items-center gap-2" role="group" aria-label="Download the paper table">
      <span className="text-xs text-muted">Paper table</span>
      <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => void download("csv")}>
        {busy === "csv" ? "Preparing…" : "CSV"}
      </Button>
      <Button variant="secondary" size="sm" disabled={busy !== null} onClick={() => void download("md")}>
        {busy === "md" ? "Preparing…" : "Markdown"}
      </Button>
      {error && (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
    </div>
  );
}
