import { Badge } from "./ui/badge";

export function LiveBadge({ status }: { status: string }) {
  return status === "pending" ? (
    <Badge tone="success">● live</Badge>
  ) : status === "connecting" ? (
    <Badge>connecting…</Badge>
  ) : (
    <Badge tone="warning">reconnecting…</Badge>
  );
}
