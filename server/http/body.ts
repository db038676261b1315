/**
 * Request bodies as Fastify's JSON parser took them: only application/json (any parameters), at
 * most `limit` bytes (refused by its Content-Length before reading, or as soon as more arrives),
 * read as UTF-8 (invalid bytes become U+FFFD), a leading BOM ignored, and an object with an own
 * `__proto__` key, or a `constructor` object with a `prototype`, refused as Fastify's defaults
 * (onProtoPoisoning and onConstructorPoisoning: 'error') refused them: such keys are harmless in
 * what JSON.parse returns but not in code that later copies them onto other objects.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

type BodyDone = (err: Error | null, value?: unknown) => void;

/** Reads the body of `req` and calls `done` once, with the parsed value (undefined when there was no body) or an ApiError. */
export function readJsonBody(req: IncomingMessage, limit: number, done: BodyDone): void {
  const type = req.headers['content-type'];
  const length = req.headers['content-length'];
  if (type === undefined) {
    // No type and no body: nothing to parse (the handler says what is missing); a body without a type is refused.
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return done(null, undefined);
    return done(unsupported());
  }
  if (mediaType(type) !== 'application/json') return done(unsupported());
  const encoding = req.headers['content-encoding'];
  // A compressed body is not read as if it were plain JSON (nor plain JSON labelled compressed).
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return done(new ApiError('unsupported_media_type', `The body must not be compressed (Content-Encoding ${JSON.stringify(encoding.slice(0, 20))}): send it as plain application/json`));
  if (Number(length) > limit) return done(tooLarge(limit));
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onError);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return void chunks.push(chunk);
    // Node reads and discards the rest once the answer is sent, so the connection stays usable.
    stop();
    done(tooLarge(limit));
  };
  const onEnd = () => {
    stop();
    let value;
    try {
      // A body that came in one piece (most do, up to 64 kB) is read where it is, not copied first.
      value = parseJson((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8'));
    } catch (e) {
      return done(e as Error);
    }
    done(null, value);
  };
  const onError = (e: Error) => {
    stop();
    done(e);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

function mediaType(header: string): string {
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

const unsupported = () => new ApiError('unsupported_media_type', 'The body must be application/json');
const tooLarge = (limit: number) => new ApiError('payload_too_large', `The body exceeds ${limit} bytes (${limit / 1024 / 1024} MB)`);
const notJson = (why: string) => new ApiError('invalid_json', `The body is not valid JSON: ${why}`);

/** Text that may hold a forbidden key, spelled out or escaped: only such bodies are walked after parsing. */
const SUSPECT = /__proto__|constructor|\\u/;

/** The value of a JSON text; an ApiError (invalid_json) saying where it is not JSON, without echoing it (it may hold a key). */
function parseJson(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) throw notJson('the body is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message);
    throw notJson(at ? `unexpected input at character ${at[1]}` : 'it ends too early or is not JSON at all');
  }
  if (SUSPECT.test(text) && hasForbiddenKey(value)) throw notJson('it has a __proto__ key or a constructor.prototype');
  return value;
}

/** Breadth first, without recursion: a body may be nested hundreds of thousands of levels deep. */
function hasForbiddenKey(root: unknown): boolean {
  let level: unknown[] = [root];
  while (level.length > 0) {
    const next: unknown[] = [];
    for (const node of level) {
      if (node === null || typeof node !== 'object') continue;
      if (Object.hasOwn(node, '__proto__')) return true;
      const c = (node as { constructor?: unknown }).constructor;
      if (Object.hasOwn(node, 'constructor') && c !== null && typeof c === 'object' && Object.hasOwn(c, 'prototype')) return true;
      for (const key in node) next.push((node as Record<string, unknown>)[key]);
    }
    level = next;
  }
  return false;
}
