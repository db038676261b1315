/**
 * Answers are cached in the document's CacheService cache, keyed by their arguments and the
 * schedule revision that produced them. CacheService keeps about 1,000 items and then evicts the
 * oldest, so answers are packed into a fixed set of buckets (a hash of the key picks the bucket),
 * each one item of up to 100 KB: a column of thousands of answers takes at most BUCKETS items.
 * Buckets are rewritten under the document lock, as cells recalculate in parallel executions.
 *
 * The revision last seen is itself cached for an hour: after that every lookup misses once, the
 * fresh answers tell the current revision, and answers of an older revision are never read again.
 * Answers live six hours (CacheService's maximum).
 */
const ANSWER_SECONDS = 6 * 60 * 60;
const REVISION_SECONDS = 60 * 60;
const REVISION_KEY = 'landed:revision';
const BUCKETS = 199;
/** CacheService's limit per value is 100 KB; a bucket stays under it by dropping its oldest answers. */
const MAX_BUCKET_LENGTH = 95_000;
/** How long an execution waits for another to finish filling the cache before it asks on its own. */
const LOCK_WAIT_MS = 15_000;

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

/** FNV-1a: a stable bucket for a key. */
function bucketOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

const bucketName = (revision: string, kind: string, key: string) => `landed|${revision}|${kind}|${bucketOf(key)}`;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The cached answers among `keys`. */
function readBuckets<T>(store: GoogleAppsScript.Cache.Cache, revision: string, kind: string, keys: readonly string[]): Map<string, T> {
  const found = new Map<string, T>();
  const names = [...new Set(keys.map((k) => bucketName(revision, kind, k)))];
  const buckets = store.getAll(names);
  for (const k of keys) {
    const json = buckets[bucketName(revision, kind, k)];
    if (json === undefined) continue;
    const bucket = JSON.parse(json) as Record<string, T>;
    if (Object.prototype.hasOwnProperty.call(bucket, k)) found.set(k, bucket[k]);
  }
  return found;
}

/** Adds answers to their buckets (read again, as another execution may have added to them). */
function writeBuckets(store: GoogleAppsScript.Cache.Cache, revision: string, kind: string, answers: Map<string, unknown>): void {
  const byName = new Map<string, [string, unknown][]>();
  for (const [k, v] of answers) {
    const name = bucketName(revision, kind, k);
    if (!byName.has(name)) byName.set(name, []);
    byName.get(name)!.push([k, v]);
  }
  const current = store.getAll([...byName.keys()]);
  const puts: Record<string, string> = {};
  for (const [name, entries] of byName) {
    const bucket = { ...(current[name] ? (JSON.parse(current[name]) as Record<string, unknown>) : {}) };
    for (const [k, v] of entries) {
      delete bucket[k]; // re-added last: the newest answers are kept longest
      bucket[k] = v;
    }
    const keys = Object.keys(bucket);
    let json = JSON.stringify(bucket);
    while (json.length > MAX_BUCKET_LENGTH && keys.length) {
      delete bucket[keys.shift()!];
      json = JSON.stringify(bucket);
    }
    puts[name] = json;
  }
  store.putAll(puts, ANSWER_SECONDS);
}

function documentLock(): GoogleAppsScript.Lock.Lock {
  return LockService.getDocumentLock() ?? LockService.getScriptLock();
}

/**
 * The answers for `keys` (deduplicated): from the cache where it has them, the rest from
 * `fetchMissing`, which gets the missing keys and answers each of them (and may answer more keys,
 * which are cached too). A miss waits for the document lock first: another execution may be
 * filling the cache with this very answer.
 */
export function cachedLookup<T>(
  kind: string,
  keys: readonly string[],
  fetchMissing: (missing: string[], cached: (keys: readonly string[]) => Set<string>) => Map<string, Fetched<T>>,
  { byRevision = true }: { byRevision?: boolean } = {},
): Map<string, T> {
  const store = cache();
  const unique = [...new Set(keys)];
  // Answers that do not come from the schedule (trade statistics) are kept under a fixed name.
  const revisionNow = () => (byRevision ? store.get(REVISION_KEY) : 'trade');
  const lookup = (revision: string | null, wanted: readonly string[]) => (revision ? readBuckets<T>(store, revision, kind, wanted) : new Map<string, T>());
  const answers = lookup(revisionNow(), unique);
  if (answers.size === unique.length) return answers;

  const lock = documentLock();
  const locked = lock.tryLock(LOCK_WAIT_MS);
  try {
    const revision = revisionNow();
    for (const [k, v] of lookup(revision, unique.filter((k) => !answers.has(k)))) answers.set(k, v);
    const missing = unique.filter((k) => !answers.has(k));
    if (!missing.length) return answers;
    const cached = (more: readonly string[]) => new Set(lookup(revision, more).keys());
    const fetched = fetchMissing(missing, cached);
    let latest = revision;
    for (const f of fetched.values()) if (f.revision) latest = f.revision;
    if (byRevision && latest && latest !== revision) store.put(REVISION_KEY, latest, REVISION_SECONDS);
    const asked = new Set(missing);
    const keep = new Map<string, unknown>();
    for (const [k, f] of fetched) {
      if (asked.has(k)) answers.set(k, f.value);
      if (f.cacheable) keep.set(k, f.value);
    }
    if (latest && keep.size) writeBuckets(store, latest, kind, keep);
    return answers;
  } finally {
    if (locked) lock.releaseLock();
  }
}

/** Forgets the revision, so every answer is fetched anew (after the API URL or key changed). */
export function forgetAnswers(): void {
  cache().remove(REVISION_KEY);
}
