/** /excel/ and /sheets/: the built add-ins' files, when built; no key. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { staticFile } from '../http/static.js';
import { GET, type Route } from './route.js';

export function addinRoutes(staticRoot: string | undefined): Route[] {
  return ['excel', 'sheets'].flatMap((addin) => {
    const dir = staticRoot && join(staticRoot, addin);
    if (!dir || !existsSync(dir)) return [];
    const route: Route = {
      path: `/${addin}/*`,
      deep: true,
      methods: GET,
      gate: 'none',
      params: [],
      // What follows /excel/ or /sheets/ in the path as sent (decodeURI keeps the segments apart, so they line up).
      run: async (res) => {
        const headers = res.req.headers;
        return { file: await staticFile(dir, res.rawPath.split('/').slice(2).join('/'), { ifNoneMatch: headers['if-none-match'], ifModifiedSince: headers['if-modified-since'] }) };
      },
    };
    return [route];
  });
}
