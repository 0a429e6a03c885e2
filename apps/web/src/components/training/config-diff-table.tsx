"use client";
import { useQueries } from "@tanstack/react-query";
import { diffRunConfigs } from "@/components/runs/run-config";
import { Alert } from "@/components/ui/alert";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";

/**
 * The runs' resolved configs side by side (defaults filled in, so a knob left at its default and
 * the same value typed are equal), only the dotted keys whose values differ.
 */
export function ConfigDiffTable({ projectId, runIds }: { projectId: string; runIds: string[] }) {
  const trpc = useTRPC();
  const configs = useQueries({
    queries: runIds.map((runId) => ({
      ...trpc.runs.config.queryOptions({ projectId, runId }),
      enabled: runIds.length >= 2,
    })),
  });
  const failed = configs.find((c) => c.error);
  if (failed?.error) return <Alert>{errorMessage(failed.error)}</Alert>;
  if (runIds.length < 2 || configs.some((c) => !c.data)) return null;
  const runs = configs.map((c) => c.data!);
  const { rows, same } = diffRunConfigs(runs);
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
