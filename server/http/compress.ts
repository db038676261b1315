/**
 * Answers of 1 KB or more compressed when the client accepts it, with Node's own zlib: zstd (where
 * the running Node has it: 22.15+, 24), brotli or gzip, in that order of preference among the
 * codings the client rates highest. Compression runs on libuv's threads (the async API), not on the
 * thread that answers the other requests. Levels are chosen for CPU, each the lowest that brings the
 * bench's 1,000-line order (0.88 MB) under 100 KB: zstd 1 (88 KB, about 2.5 ms of CPU here), brotli
 * 4 (82 KB, 10.7 ms), gzip 6 (94 KB, 12.5 ms; level 4 left 106 KB) (docs/performance.md).
 */
import zlib from 'node:zlib';

/** Smaller answers gain less on the wire than their compression costs. */
export const MIN_COMPRESSED = 1024;

type Compress = (body: Buffer | string, done: (err: Error | null, out: Buffer) => void) => void;

const zstd = (zlib as { zstdCompress?: (b: Buffer | string, o: object, cb: (err: Error | null, out: Buffer) => void) => void }).zstdCompress;
const ZSTD_LEVEL = (zlib.constants as Record<string, number>).ZSTD_c_compressionLevel;

/** The codings this Node has, most preferred first. */
export const CODINGS: [string, Compress][] = [
  ...(zstd && ZSTD_LEVEL !== undefined ? [['zstd', (b, done) => zstd(b, { params: { [ZSTD_LEVEL]: 1 } }, done)] as [string, Compress]] : []),
  ['br', (b, done) => zlib.brotliCompress(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(b) } }, done)],
  ['gzip', (b, done) => zlib.gzip(b, { level: 6 }, done)],
];

/** The coding to use for an Accept-Encoding header (RFC 9110 12.5.3: q-values, `*`, `identity`), or null. */
export function chooseCoding(accept: string | undefined): [string, Compress] | null {
  if (accept === undefined || accept === '') return null;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (!Number.isNaN(weight)) q.set(coding, weight);
  }
  let best: [string, Compress] | null = null;
  let bestQ = 0;
  for (const c of CODINGS) {
    const weight = q.get(c[0]) ?? q.get('*') ?? 0;
    if (weight > bestQ) [best, bestQ] = [c, weight];
  }
  return best;
}
