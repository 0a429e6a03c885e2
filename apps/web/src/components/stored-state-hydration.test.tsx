// Issue 41 item 10: state a tab keeps in sessionStorage (the selected row of a run's samples
// table, the focused card of a sample grid, an unposted review comment) must not change the
// first render in the browser, which React hydrates against the server's HTML: a difference is a
// hydration mismatch. Each component is rendered by React's server renderer twice: as on the
// server (no window), and as in a tab that has stored state (a window with a sessionStorage); the
// two must be the same markup. The stored state itself comes back after hydration; the e2e specs
// evals/sample-grid.spec.ts and reviews/review-queue.spec.ts check that in Chromium.
import type { EvalSampleRow } from "@paravt/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouterInstance } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import superjson from "superjson";
import { afterEach, describe, expect, it } from "vitest";
import { TRPCProvider } from "@/trpc/client";
import { useSessionValue } from "@/lib/session-value";
import { CardGrid } from "./evals/card-grid";
import { SamplesTable } from "./evals/samples-table";
import { ReviewPanel } from "./reviews/review-panel";

/** A tab's sessionStorage: the part of the Storage interface the app uses. */
class TabStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const g = globalThis as unknown as { window?: { sessionStorage: TabStorage } };
afterEach(() => {
  delete g.window;
});

/** The markup on the server, and in a tab whose sessionStorage holds `stored`. */
function serverAndTab(ui: () => ReactNode, stored: Record<string, string>) {
  const server = renderToString(ui());
  const sessionStorage = new TabStorage();
  for (const [k, v] of Object.entries(stored)) sessionStorage.setItem(k, v);
  g.window = { sessionStorage };
  return { server, tab: renderToString(ui()) };
}

const RUN_SCOPE = "run-1?view=table";

function row(i: number): EvalSampleRow {
  return {
    episodeId: `ep-${i}`,
    sampleId: `s-${i}`,
    key: `v000${i}`,
    rolloutIndex: 0,
    question: `Question ${i}`,
    questionType: "mcq",
    answer: "A",
    prediction: "B",
    correct: false,
    score: 0,
    status: "OK",
    toolCalls: 0,
    k: 8,
    durationS: 1,
  } as unknown as EvalSampleRow;
}

const router: AppRouterInstance = {
  back() {},
  forward() {},
  refresh() {},
  push() {},
  replace() {},
  prefetch() {},
} as unknown as AppRouterInstance;

describe("first render with state stored in the tab", () => {
  it("the hook gives null on the server render and hydration", () => {
    function Probe() {
      const [v] = useSessionValue("k");
      return <span>{v ?? "nothing stored"}</span>;
    }
    const { server, tab } = serverAndTab(() => <Probe />, { k: "remembered" });
    expect(server).toBe("<span>nothing stored</span>");
    expect(tab).toBe(server);
  });

  it("samples table: the remembered row is not selected yet", () => {
    const ui = () => (
      <AppRouterContext.Provider value={router}>
        <SamplesTable projectId="p" rows={[0, 1, 2, 3].map(row)} scope={RUN_SCOPE} loading={false} />
      </AppRouterContext.Provider>
    );
    const { server, tab } = serverAndTab(ui, { [`paravt:samples-selection:${RUN_SCOPE}`]: "2" });
    expect(server).toContain("<tbody>");
    expect(server).not.toContain('aria-current="true"');
    expect(tab).toBe(server);
  });

  it("card grid: the remembered card is not the tab stop yet", () => {
    const scope = "run-1?view=grid";
    const ui = () => (
      <CardGrid
        label="Samples"
        count={4}
        scope={scope}
        loading={false}
        empty="No samples"
        hint="opens the episode"
        renderCard={(i, p) => (
          <li key={i}>
            <a href={`/e/${i}`} tabIndex={p.tabIndex} aria-current={p.current || undefined}>
              {i}
            </a>
          </li>
        )}
      />
    );
    const { server, tab } = serverAndTab(ui, { [`paravt:grid-selection:${scope}`]: "2" });
    expect(server).not.toContain("aria-current");
    expect(tab).toBe(server);
  });

  it("review panel: the unposted draft is not in the comment box yet", () => {
    const queryClient = new QueryClient();
    // Never called: the server renderer runs no effects, so no query is sent.
    const trpcClient = createTRPCClient({
      links: [httpBatchLink({ url: "http://unused/api/trpc", transformer: superjson })],
    });
    const ui = () => (
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient as never} queryClient={queryClient}>
          <ReviewPanel
            projectId="p"
            episodeId="ep-1"
            tags={[]}
            scoreConfigs={[]}
            canWrite
            meId="u"
            canModerate={false}
            currentTime={() => 0}
            seek={() => {}}
          />
        </TRPCProvider>
      </QueryClientProvider>
    );
    const { server, tab } = serverAndTab(ui, { "paravt:review-draft:ep-1": "half a comment" });
    expect(server).toContain('aria-label="New comment"');
    expect(server).not.toContain("half a comment");
    expect(tab).toBe(server);
  });
});
