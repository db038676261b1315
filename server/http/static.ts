/**
 * The built add-ins' files (dist/excel, dist/sheets), served from the API's origin: Office loads
 * the task pane, scripts and icons from here. Only regular files inside the folder are served; any
 * other path (missing, a folder, a dotfile, `..` in any spelling) is the API's JSON 404. Answers
 * carry Last-Modified and an ETag and are revalidated on each use (max-age=0), so a rebuilt add-in
 * is picked up at once and an unchanged one costs a 304.
 */
import { extname, join, sep } from 'node:path';
import { readFileAsync, statAsync } from '../files.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export interface StaticFile {
  status: 200 | 304;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

/**
 * The file `rest` (what follows the folder's prefix in the raw path, still percent-encoded) of
 * `root`, or null when there is none to serve; `conditional` are the request's validators.
 */
export async function staticFile(root: string, rest: string, conditional: { ifNoneMatch?: string; ifModifiedSince?: string }): Promise<StaticFile | null> {
  let name: string;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return null;
  }
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p.startsWith('.') || p.includes('\\') || p.includes('\0'))) return null;
  const path = join(root, ...parts);
  if (!path.startsWith(root + sep)) return null;
  const st = await statAsync(path).catch(() => null);
  if (!st?.isFile()) return null;
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const lastModified = st.mtime.toUTCString();
  const headers: Record<string, string | number> = { 'Cache-Control': 'public, max-age=0', 'Last-Modified': lastModified, ETag: etag, 'X-Content-Type-Options': 'nosniff' };
  const fresh = conditional.ifNoneMatch !== undefined ? conditional.ifNoneMatch.split(/\s*,\s*/).includes(etag) : conditional.ifModifiedSince !== undefined && Date.parse(conditional.ifModifiedSince) >= Math.floor(st.mtimeMs / 1000) * 1000;
  if (fresh) return { status: 304, headers, body: null };
  const body = await readFileAsync(path).catch(() => null);
  if (!body) return null;
  headers['Content-Type'] = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  headers['Content-Length'] = body.length;
  return { status: 200, headers, body };
}
