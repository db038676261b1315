/**
 * The gate: what stands between a matched route and its handler, in one sequence.
 *
 *   keyed route:  who (the key, with the address's limit on lookups) → the body, when the route
 *                 takes one → the key's limit (a batch counts as what it holds) → the parameters
 *   public route: the address's limit on the document → the parameters
 *
 * A refusal is thrown (ApiError) and answered in the API's shape by server/http/reply.ts. The
 * stores in this process (SQLite, the in-memory limiter) answer at once; those over the network
 * (PostgreSQL, Redis) with a promise; `await` takes either.
 */
import { checkFields, InputError } from '../shared/index.js';
import type { KeyStore } from './auth/key-store.js';
import type { RateDecision, RateLimiter } from './auth/rate-limit.js';
import { ApiError } from './errors.js';
import { readJsonBody } from './http/body.js';
import type { Exchange } from './http/exchange.js';
import type { Route } from './routes/route.js';

export const BODY_LIMIT = 2 * 1024 * 1024;
/** Every keyed route also takes `key` in the query (discouraged, accepted). */
const KEY_PARAM = ['key'];
/**
 * How long a key this instance has confirmed stays known: a known key is looked up without asking
 * its address's limit (one question to Redis fewer). Bounded: a full memory starts again.
 */
const KNOWN_FOR_MS = 24 * 3600 * 1000;
const MAX_KNOWN = 100_000;

export interface GateDeps {
  keys: KeyStore;
  /** Per key, on every /api/v1 endpoint. */
  keyLimiter: RateLimiter;
  /** Per client address: lookups of keys not known here, and (apart) the public document. */
  addressLimiter: RateLimiter;
}

export function createGate(deps: GateDeps): (res: Exchange, route: Route) => Promise<void> {
  /** Each key's limiter id, made once: the same string each time is hashed once for the limiter's map. */
  const limiterIds: string[] = [];
  /** Keys confirmed here → until when they are known. */
  const known = new Map<string, number>();

  /** Lookups of keys not known here under way, by address and key: requests with the same key arriving meanwhile share one. */
  const pending = new Map<string, Promise<{ d: RateDecision; id: number | null }>>();

  /**
   * A key not known here, looked up: counted against its address first (atomically, in a shared
   * limiter), so a burst of random keys from one address costs the store at most the address's
   * limit of lookups on all instances together; given back when the key is valid (or the store
   * could not say), so only failed attempts use up an address's limit.
   */
  async function lookUp(ip: string, key: string): Promise<{ d: RateDecision; id: number | null }> {
    const d = await deps.addressLimiter.hit(`auth:${ip}`);
    // Over the address's limit, only a key in the store's register of active keys is looked up: a
    // valid key works from an address flooded with made-up ones, and the flood costs no lookups.
    if (!d.allowed && !(await deps.keys.issued(key))) return { d, id: null };
    let id: number | null;
    try {
      id = await deps.keys.verify(key);
    } catch (e) {
      if (d.allowed) giveBack(ip);
      throw e;
    }
    if (id !== null) {
      // A refused attempt was not counted: nothing to give back.
      if (d.allowed) giveBack(ip);
      if (known.size >= MAX_KNOWN) known.clear();
      known.set(key, Date.now() + KNOWN_FOR_MS);
    }
    return { d, id };
  }

  /** Bookkeeping: should it fail, the attempt stays counted. */
  function giveBack(ip: string): void {
    const done = deps.addressLimiter.release?.(`auth:${ip}`);
    if (done instanceof Promise) done.catch(() => {});
  }

  /** The key's id, or a 401 (no valid key) or 429 (too many failed attempts from this address) thrown. */
  async function identify(res: Exchange): Promise<number> {
    const key = presentedKey(res);
    if (key !== null && (known.get(key) ?? 0) > Date.now()) {
      const id = await deps.keys.verify(key);
      if (id !== null) return id;
      // Revoked since: looked up as any other from now on.
      known.delete(key);
    }
    let found: { d: RateDecision; id: number | null };
    if (key === null) found = { d: await deps.addressLimiter.hit(`auth:${res.ip}`), id: null };
    else {
      const at = `${res.ip} ${key}`;
      let lookup = pending.get(at);
      if (lookup === undefined) {
        pending.set(at, (lookup = lookUp(res.ip, key)));
        const done = () => void pending.delete(at);
        lookup.then(done, done);
      }
      found = await lookup;
    }
    if (found.id !== null) return found.id;
    limited(res, found.d, addressLimit);
    res.header('WWW-Authenticate', 'Bearer realm="landed"');
    throw new ApiError('unauthorized', key !== null ? 'The API key is not valid (unknown or revoked)' : 'An API key is required: send Authorization: Bearer <key>');
  }

  return async function admit(res, route) {
    if (route.gate === 'public') {
      limited(res, await deps.addressLimiter.hit(`doc:${res.ip}`), documentLimit);
      return checkFields(res.query!, [], '', KEY_PARAM);
    }
    const id = await identify(res);
    const limiterId = (limiterIds[id] ??= `key:${id}`);
    let cost = 1;
    let bodyError: unknown = null;
    if (route.body !== undefined) {
      // A key already at its limit is refused before its body is read.
      limited(res, await deps.keyLimiter.peek(limiterId), keyLimit(1));
      try {
        res.body = await readJsonBody(res.req, BODY_LIMIT);
        cost = route.body.cost(res.body);
      } catch (e) {
        // A body refused still counts as a request, as any other refusal after the key.
        bodyError = e;
      }
    }
    limited(res, await deps.keyLimiter.hit(limiterId, undefined, cost), keyLimit(cost));
    const query = res.query!;
    checkFields(query, route.params, '', KEY_PARAM);
    for (const name in query) if (typeof query[name] !== 'string') throw new InputError('invalid_parameter', name, `${name} is given more than once`);
    if (bodyError !== null) throw bodyError;
  };
}

/** The limit's headers on the answer; over the limit, a 429 thrown, its message saying whose limit (written only then). */
function limited(res: Exchange, d: RateDecision, what: (d: RateDecision) => string): void {
  res.limit = d;
  if (d.allowed) return;
  res.header('Retry-After', d.reset);
  throw new ApiError('rate_limited', `${what(d)}; retry in ${d.reset} s`, { retry_after: d.reset, limit: d.limit, window_seconds: 60 });
}

const keyLimit = (cost: number) => (d: RateDecision) =>
  `Rate limit of ${d.limit} requests per 60 seconds reached` + (cost > 1 ? ` for this request, which counts as ${Math.min(cost, d.limit)} (${d.remaining} left)` : '');
const addressLimit = (d: RateDecision) => `Too many requests without a valid key from this address (at most ${d.limit} per 60 seconds)`;
const documentLimit = (d: RateDecision) => `Too many requests from this address (at most ${d.limit} per 60 seconds)`;

function presentedKey(res: Exchange): string | null {
  const auth = res.authorization;
  // The common spelling without a regular expression; any other goes through it.
  if (auth) return auth.startsWith('Bearer ') && auth.indexOf(' ', 7) < 0 && auth.length > 7 ? auth.slice(7) : (/^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? '');
  const q = res.query!.key;
  return typeof q === 'string' ? q : null;
}
