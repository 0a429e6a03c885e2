import type { Metadata } from "next";
import type { ReactNode } from "react";
import { THEME_SCRIPT } from "@/components/theme-toggle";
import { Providers } from "@/trpc/client";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "ParaVT Workbench", template: "%s · ParaVT Workbench" },
  description: "Train, evaluate and inspect agentic video models with parallel tool calls",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
