/**
 * Work started by a local back end on behalf of a request (a handler invocation). Closing the runtime
 * waits for it, within a bound, so that no handler is still writing to a store that has closed.
 */
export const inFlightWork = () => {
  const pending = new Set<Promise<unknown>>();
  return {
    track<T>(work: Promise<T>): Promise<T> {
      pending.add(work);
      work.then(
        () => pending.delete(work),
        () => pending.delete(work),
      );
      return work;
    },
    async drain(boundMs = 5000): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, boundMs);
      });
      await Promise.race([Promise.allSettled([...pending]), bound]);
      clearTimeout(timer);
    },
  };
};
