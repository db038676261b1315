/**
 * Answers are cached in the document's CacheService cache, keyed by their arguments and the
 * schedule revision that produced them. The revision last seen is itself cached for an hour: after
 * that every lookup misses once, the fresh answers tell the current revision, and answers of an
 * older revision are never read again. Answers live six hours (CacheService's maximum).
 */
const ANSWER_SECONDS = 6 * 60 * 60;
const REVISION_SECONDS = 60 * 60;
const REVISION_KEY = 'landed:revision';
const MAX_KEY_LENGTH = 250;
const MAX_VALUE_LENGTH = 100_000;
/** getAll/putAll take at most this many keys at once here. */
const CACHE_BATCH = 500;

export interface Fetched<T> {
  value: T;
  /** Whether the answer may be kept (a per-line input error may; a failed request may not). */
  cacheable: boolean;
  /** The schedule revision the answer came from, when it says. */
  revision?: string;
}

function cache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getDocumentCache() ?? CacheService.getScriptCache();
}

function cacheKey(revision: string, kind: string, key: string): string | null {
  const k = `landed|${revision}|${kind}|${key}`;
  return k.length <= MAX_KEY_LENGTH ? k : null;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The answers for `keys` (deduplicated): from the cache where it has them, the rest from
 * `fetchMissing`, which gets only the missing keys and answers each of them.
 */
export function cachedLookup<T>(
  kind: string,
  keys: readonly string[],
  fetchMissing: (missing: string[]) => Map<string, Fetched<T>>,
  { byRevision = true }: { byRevision?: boolean } = {},
): Map<string, T> {
  const store = cache();
  const unique = [...new Set(keys)];
  const answers = new Map<string, T>();
  // Answers that do not come from the schedule (trade statistics) are kept under a fixed name.
  const revision = byRevision ? store.get(REVISION_KEY) : 'trade';
  if (revision) {
    const names = new Map<string, string>();
    for (const k of unique) {
      const name = cacheKey(revision, kind, k);
      if (name) names.set(name, k);
    }
    for (const group of chunks([...names.keys()], CACHE_BATCH)) {
      const hits = store.getAll(group);
      for (const [name, json] of Object.entries(hits)) answers.set(names.get(name)!, JSON.parse(json) as T);
    }
  }
  const missing = unique.filter((k) => !answers.has(k));
  if (!missing.length) return answers;

  const fetched = fetchMissing(missing);
  let latest = revision;
  for (const f of fetched.values()) if (f.revision) latest = f.revision;
  if (byRevision && latest && latest !== revision) store.put(REVISION_KEY, latest, REVISION_SECONDS);
  const puts: Record<string, string> = {};
  for (const [k, f] of fetched) {
    answers.set(k, f.value);
    const name = latest && f.cacheable ? cacheKey(latest, kind, k) : null;
    const json = JSON.stringify(f.value);
    if (name && json.length <= MAX_VALUE_LENGTH) puts[name] = json;
  }
  for (const group of chunks(Object.keys(puts), CACHE_BATCH)) store.putAll(Object.fromEntries(group.map((n) => [n, puts[n]])), ANSWER_SECONDS);
  return answers;
}

/** Forgets the revision, so every answer is fetched anew (after the API URL or key changed). */
export function forgetAnswers(): void {
  cache().remove(REVISION_KEY);
}
