// Bounded concurrency: the calls of one turn (SPEC §1.4: they run concurrently) and the requests
// of one engine batch, at most `limit` in flight.

/** `fn` over every item with at most `limit` running at once; results in input order. Rejects on the first failure. */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a positive integer (got ${limit})`);
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
