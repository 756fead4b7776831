/**
 * Runs `job(0)` … `job(count - 1)` with at most `inFlight` of them running at once: each of
 * `inFlight` runners takes the next index as soon as its job ends, so indices start in order.
 * Resolves when every job has ended; rejects with the first job that fails (runners already
 * in a job finish it on their own).
 */
export async function runPool(count: number, inFlight: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      for (let index = next++; index < count; index = next++) await job(index);
    }),
  );
}
