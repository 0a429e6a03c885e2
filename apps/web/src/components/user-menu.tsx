"use client";
import { signOut } from "@paravt/auth/client";
import { useRouter } from "next/navigation";
import { Button } from "./ui/button";

export function UserMenu({ email }: { email: string }) {
  const router = useRouter();
  return (
    <div className="flex items-center gap-2">
      <span className="hidden text-sm text-muted sm:inline" data-testid="current-user">
        {email}
      </span>
      <Button
        variant="ghost"
        size="sm"
        onClick={async () => {
          await signOut();
          router.push("/sign-in");
          router.refresh();
        }}
      >
        Sign out
      </Button>
    </div>
  );
}
