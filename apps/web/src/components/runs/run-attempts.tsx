import { Table, Td, Th } from "@/components/ui/table";
import type { AttemptRow } from "./run-config";

/** Each attempt of the run: which worker process, backend, device and queue ran it, and how it ended. */
export function RunAttempts({ rows }: { rows: readonly AttemptRow[] }) {
  return (
    <Table label="Attempts">
      <thead>
        <tr>
          <Th>attempt</Th>
          <Th>worker</Th>
          <Th>core</Th>
          <Th>queue</Th>
          <Th>started</Th>
          <Th>took</Th>
          <Th>outcome</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.key} data-testid="run-attempt">
            <Td className="font-mono text-xs">{a.attempt}</Td>
            <Td className="font-mono text-xs">{a.worker}</Td>
            <Td className="text-xs">{a.core}</Td>
            <Td className="font-mono text-xs">{a.queue}</Td>
            <Td className="font-mono text-xs">{a.started}</Td>
            <Td className="font-mono text-xs">{a.took}</Td>
            <Td className="text-xs">
              {a.outcome}
              {a.reason && <span className="block text-muted">{a.reason}</span>}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
