/**
 * The route of a decoded path: exact paths first, then `/prefix/*` routes (one segment: a path
 * parameter, at most MAX_PARAM_LENGTH characters, else a 414; or, `deep`, any rest).
 */
import { ApiError } from '../errors.js';
import type { Route } from '../routes/route.js';

/** Longest path parameter (a tariff code is at most 13 characters, dotted). */
export const MAX_PARAM_LENGTH = 100;

export function router(routes: readonly Route[]): (path: string) => Route | null {
  const exact = new Map<string, Route>();
  const prefixed: [string, Route][] = [];
  for (const r of routes) {
    if (r.path.endsWith('/*')) prefixed.push([r.path.slice(0, -1), r]);
    else exact.set(r.path, r);
  }
  return (path) => {
    const route = exact.get(path);
    if (route !== undefined) return route;
    for (const [prefix, r] of prefixed) {
      if (!path.startsWith(prefix)) continue;
      if (r.deep) return r;
      const slash = path.indexOf('/', prefix.length);
      if ((slash < 0 ? path.length : slash) - prefix.length > MAX_PARAM_LENGTH) throw new ApiError('uri_too_long', `A path segment exceeds ${MAX_PARAM_LENGTH} characters`, { max_length: MAX_PARAM_LENGTH });
      return slash < 0 ? r : null;
    }
    return null;
  };
}
