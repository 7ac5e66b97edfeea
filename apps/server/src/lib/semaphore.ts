/** At most `limit` holders at once; the others wait in line (first come, first served). */
export function createSemaphore(limit: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held--;
  };
  return {
    /** Resolves with the function that gives the place back. */
    async acquire(): Promise<() => void> {
      if (held < limit) held++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}
