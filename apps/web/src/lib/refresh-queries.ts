import type { QueryClient, QueryFilters, QueryKey } from "@tanstack/react-query";

/**
 * Refreshes every query under each key because the server said something changed (a live event).
 *
 * `invalidateQueries` alone can lose such an event: while a query's FIRST fetch is in flight (no
 * data yet), TanStack Query joins that fetch instead of starting another, so the answer may predate
 * the change and no later event comes to fix it (a run page that mounts as its last step lands kept
 * showing the step before). Those fetches are cancelled first (reverted to "pending"), so the
 * invalidation starts a new one; queries that already hold data are refetched as usual (an
 * in-flight refetch is cancelled and restarted).
 */
export async function refreshQueries(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  await refreshQueryFilters(
    queryClient,
    keys.map((queryKey) => ({ queryKey })),
  );
}

/** `refreshQueries` of the queries each filter matches (a key narrowed by a predicate). */
export async function refreshQueryFilters(queryClient: QueryClient, filters: readonly QueryFilters[]): Promise<void> {
  await Promise.all(
    filters.map(async (filter) => {
      await queryClient.cancelQueries({
        ...filter,
        predicate: (q) =>
          q.state.data === undefined && q.state.fetchStatus === "fetching" && (filter.predicate?.(q) ?? true),
      });
      await queryClient.invalidateQueries(filter);
    }),
  );
}
