import type { ReactNode } from "react";
import { cn } from "./cn";

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return <section className={cn("rounded-lg border border-line bg-surface p-5", className)}>{children}</section>;
}

interface HeaderProps {
  title: string;
  description?: string;
  actions?: ReactNode;
}

/** Title, optional description and right-aligned actions; one layout for cards and pages. */
function Header({ title, description, actions, page }: HeaderProps & { page: boolean }) {
  const Title = page ? "h1" : "h2";
  const Wrapper = page ? "header" : "div";
  return (
    <Wrapper className={cn("flex flex-wrap justify-between", page ? "mb-6 items-end gap-4" : "mb-4 items-start gap-3")}>
      <div>
        <Title className={page ? "text-2xl font-semibold tracking-tight" : "text-base font-semibold"}>{title}</Title>
        {description && <p className={cn("text-sm text-muted", page ? "mt-1" : "mt-0.5")}>{description}</p>}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </Wrapper>
  );
}

export function CardHeader(props: HeaderProps) {
  return <Header {...props} page={false} />;
}

export function PageHeader(props: HeaderProps) {
  return <Header {...props} page />;
}
