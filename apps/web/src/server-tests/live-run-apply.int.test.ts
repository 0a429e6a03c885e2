// What a live page asks the server after a run event (issue 42 item 1), through the real router,
// TanStack Query cache and the web's `applyRunEvent`: a training step costs one request, for the
// chart's new points (the run row is patched from the event); a new series reads the series list;
// a point written before the chart's last step reads the chart again; a status change reads the
// run again; a (re)subscription reads everything on screen.
import { appRouter, type AppRouter } from "@paravt/api";
import { createProjectWithRoles } from "@paravt/db/factories";
import { seriesPoints, type MetricQueryOutput, type RunChange, type RunOutput } from "@paravt/shared";
import { db, metrics, runs } from "@paravt/shared/server";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { createTRPCClient, unstable_localLink, type TRPCLink } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { observable } from "@trpc/server/observable";
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { applyRunEvent, refreshAllLive } from "../lib/apply-run-event";

async function setup() {
  const fx = await createProjectWithRoles(db());
  const principal = { kind: "user" as const, userId: fx.owner.id };
  const calls: string[] = [];
  // Records each procedure the page calls, then hands the call to the router in-process.
  const record: TRPCLink<AppRouter> =
    () =>
    ({ op, next }) =>
      observable((observer) => {
        calls.push(op.path);
        return next(op).subscribe(observer);
      });
  const client = createTRPCClient<AppRouter>({
    links: [
      record,
      unstable_localLink({
        router: appRouter,
        createContext: async () => ({ principal, user: null }),
        transformer: superjson,
      }),
    ],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 10_000 } } });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: "live", config: {}, status: "RUNNING" },
  });
  for (let step = 1; step <= 200; step++) {
    await metrics.recordStep(run.id, step, step % 10 === 0 ? { loss: 1 / step, lr: 1e-3 } : { loss: 1 / step });
  }
  const ref = { projectId: fx.project.id, runId: run.id };
  // The run page: its row, its series list and a chart of two series.
  const observers = [
    new QueryObserver(queryClient, trpc.runs.byId.queryOptions(ref)),
    new QueryObserver(queryClient, trpc.runs.metricNames.queryOptions(ref)),
    new QueryObserver(queryClient, trpc.runs.metrics.queryOptions({ ...ref, names: ["loss", "lr"], maxPoints: 50 })),
  ];
  const stops = observers.map((o) => o.subscribe(() => undefined));
  await Promise.all(observers.map((o) => o.refetch()));
  const chart = () => observers[2]!.getCurrentResult().data as MetricQueryOutput;
  const row = () => observers[0]!.getCurrentResult().data as RunOutput;
  /** Applies the event of the run's row with `changed`; the procedures it called. */
  const apply = async (changed: RunChange, data: { message?: string; status?: "SUCCEEDED" } = {}) => {
    const current = await db().run.update({ where: { id: run.id }, data });
    calls.length = 0;
    await applyRunEvent(queryClient, trpc, runs.toEvent(current, changed));
    return [...calls].sort();
  };
  const done = () => {
    stops.forEach((s) => s());
    queryClient.clear();
  };
  return { queryClient, trpc, calls, chart, row, apply, done, runId: run.id };
}

describe("applyRunEvent", () => {
  it("asks only for what each event changed", async () => {
    const page = await setup();
    try {
      expect(page.chart()[0]).toMatchObject({ name: "loss", total: 200 });
      expect(seriesPoints(page.chart()[0]!).at(-1)!.step).toBe(200);

      // A training step: the chart's new points only; the row from the event itself.
      const step = await metrics.recordStep(page.runId, 201, { loss: 0.001, lr: 2e-3 });
      expect(await page.apply({ metrics: step! }, { message: "step 201/400" })).toEqual(["runs.metricsSince"]);
      expect(page.chart().map((s) => [s.name, s.total, seriesPoints(s).at(-1)])).toEqual([
        ["loss", 201, { step: 201, t: expect.any(Number), value: 0.001 }],
        ["lr", 21, { step: 201, t: expect.any(Number), value: 2e-3 }],
      ]);
      expect(page.row().message).toBe("step 201/400");

      // A progress report with nothing stored: no request at all.
      expect(await page.apply({}, { message: "saving a checkpoint" })).toEqual([]);
      expect(page.row().message).toBe("saving a checkpoint");

      // A series the page does not know yet: the series list, not the chart (not one of its series).
      const val = await metrics.recordStep(page.runId, 201, { val_loss: 0.5 });
      expect(await page.apply({ metrics: val! })).toEqual(["runs.metricNames"]);

      // An event the chart is already past (it read after those steps were written): nothing.
      expect(await page.apply({ metrics: { names: ["loss"], fromStep: 190, toStep: 201 } })).toEqual([]);

      // A point before the chart's last step, written out of order (a backfill): read again.
      const back = await metrics.recordStep(page.runId, 155, { lr: 1.5e-3 });
      expect(back).toMatchObject({ backfill: true });
      expect(await page.apply({ metrics: back! })).toEqual(["runs.metrics"]);
      expect(page.chart()[1]).toMatchObject({ name: "lr", total: 22 });

      // The run finished: its row is read again (and the lists, none on this page).
      expect(await page.apply({ status: true }, { status: "SUCCEEDED" })).toEqual(["runs.byId"]);
      expect(page.row().status).toBe("SUCCEEDED");

      // A (re)subscription: everything on screen.
      page.calls.length = 0;
      await refreshAllLive(page.queryClient, page.trpc);
      expect([...page.calls].sort()).toEqual(["runs.byId", "runs.metricNames", "runs.metrics"]);
    } finally {
      page.done();
    }
  });
});
