import type { ReactNode } from "react";
import { cn } from "./cn";

export function Alert({ tone = "danger", children }: { tone?: "danger" | "success" | "info"; children: ReactNode }) {
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-3 py-2 text-sm",
        tone === "danger" && "border-danger/40 bg-danger/10 text-danger",
        tone === "success" && "border-success/40 bg-success/10 text-success",
        tone === "info" && "border-accent/40 bg-accent/10 text-fg",
      )}
    >
      {children}
    </div>
  );
}
