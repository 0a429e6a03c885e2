"use client";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";

/** The runs' configs side by side, only the dotted keys whose values differ. */
export function ConfigDiffTable({ projectId, runIds }: { projectId: string; runIds: string[] }) {
  const trpc = useTRPC();
  const diff = useQuery({
    ...trpc.runs.configDiff.queryOptions({ projectId, runIds }),
    enabled: runIds.length >= 2,
  });
  if (diff.error) return <Alert>{errorMessage(diff.error)}</Alert>;
  if (!diff.data) return null;
  const { runs, rows, same } = diff.data;
  return (
    <section className="flex flex-col gap-2" aria-label="Config diff">
      <h2 className="text-sm font-semibold text-muted">
        Config diff <span className="font-normal">· {same} identical keys hidden</span>
      </h2>
      <Table label="Config diff">
        <thead>
          <tr>
            <Th>key</Th>
            {runs.map((r) => (
              <Th key={r.id}>{r.name}</Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && <EmptyRow colSpan={runs.length + 1}>The configs are identical.</EmptyRow>}
          {rows.map((row) => (
            <tr key={row.key}>
              <Td className="font-mono text-xs">{row.key}</Td>
              {row.values.map((v, i) => (
                <Td key={runs[i]!.id} className="font-mono text-xs">
                  {v ?? <span className="text-muted">—</span>}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}
