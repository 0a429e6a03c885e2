"use client";
import { signIn, signUp } from "@paravt/auth/client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Card } from "./ui/card";
import { Field, Input } from "./ui/input";

export function AuthForm({ mode }: { mode: "sign-in" | "sign-up" }) {
  const router = useRouter();
  const next = useSearchParams().get("next");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    setPending(true);
    setError(null);
    const res =
      mode === "sign-up"
        ? await signUp.email({ email, password, name: String(form.get("name") ?? "").trim() || email.split("@")[0]! })
        : await signIn.email({ email, password });
    setPending(false);
    if (res.error) {
      setError(res.error.message ?? "Could not sign in");
      return;
    }
    // Only same-site paths are followed, never an absolute URL from the query string.
    router.push(next?.startsWith("/") && !next.startsWith("//") ? next : "/projects");
    router.refresh();
  }

  const title = mode === "sign-up" ? "Create your account" : "Sign in";
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="w-full max-w-sm">
        <div className="mb-6">
          <p className="text-xs font-semibold uppercase tracking-widest text-accent">ParaVT Workbench</p>
          <h1 className="mt-1 text-xl font-semibold">{title}</h1>
        </div>
        <form onSubmit={onSubmit} className="flex flex-col gap-4">
          {mode === "sign-up" && (
            <Field label="Name">
              <Input name="name" autoComplete="name" placeholder="Ada Lovelace" />
            </Field>
          )}
          <Field label="Email">
            <Input name="email" type="email" required autoComplete="email" />
          </Field>
          <Field label="Password" hint={mode === "sign-up" ? "At least 8 characters" : undefined}>
            <Input
              name="password"
              type="password"
              required
              minLength={8}
              autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
            />
          </Field>
          {error && <Alert>{error}</Alert>}
          <Button type="submit" disabled={pending}>
            {pending ? "Please wait…" : mode === "sign-up" ? "Create account" : "Sign in"}
          </Button>
        </form>
        <p className="mt-4 text-center text-sm text-muted">
          {mode === "sign-up" ? (
            <>
              Have an account?{" "}
              <Link className="text-accent hover:underline" href="/sign-in">
                Sign in
              </Link>
            </>
          ) : (
            <>
              New here?{" "}
              <Link className="text-accent hover:underline" href="/sign-up">
                Create an account
              </Link>
            </>
          )}
        </p>
      </Card>
    </main>
  );
}
