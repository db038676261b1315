/** GET /healthz: whether the key store and the rate limiter answer, for load balancers; no key. */
import type { Tariff } from '../../shared/index.js';
import type { KeyStore } from '../auth/key-store.js';
import type { RateLimiter } from '../auth/rate-limit.js';
import { healthJson } from '../serialize.js';
import { GET, type Route } from './route.js';

export const healthRoute = (deps: { tariff: Tariff; keys: KeyStore; keyLimiter: RateLimiter }): Route => ({
  path: '/healthz',
  methods: GET,
  gate: 'none',
  params: [],
  run: async () => {
    const [store, limiter] = await Promise.all([deps.keys.health(), deps.keyLimiter.health?.() ?? { ok: true }]);
    const ok = store.ok && limiter.ok;
    const state = (h: { ok: boolean }) => (h.ok ? 'ok' : 'unavailable');
    return { status: ok ? 200 : 503, json: healthJson({ status: ok ? 'ok' : 'unavailable', hts_revision: deps.tariff.revision, key_store: state(store), rate_limiter: state(limiter) }) };
  },
});
