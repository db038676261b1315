/**
 * Work done a step at a time (generators that yield between steps), so that a server can let other
 * requests run between the steps of a long build: the older revisions, the dated schedule's file.
 */

/** A generator run to its end: its value. */
export function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** A run of steps under way, and how it ended once it has. */
export interface Run<T> {
  steps: Generator<void, T>;
  outcome: { value: T } | { error: unknown } | null;
}

/**
 * The steps of `key`'s run in `runs`, started by `start` when none is under way: callers that need
 * the same thing at once each advance its one run a step at a time, and all get its value (or its
 * error), so the work is done once. The run leaves `runs` when it ends.
 */
export function* joined<K, T>(runs: Map<K, Run<T>>, key: K, start: () => Generator<void, T>): Generator<void, T> {
  let run = runs.get(key);
  if (run === undefined) runs.set(key, (run = { steps: start(), outcome: null }));
  while (run.outcome === null) {
    try {
      const r = run.steps.next();
      if (r.done) run.outcome = { value: r.value };
    } catch (error) {
      run.outcome = { error };
    }
    if (run.outcome === null) yield;
    else runs.delete(key);
  }
  if ('error' in run.outcome) throw run.outcome.error;
  return run.outcome.value;
}
